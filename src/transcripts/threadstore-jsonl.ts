/**
 * THREADSTORE_JSONL: threadstore's own dump of one thread, one JSON value a line. The export
 * side writes it (Thread.transcript, npm run export, GET /threads/<id>/export); the import side
 * restores it (importTranscript, npm run import). A dump restored on either database and
 * dumped again is byte-identical, so every value here is what the store keeps, not what it
 * derives: times as ISO-8601 with milliseconds (`Date.toISOString()`), JSON columns parsed.
 *
 * Lines, in this order:
 * 1. one ThreadLine;
 * 2. one ItemLine per stored item, in seq order (gaps where items were purged; compaction
 *    markers included, they are items);
 * 3. one CompactionLine per compaction record, in startSeq order.
 * Keys are written in the order the interfaces list them. Unknown `kind`s are an error on
 * restore (a newer dump needs a newer threadstore); `version` says which shapes a dump uses.
 */
import type { JsonValue } from '../json.js';
import type { JsonObject, TranscriptFormat } from './types.js';

/** The version of the line shapes below; restore refuses a dump of another version. */
export const THREADSTORE_JSONL_VERSION = 1;

/** The first line: the thread as stored. */
export interface ThreadLine {
  kind: 'thread';
  version: typeof THREADSTORE_JSONL_VERSION;
  id: string;
  agentId: string;
  name: string | null;
  archived: boolean;
  /** The metadata object. */
  metadata: JsonObject;
  /** ISO-8601. */
  createdAt: string;
  /** ISO-8601. */
  updatedAt: string;
  /** Seq the next appended item gets (may exceed the last item's seq + 1 after purges). */
  nextSeq: number;
  /**
   * A fork's origin (forkThread): the source's id and the last seq copied. Present only on
   * forks, so dumps of other threads are as before.
   */
  forkedFrom?: { threadId: string; seq: number };
}

/** One stored item: the contract's ConversationItem fields as stored. */
export interface ItemLine {
  kind: 'item';
  seq: number;
  type: string;
  /** COMPLETED, IN_PROGRESS or ACTION_REQUIRED. */
  status: string;
  responseId: string | null;
  /** ISO-8601. */
  createdAt: string;
  createdBy: string | null;
  /** The stored data object (contract: ConversationItem.data). */
  data: JsonValue;
  /** The source record, or null. */
  raw: JsonValue;
  rawFormat: TranscriptFormat | null;
}

/** One compaction record (contract: CompactionRecord). */
export interface CompactionLine {
  kind: 'compaction';
  startSeq: number;
  endSeq: number;
  summary: string;
  /** ISO-8601. */
  createdAt: string;
  createdBy: string | null;
  /** Seq of its CompactionItem marker (an ItemLine of the same dump, unless purged). */
  markerSeq: number;
}

/** Any line of a dump. */
export type ThreadstoreLine = ThreadLine | ItemLine | CompactionLine;
