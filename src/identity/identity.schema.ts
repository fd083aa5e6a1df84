/**
 * GraphQL of identity (contract part identity): Viewer and Query.viewer, ApiKey with
 * Query.apiKeys and the createApiKey and revokeApiKey mutations (admin scope).
 */
import { BadUserInputError } from '../errors.js';
import { apiKeyNodeId, parseApiKeyId } from '../ids.js';
import { builder, needs } from '../schema/builder.js';
import { NodeRef } from '../schema/node.js';
import { createApiKey, listApiKeys, revokeApiKey } from './api-key.service.js';
import type { ApiKeyRecord } from './api-key.store.js';
import { AUTH_METHODS, type Identity } from './identity.js';

const AuthMethodRef = builder.enumType('AuthMethod', {
  description: 'How the caller authenticated.',
  values: AUTH_METHODS,
});

const ViewerRef = builder.objectRef<Identity>('Viewer').implement({
  description: 'Who the request acts as.',
  fields: (t) => ({
    tenantId: t.exposeString('tenantId'),
    subject: t.exposeString('subject', {
      nullable: true,
      description: "The token's subject or the API key's id; null when authentication is disabled.",
    }),
    scopes: t.stringList({ resolve: (identity) => [...identity.scopes] }),
    method: t.field({
      type: AuthMethodRef,
      description: 'How the caller authenticated.',
      resolve: (identity) => identity.method,
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({ type: ViewerRef, resolve: (_root, _args, ctx) => ctx.identity }),
);

export const ApiKeyRef = builder.objectRef<ApiKeyRecord>('ApiKey').implement({
  description:
    "An API key of the caller's tenant. The secret itself is shown once, when it is created.",
  interfaces: [NodeRef],
  isTypeOf: (value) => typeof value === 'object' && value !== null && 'secretHash' in value,
  fields: (t) => ({
    id: t.id({ description: '"apikey:<key id>".', resolve: (key) => apiKeyNodeId(key.id) }),
    name: t.exposeString('name'),
    scopes: t.exposeStringList('scopes'),
    createdAt: t.field({ type: 'DateTime', resolve: (key) => key.createdAt }),
    lastUsedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Coarse (may lag by a few minutes); null when never used.',
      resolve: (key) => key.lastUsedAt,
    }),
    revokedAt: t.field({ type: 'DateTime', nullable: true, resolve: (key) => key.revokedAt }),
  }),
});

builder.queryField('apiKeys', (t) =>
  t.field({
    authScopes: needs('admin'),
    type: [ApiKeyRef],
    description: "The tenant's keys, newest first (admin).",
    resolve: (_root, _args, ctx) => listApiKeys(ctx),
  }),
);

const CreateApiKeyInputRef = builder.inputType('CreateApiKeyInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    scopes: t.stringList({ required: true, description: "A subset of the caller's own scopes." }),
  }),
});

const CreateApiKeyPayloadRef = builder
  .objectRef<{ apiKey: ApiKeyRecord; secret: string }>('CreateApiKeyPayload')
  .implement({
    fields: (t) => ({
      apiKey: t.field({ type: ApiKeyRef, resolve: (p) => p.apiKey }),
      secret: t.exposeString('secret', {
        description: 'The secret (tsk_...): returned only here, stored only as a hash.',
      }),
    }),
  });

builder.mutationField('createApiKey', (t) =>
  t.field({
    authScopes: needs('admin'),
    type: CreateApiKeyPayloadRef,
    args: { input: t.arg({ type: CreateApiKeyInputRef, required: true }) },
    resolve: (_root, { input }, ctx) => createApiKey(ctx, input),
  }),
);

const RevokeApiKeyInputRef = builder.inputType('RevokeApiKeyInput', {
  fields: (t) => ({ id: t.id({ required: true }) }),
});

const RevokeApiKeyPayloadRef = builder
  .objectRef<{ apiKey: ApiKeyRecord }>('RevokeApiKeyPayload')
  .implement({
    fields: (t) => ({ apiKey: t.field({ type: ApiKeyRef, resolve: (p) => p.apiKey }) }),
  });

builder.mutationField('revokeApiKey', (t) =>
  t.field({
    authScopes: needs('admin'),
    type: RevokeApiKeyPayloadRef,
    description: 'A revoked key fails from the next request on, on every instance.',
    args: { input: t.arg({ type: RevokeApiKeyInputRef, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const keyId = parseApiKeyId(String(input.id));
      if (!keyId) {
        throw new BadUserInputError('id: not an API key id; pass ApiKey.id ("apikey:k...").', {
          field: 'id',
        });
      }
      return { apiKey: await revokeApiKey(ctx, keyId) };
    },
  }),
);
