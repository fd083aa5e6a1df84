/**
 * CLAUDE_CODE_JSONL: a Claude Code session file, one record a line (`{type, uuid, parentUuid,
 * sessionId, timestamp, message?, ...}`); the source is the array of parsed lines (or the text).
 *
 * A line with a `message` is an Anthropic message: one item per content block (split rule,
 * envelope.ts, along `message.content`; a line with one block or string content is its item's
 * raw verbatim). Lines that share `message.id` share the responseId; createdAt is the line's
 * timestamp, createdBy the message's model. Other lines (queue-operation, system, summary,
 * file-history-snapshot...) become resource_event items (kind = type, or type:subtype) with the
 * line as payload. Side chains are kept like any line. A `compact_boundary` system line makes a
 * compaction record over the items since the previous boundary, its summary the text of the
 * `isCompactSummary` user line that follows it.
 */
import { isJsonObject, type JsonValue } from '../json.js';
import { buildMessages, startsMessage } from './anthropic-blocks.js';
import { messageDrafts } from './anthropic-messages.js';
import { isEnvelope, isoTime, readRecords, splitRaws, str } from './envelope.js';
import { checkRecord } from './record-check.js';
import {
  type CompactionDraft,
  type CompactionRecord,
  type DecodedConversation,
  type Dropped,
  type Encoded,
  type EncodeState,
  type ItemDraft,
  type JsonObject,
  newEncodeState,
  type StoredItem,
  TranscriptError,
} from './types.js';

const FORMAT = 'CLAUDE_CODE_JSONL' as const;

/** The lines of a source: an array of values, or JSONL text. */
export function linesOf(source: unknown): JsonValue[] {
  if (Array.isArray(source)) return source;
  if (typeof source !== 'string') throw new TranscriptError(null, 'expected an array of lines');
  const lines: JsonValue[] = [];
  source.split(/\r?\n/).forEach((text, i) => {
    if (text.trim() === '') return;
    try {
      lines.push(JSON.parse(text) as JsonValue);
    } catch (error) {
      throw new TranscriptError(`line ${i + 1}`, `not JSON: ${(error as Error).message}`);
    }
  });
  return lines;
}

/** The one conversation of a Claude Code session (see the module docstring). */
export function decode(source: unknown): DecodedConversation[] {
  const decoder = new LineDecoder();
  const items: ItemDraft[] = [];
  const locations: string[] = [];
  linesOf(source).forEach((line, i) => {
    for (const d of decoder.push(line)) {
      items.push(d);
      locations.push(`line ${i + 1}`);
    }
  });
  return [{ index: 0, items, compactions: decoder.compactions, meta: {}, locations }];
}

/**
 * Decodes a session one line at a time, so an importer can stream a large file: `push` returns
 * the drafts of each line (item indexes continue across lines); `compactions` fills as
 * compact boundaries meet their summary line (within the next 3 lines).
 */
export class LineDecoder {
  readonly compactions: CompactionDraft[] = [];
  private lines = 0;
  private items = 0;
  private start = 0;
  private boundary: {
    index: number;
    start: number;
    createdAt: string | null;
    left: number;
  } | null = null;

  /** @throws TranscriptError ("line N: ...") for a line that is not an object or message */
  push(line: JsonValue): ItemDraft[] {
    const where = `line ${++this.lines}`;
    if (!isJsonObject(line)) throw new TranscriptError(where, 'a line must be a JSON object');
    checkRecord(FORMAT, line, where);
    const drafts = lineDrafts(line, this.lines - 1, where);
    const b = this.boundary;
    if (b && line.isCompactSummary === true) {
      const summary = summaryOf(line);
      if (summary !== null && b.index - 1 >= b.start) {
        const range = { startIndex: b.start, endIndex: b.index - 1 };
        this.compactions.push({
          ...range,
          summary,
          createdAt: b.createdAt,
          createdBy: 'claude-code',
        });
      }
      this.boundary = null;
    } else if (b && --b.left === 0) {
      this.boundary = null;
    }
    if (line.type === 'system' && line.subtype === 'compact_boundary') {
      const createdAt = isoTime(line.timestamp);
      this.boundary = { index: this.items, start: this.start, createdAt, left: 3 };
      this.start = this.items;
    }
    this.items += drafts.length;
    return drafts;
  }
}

function lineDrafts(line: JsonObject, i: number, where: string): ItemDraft[] {
  const createdAt = isoTime(line.timestamp);
  if (!isJsonObject(line.message)) {
    const kind =
      typeof line.subtype === 'string' ? `${line.type}:${line.subtype}` : String(line.type);
    const resourceEvent = { kind, payload: line };
    return [
      { responseId: null, createdBy: null, createdAt, resourceEvent, raw: line, rawFormat: FORMAT },
    ];
  }
  const message = line.message;
  const drafts = messageDrafts(message, i, null, `${where}: message`, { createdAt });
  const content = message.content;
  const parts = Array.isArray(content) && content.length > 0 ? content : [undefined];
  const raws = splitRaws(line, ['message', 'content'], parts);
  return drafts.map((d, k) => ({
    ...d,
    responseId: str(message.id),
    raw: raws[k]!,
    rawFormat: FORMAT,
  }));
}

/** The text of an isCompactSummary line, or null. */
function summaryOf(line: JsonObject): string | null {
  const content = isJsonObject(line.message) ? line.message.content : null;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  return content
    .map((b) => (isJsonObject(b) && typeof b.text === 'string' ? b.text : ''))
    .join('\n');
}

/** True for a whole line (as opposed to one content block of a split line). */
const isLine = (raw: JsonValue) =>
  isJsonObject(raw) &&
  ('message' in raw || 'sessionId' in raw || 'uuid' in raw || 'leafUuid' in raw);

/**
 * True when encode surely starts a new line with the item (TranscriptCodec.startsValue): a
 * session line of its own (not one of its blocks), or an item that starts an Anthropic message
 * (startsMessage: converted items are wrapped in lines one Anthropic message each, so a block
 * of a split Anthropic record joins the line of the blocks before it).
 */
export function startsValue(item: StoredItem): boolean {
  if (item.rawFormat === FORMAT && item.raw !== null) {
    return isEnvelope(item.raw) || isLine(item.raw);
  }
  return startsMessage(item);
}

/**
 * Notes a session line in `state`: a compact_boundary line, and the isCompactSummary line
 * within the 3 lines after it (as LineDecoder pairs them on import).
 */
function noteLine(line: JsonObject, seq: number, state: EncodeState): void {
  const b = state.boundary;
  if (b && line.isCompactSummary === true) {
    state.boundaries.set(b.seq, summaryOf(line));
    state.boundary = null;
  } else if (b && --b.left === 0) {
    state.boundary = null;
  }
  if (line.type === 'system' && line.subtype === 'compact_boundary') {
    state.boundaries.set(seq, null);
    state.boundary = { seq, left: 3 };
  }
}

/**
 * True for a compaction marker whose record the session's own lines carry: the import made it
 * from a compact_boundary line right after its range and the summary line that followed.
 */
function carriedMarker(item: StoredItem, state: EncodeState): boolean {
  if (item.type !== 'compaction' || !isJsonObject(item.data)) return false;
  const { endSeq, summary } = item.data;
  if (typeof endSeq !== 'number' || typeof summary !== 'string') return false;
  return state.boundaries.get(endSeq + 1) === summary;
}

/**
 * Items back to the session's lines: lines of this format from raw; other items as Anthropic
 * messages (anthropic-blocks.ts) wrapped in minimal lines `{type: role, message}`. A compaction
 * marker whose record the session's compact_boundary and summary lines carry is not written
 * again (nor listed as dropped); other compaction markers are listed as dropped.
 * @param state carried from earlier runs of the same thread (a stream's chunks)
 */
export function encode(
  items: readonly StoredItem[],
  _compactions?: readonly CompactionRecord[],
  state: EncodeState = newEncodeState(),
): Encoded {
  const out: JsonValue[] = [];
  const drop: Dropped[] = [];
  let run: StoredItem[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const { value, dropped } = buildMessages(run, 'encode', state, 'Claude Code');
    const converted = value as JsonObject;
    if (converted.system !== undefined) out.push({ type: 'system', content: converted.system });
    for (const m of converted.messages as JsonObject[])
      out.push({ type: m.role ?? 'user', message: m });
    drop.push(...dropped);
    run = [];
  };
  for (const unit of readRecords(items, FORMAT, () => ['message', 'content'], isLine)) {
    if (unit.kind === 'loose') {
      if (!carriedMarker(unit.item, state)) run.push(unit.item);
      continue;
    }
    flush();
    if (isJsonObject(unit.value)) noteLine(unit.value, unit.items[0]!.seq, state);
    out.push(unit.value);
  }
  flush();
  return { value: out, dropped: drop };
}
