/**
 * GraphQL fields of Thread that speak transcript formats: transcript and modelContext.
 * The importTranscript mutation is in src/import/import.schema.ts.
 */
import { TranscriptFormatEnum } from '../items/item.schema.js';
import { builder, needs } from '../schema/builder.js';
import { ThreadRef } from '../threads/thread.schema.js';
import { noteDropped, threadModelContext, threadTranscript } from './transcript.service.js';

builder.objectFields(ThreadRef, (t) => ({
  transcript: t.field({
    authScopes: needs('threads:read'),
    type: 'JSON',
    description:
      "The whole stored log in a provider's format (compaction records are not applied): what an export writes. Line formats (CLAUDE_CODE_JSONL, THREADSTORE_JSONL) come as an array with one JSON value per line. Items a format cannot express are listed in the response's extensions.transcriptDropped, never silently lost.",
    args: { format: t.arg({ type: TranscriptFormatEnum, required: true }) },
    resolve: async (thread, args, ctx) => {
      const { value, dropped } = await threadTranscript(ctx, thread, args.format);
      noteDropped(ctx, dropped);
      return value;
    },
  }),
  modelContext: t.field({
    authScopes: needs('threads:read'),
    type: 'JSON',
    description:
      "What an agent sends to its model, in that provider's request shape (context with each compaction record as a summary the model is told came from the store): OPENAI_CHAT {messages}, OPENAI_RESPONSES {input}, ANTHROPIC_MESSAGES {system, messages}. Tool calls and results stay paired.",
    args: { format: t.arg({ type: TranscriptFormatEnum, required: true }) },
    resolve: async (thread, args, ctx) => {
      const { request, dropped } = await threadModelContext(ctx, thread, args.format);
      noteDropped(ctx, dropped);
      return request;
    },
  }),
}));
