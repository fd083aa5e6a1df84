/**
 * GraphQL of webhooks (contract part beyond): WebhookEvent, Webhook (a Node: "webhook:<id>"),
 * Query.webhooks and the createWebhook and deleteWebhook mutations, all admin scope.
 */

import { webhookNodeId } from '../ids.js';
import { builder, needs } from '../schema/builder.js';
import { NodeRef } from '../schema/node.js';
import { createWebhook, deleteWebhook, listWebhooks } from './webhook.service.js';
import type { WebhookRecord } from './webhook.store.js';
import { WEBHOOK_EVENTS } from './webhook-events.js';

const WebhookEventRef = builder.enumType('WebhookEvent', {
  description: 'A change a webhook can subscribe to.',
  values: WEBHOOK_EVENTS,
});

export const WebhookRef = builder.objectRef<WebhookRecord>('Webhook').implement({
  description:
    'A subscriber URL. Each event is written to an outbox in the same transaction as the change and delivered at least once, in order per thread, as a POST with a JSON body {id, type, tenantId, threadId, at, data} and a header threadstore-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the secret>. Failed deliveries are retried with backoff for 24 hours.',
  interfaces: [NodeRef],
  isTypeOf: (value) =>
    typeof value === 'object' && value !== null && 'secret' in value && 'failingSince' in value,
  fields: (t) => ({
    id: t.id({ description: '"webhook:<id>".', resolve: (w) => webhookNodeId(w.id) }),
    url: t.exposeString('url'),
    events: t.field({ type: [WebhookEventRef], resolve: (w) => w.events }),
    createdAt: t.field({ type: 'DateTime', resolve: (w) => w.createdAt }),
    failingSince: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Since when deliveries to this URL have failed in a row; null when healthy.',
      resolve: (w) => w.failingSince,
    }),
  }),
});

builder.queryField('webhooks', (t) =>
  t.field({
    authScopes: needs('admin'),
    type: [WebhookRef],
    description: "The tenant's webhooks (admin).",
    resolve: (_root, _args, ctx) => listWebhooks(ctx),
  }),
);

const CreateWebhookInputRef = builder.inputType('CreateWebhookInput', {
  fields: (t) => ({
    url: t.string({
      required: true,
      description: 'http(s) URL; other schemes are BAD_USER_INPUT.',
    }),
    events: t.field({ type: [WebhookEventRef], required: true }),
  }),
});

const CreateWebhookPayloadRef = builder
  .objectRef<{ webhook: WebhookRecord; secret: string }>('CreateWebhookPayload')
  .implement({
    fields: (t) => ({
      webhook: t.field({ type: WebhookRef, resolve: (p) => p.webhook }),
      secret: t.exposeString('secret', { description: 'The signing secret: returned only here.' }),
    }),
  });

builder.mutationField('createWebhook', (t) =>
  t.field({
    authScopes: needs('admin'),
    type: CreateWebhookPayloadRef,
    args: { input: t.arg({ type: CreateWebhookInputRef, required: true }) },
    resolve: (_root, { input }, ctx) => createWebhook(ctx, input),
  }),
);

const DeleteWebhookInputRef = builder.inputType('DeleteWebhookInput', {
  fields: (t) => ({ id: t.id({ required: true }) }),
});

const DeleteWebhookPayloadRef = builder
  .objectRef<{ deletedWebhookId: string }>('DeleteWebhookPayload')
  .implement({
    fields: (t) => ({ deletedWebhookId: t.exposeID('deletedWebhookId') }),
  });

builder.mutationField('deleteWebhook', (t) =>
  t.field({
    authScopes: needs('admin'),
    type: DeleteWebhookPayloadRef,
    description: 'Deletes the webhook with its undelivered events. NOT_FOUND for an unknown id.',
    args: { input: t.arg({ type: DeleteWebhookInputRef, required: true }) },
    resolve: async (_root, { input }, ctx) => ({
      deletedWebhookId: await deleteWebhook(ctx, String(input.id)),
    }),
  }),
);
