/**
 * Types shared by the transcript codecs (one module per TranscriptFormat in this folder).
 * Pure data: no database, no GraphQL. The codecs turn a source value into item drafts
 * (decode), stored items back into a source value (encode), and a compacted context into a
 * provider request (modelContext).
 */
import type { ItemStatus } from '../items/item-types.js';
import type { JsonValue } from '../json.js';

/** The contract's TranscriptFormat (contract-parts/transcripts.graphql). */
export const TRANSCRIPT_FORMATS = [
  'OPENAI_CHAT',
  'OPENAI_RESPONSES',
  'ANTHROPIC_MESSAGES',
  'CLAUDE_CODE_JSONL',
  'AI_SDK_UI_MESSAGES',
  'THREADSTORE_JSONL',
] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/** JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/**
 * One item to write: exactly the contract's NewItem as extended by the transcripts part
 * (raw, rawFormat; ReasoningInput.signature/encryptedContent/summary), so integration is
 * `appendItems`/`prepareItem` with `createdAt` turned into a Date. Exactly one body field
 * (message ... other) is set.
 *
 * `raw` follows the split rule (see envelope.ts): a source record that became one item is its
 * raw verbatim; a record that became several items is split along one list, and its first
 * item's raw is `{record, block?}` (the record with that list replaced by its length, and the
 * list's first element) while every later item's raw is its own element verbatim.
 */
export interface ItemDraft {
  status?: ItemStatus;
  /** The provider's message/response id; items of one model response share it. */
  responseId: string | null;
  /** The model or agent that wrote the item, when the source says. */
  createdBy: string | null;
  /** ISO-8601 source timestamp; null: the time of the write. */
  createdAt: string | null;
  message?: { role: string; content: string | null; parts?: JsonValue; usage?: TokenUsage };
  toolCall?: { callId: string; name: string; arguments: JsonValue };
  toolResult?: { callId: string; name?: string | null; output: JsonValue; isError: boolean };
  reasoning?: {
    text: string;
    signature?: string | null;
    encryptedContent?: string | null;
    summary?: JsonValue;
  };
  resourceEvent?: { kind: string; payload?: JsonValue };
  other?: { type: string; data: JsonValue };
  /** The source record (split rule above); null when the item was written without one. */
  raw: JsonValue;
  rawFormat: TranscriptFormat;
}

/** The contract's TokenUsageInput. */
export interface TokenUsage {
  inputTokens?: number | null;
  outputTokens?: number | null;
  totalTokens?: number | null;
}

/**
 * A compaction record found in a source (Claude Code compact boundary): it summarises the
 * conversation's items startIndex..endIndex (positions in DecodedConversation.items, which are
 * the seqs when the conversation is imported into a new thread).
 */
export interface CompactionDraft {
  startIndex: number;
  endIndex: number;
  summary: string;
  createdAt: string | null;
  createdBy: string | null;
}

/** One conversation of a source value, in source order. */
export interface DecodedConversation {
  /** 0-based position of the conversation in the source. */
  index: number;
  items: ItemDraft[];
  compactions: CompactionDraft[];
  /**
   * Keys of the source around the conversation that are no part of it (a tau-bench run's
   * task_id and reward, a request's model and tools, a trajectory's info): for thread metadata.
   * Not reproduced by encode.
   */
  meta: JsonObject;
  /**
   * Where each item's source record is ("messages[3]", "line 12"; one entry per item), so an
   * item refused on write is named by its source record, not its position after splitting.
   * Not part of the content (contentKey leaves it out).
   */
  locations?: string[];
}

/**
 * An item as the store returns it: the contract's ConversationItem fields (data holds the
 * type-specific fields under their GraphQL names, null ones left out) plus raw and rawFormat.
 */
export interface StoredItem {
  id: string;
  seq: number;
  type: string;
  status?: ItemStatus;
  responseId: string | null;
  /** ISO-8601. */
  createdAt: string;
  createdBy: string | null;
  data: JsonValue;
  raw: JsonValue;
  rawFormat: TranscriptFormat | null;
}

/** A compaction record as stored (the contract's CompactionRecord). */
export interface CompactionRecord {
  startSeq: number;
  endSeq: number;
  summary: string;
  createdAt?: string;
  createdBy?: string | null;
}

/** What encode or modelContext left out, and why: never silently lost. */
export interface Dropped {
  /** The item's id and seq; null for a compaction record. */
  itemId: string | null;
  seq: number | null;
  /** What was left out ("the whole item", "signature", "encryptedContent"...). */
  what: string;
  why: string;
}

/** encode's result: the source value and what it could not carry. */
export interface Encoded {
  value: JsonValue;
  dropped: Dropped[];
}

/** A context entry: an item, or a compaction record standing in for the items it covers. */
export type ContextEntry = StoredItem | ({ kind: 'compaction' } & CompactionRecord);

/** modelContext's result: the provider request shape and what it could not carry. */
export interface ModelContext {
  request: JsonObject;
  dropped: Dropped[];
}

/**
 * What an encode carries from one run of a thread's items to the next: a stream
 * (export-stream.ts) encodes a thread chunk by chunk with one state, so the chunks together
 * equal one whole encode. Grows with the thread's tool calls (a few bytes per call id), not
 * with its content.
 */
export interface EncodeState {
  /** ANTHROPIC_MESSAGES and CLAUDE_CODE_JSONL: tool_use ids given out (unique per request). */
  usedIds: Set<string>;
  /** The same: per source callId, the tool_use ids of converted calls waiting for a result. */
  waiting: Map<string, string[]>;
  /**
   * CLAUDE_CODE_JSONL: per compact_boundary line's seq, the text of the isCompactSummary line
   * after it (null until seen), so the compaction marker the import made from them is known
   * to be carried by the session's own lines.
   */
  boundaries: Map<number, string | null>;
  /** The seq of the last compact_boundary line and how many lines may still bring its summary. */
  boundary: { seq: number; left: number } | null;
}

/** A fresh EncodeState (the start of a thread). */
export function newEncodeState(): EncodeState {
  return { usedIds: new Set(), waiting: new Map(), boundaries: new Map(), boundary: null };
}

/** The functions every format module offers. */
export interface TranscriptCodec {
  format: TranscriptFormat;
  /**
   * @param source the parsed source (line formats: an array with one value per line)
   * @throws TranscriptError naming the index or line that is wrong and why
   */
  decode(source: unknown): DecodedConversation[];
  /**
   * Items in seq order (and the thread's compaction records) back to a source value.
   * @param state what earlier runs of the same thread left (a stream's chunks); a fresh one
   *   when left out
   */
  encode(
    items: readonly StoredItem[],
    compactions?: readonly CompactionRecord[],
    state?: EncodeState,
  ): Encoded;
  /**
   * True when encode surely begins a new value (message, line, array element) with this item
   * and lets nothing before it continue past it, whatever came before: a stream
   * (export-stream.ts) may cut before it. False when encode may group it with the items before
   * it (a list element of a split record, a block that joins the open message, a tool call).
   */
  startsValue(item: StoredItem): boolean;
}

/** A source value that cannot be decoded; `location` is a path like "messages[3].content[1]". */
export class TranscriptError extends Error {
  constructor(
    readonly location: string | null,
    readonly reason: string,
  ) {
    super(location ? `${location}: ${reason}` : reason);
    this.name = 'TranscriptError';
  }
}
