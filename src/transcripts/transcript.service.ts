/**
 * A stored thread as a transcript (Thread.transcript) and as a model request
 * (Thread.modelContext), through the codecs in this folder.
 * PLACEHOLDER on branch i11: the export side implements both.
 */
import type { ServiceContext } from '../context.js';
import { ThreadstoreError } from '../errors.js';
import type { ContextFormat } from './index.js';
import type { Encoded, ModelContext, TranscriptFormat } from './types.js';

/**
 * The whole stored log of a thread in `format` (contract: Thread.transcript).
 * @returns the value and what the format could not carry (for extensions.transcriptDropped)
 */
export async function threadTranscript(
  _ctx: ServiceContext,
  _threadId: string,
  _format: TranscriptFormat,
): Promise<Encoded> {
  throw new ThreadstoreError('UNAVAILABLE', 'Thread.transcript is not implemented yet.');
}

/** A thread's compacted context as a provider request (contract: Thread.modelContext). */
export async function threadModelContext(
  _ctx: ServiceContext,
  _threadId: string,
  _format: ContextFormat,
): Promise<ModelContext> {
  throw new ThreadstoreError('UNAVAILABLE', 'Thread.modelContext is not implemented yet.');
}
