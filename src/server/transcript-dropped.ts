/**
 * extensions.transcriptDropped (contract: Thread.transcript, Thread.modelContext): what an
 * operation's transcripts and model contexts could not carry, listed in the response rather
 * than silently lost. Resolvers note it per operation (src/transcripts/transcript.service.ts,
 * noteDropped); this plugin adds it to the result once execution is done.
 * Each entry: {itemId, seq, what, why} (itemId and seq null for a thread-level entry).
 */
import { handleStreamOrSingleExecutionResult, type Plugin } from 'graphql-yoga';
import { droppedOf } from '../transcripts/transcript.service.js';

/** Adds extensions.transcriptDropped to a result whose operation dropped something. */
export function transcriptDroppedPlugin(): Plugin {
  return {
    onExecute: ({ args }) => ({
      onExecuteDone: (payload) =>
        handleStreamOrSingleExecutionResult(payload, ({ result, setResult }) => {
          const dropped = droppedOf(args.contextValue as object);
          if (dropped.length === 0) return;
          setResult({
            ...result,
            extensions: { ...result.extensions, transcriptDropped: dropped },
          });
        }),
    }),
  };
}
