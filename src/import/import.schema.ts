/**
 * GraphQL of transcript import: ImportTranscriptInput, ImportTranscriptPayload and the
 * importTranscript mutation (contract-parts/transcripts.graphql). Rules: import.service.ts.
 */

import { TranscriptFormatEnum } from '../items/item.schema.js';
import { builder, needs } from '../schema/builder.js';
import { ThreadRef } from '../threads/thread.schema.js';
import type { TranscriptFormat } from '../transcripts/types.js';
import { type ImportResult, importTranscript } from './import.service.js';

const ImportTranscriptInputRef = builder.inputType('ImportTranscriptInput', {
  description: 'A transcript to import as a new thread.',
  fields: (t) => ({
    format: t.field({ type: TranscriptFormatEnum, required: true }),
    transcript: t.field({
      type: 'JSON',
      required: true,
      description:
        'The transcript as a JSON value; line formats (CLAUDE_CODE_JSONL, THREADSTORE_JSONL) as an array with one value per line, or as one string of lines.',
    }),
    threadId: t.id({ description: 'The thread to create; generated when left out.' }),
    agentId: t.string({ required: true }),
    name: t.string(),
    metadata: t.field({
      type: 'JSON',
      description:
        "Defaults to the source's scalar keys around the conversation (a run's task_id, a request's model...).",
    }),
    idempotencyKey: t.string({
      description:
        'Importing the same transcript again with the same key returns the first result (replayed: true) and writes nothing.',
    }),
  }),
});

const ImportTranscriptPayloadRef = builder
  .objectRef<ImportResult>('ImportTranscriptPayload')
  .implement({
    description: 'The result of importTranscript.',
    fields: (t) => ({
      thread: t.field({ type: ThreadRef, resolve: (p) => p.thread }),
      itemsImported: t.exposeInt('itemsImported'),
      compactionsImported: t.exposeInt('compactionsImported'),
      replayed: t.exposeBoolean('replayed'),
    }),
  });

builder.mutationField('importTranscript', (t) =>
  t.field({
    authScopes: needs('threads:write'),
    type: ImportTranscriptPayloadRef,
    description:
      'Creates a thread from a transcript in one transaction: all of it or nothing. BAD_USER_INPUT names the line or index that does not parse and why.',
    args: { input: t.arg({ type: ImportTranscriptInputRef, required: true }) },
    resolve: (_root, { input }, ctx) =>
      importTranscript(ctx, {
        format: input.format as TranscriptFormat,
        transcript: input.transcript,
        threadId: input.threadId == null ? null : String(input.threadId),
        agentId: input.agentId,
        name: input.name,
        metadata: input.metadata,
        idempotencyKey: input.idempotencyKey,
      }),
  }),
);
