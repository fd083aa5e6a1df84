/**
 * Reads a transcript file for `npm run import`, one conversation at a time, so memory is
 * bounded by the largest conversation rather than the file.
 *
 * A file is JSONL when its first non-empty line is a whole JSON value, except a file of one
 * line that is a whole transcript (minified JSON: an array, or an object that is no message
 * but a source detect() knows, such as a request body); it is then streamed line by line:
 * - CLAUDE_CODE_JSONL (a session is one conversation) decodes line by line (LineDecoder);
 * - THREADSTORE_JSONL (a dump is one thread) is collected and restored whole;
 * - a first line that is one message (Chat, Responses, AI SDK) makes the file one
 *   conversation of one message a line;
 * - otherwise each line is a source of its own (a conversation, a run, an exchange...).
 * Any other file is one JSON document, decoded whole (its conversations in order).
 */
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { isJsonObject, type JsonValue } from '../json.js';
import { LineDecoder } from '../transcripts/claude-code.js';
import { CODECS, detect, withFormatHint } from '../transcripts/index.js';
import {
  type DecodedConversation,
  type ItemDraft,
  TranscriptError,
  type TranscriptFormat,
} from '../transcripts/types.js';
import { jsonErrorText } from './json-errors.js';

/** What reading a file gives, in order: its format first, then conversations or failures. */
export type SourceUnit =
  | { kind: 'format'; format: TranscriptFormat; detected: boolean }
  | {
      kind: 'conversation';
      /** Its locations name the file's lines for JSONL files ("line 12", "line 3: [0]"). */
      conversation: DecodedConversation;
    }
  | { kind: 'dump'; lines: JsonValue[] }
  /** A part of the file that cannot be read; nothing of its conversation is written. */
  | { kind: 'failure'; location: string | null; reason: string };

/** A format the file does not say and --format did not give. */
export class UnknownFormatError extends Error {}

const MESSAGE_KEYS = ['role', 'parts'];

/**
 * The format of a file from its JSON value (JSONL: a list of its first line); THREADSTORE_JSONL
 * by its thread line.
 */
function formatOf(value: JsonValue, given: TranscriptFormat | null): TranscriptFormat {
  if (given) return given;
  const first = Array.isArray(value) ? value[0] : undefined;
  if (isJsonObject(first) && first.kind === 'thread' && 'version' in first) {
    return 'THREADSTORE_JSONL';
  }
  const format = detect(value);
  if (!format) {
    throw new UnknownFormatError(
      'cannot tell the transcript format; give it with --format (OPENAI_CHAT, OPENAI_RESPONSES, ANTHROPIC_MESSAGES, CLAUDE_CODE_JSONL, AI_SDK_UI_MESSAGES, THREADSTORE_JSONL)',
    );
  }
  return format;
}

/** The conversations of one source value, or a failure naming where. */
function decodeUnits(format: TranscriptFormat, value: unknown, prefix: string): SourceUnit[] {
  try {
    return CODECS[format]!.decode(value).map((conversation) => ({
      kind: 'conversation',
      conversation,
    }));
  } catch (error) {
    if (!(error instanceof TranscriptError)) throw error;
    const location = [prefix, error.location].filter(Boolean).join(': ') || null;
    return [{ kind: 'failure', location, reason: error.reason }];
  }
}

/**
 * The first non-empty line of a file, parsed (undefined when it is not one JSON value), and
 * whether another non-empty line follows it.
 */
async function firstLineValue(file: string): Promise<{ value?: JsonValue; more: boolean }> {
  const lines = createInterface({
    input: createReadStream(file, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let first: { value?: JsonValue } | null = null;
  try {
    for await (const text of lines) {
      if (text.trim() === '') continue;
      if (first) return { ...first, more: true };
      try {
        first = { value: JSON.parse(text) as JsonValue };
      } catch {
        return { more: false };
      }
    }
    return { ...first, more: false };
  } finally {
    lines.close();
  }
}

/**
 * True for the value of a one-line file that is a whole JSON document rather than one JSONL
 * record: an array (a JSONL line of an array is a conversation of its own, which the document
 * reading gives too), or an object that is no message (no `role`) and is a source detect()
 * knows (a request body, a run, a recorded exchange...). A message object stays one record.
 */
function isDocument(value: JsonValue, given: TranscriptFormat | null): boolean {
  if (Array.isArray(value)) return true;
  if (!isJsonObject(value) || 'role' in value || value.kind === 'thread') return false;
  const format = detect(value);
  return format !== null && format !== 'CLAUDE_CODE_JSONL' && (given === null || given === format);
}

/**
 * The format and conversations of a file (see the module docstring).
 * @throws UnknownFormatError; Node's file errors
 */
export async function* readSource(
  file: string,
  given: TranscriptFormat | null,
): AsyncGenerator<SourceUnit> {
  const { value: first, more } = await firstLineValue(file);
  if (first === undefined || (!more && isDocument(first, given))) {
    let value: JsonValue;
    if (first !== undefined) value = first;
    else {
      const text = readFileSync(file, 'utf8');
      if (text.trim() === '') {
        yield { kind: 'failure', location: null, reason: 'the file is empty' };
        return;
      }
      try {
        value = JSON.parse(text) as JsonValue;
      } catch (error) {
        yield { kind: 'failure', location: null, reason: jsonErrorText(error, text) };
        return;
      }
    }
    const format = formatOf(value, given);
    yield { kind: 'format', format, detected: given === null };
    if (format === 'THREADSTORE_JSONL') yield { kind: 'dump', lines: value as JsonValue[] };
    else yield* decodeUnits(format, value, '');
    return;
  }
  yield* readJsonl(file, first, given);
}

async function* readJsonl(
  file: string,
  first: JsonValue,
  given: TranscriptFormat | null,
): AsyncGenerator<SourceUnit> {
  const format = formatOf([first], given);
  yield { kind: 'format', format, detected: given === null };
  const whole =
    format === 'THREADSTORE_JSONL' ||
    format === 'CLAUDE_CODE_JSONL' ||
    (isJsonObject(first) && MESSAGE_KEYS.some((k) => k in first)) ||
    (isJsonObject(first) && format === 'OPENAI_RESPONSES' && 'type' in first);
  const decoder = format === 'CLAUDE_CODE_JSONL' ? new LineDecoder() : null;
  const collected: JsonValue[] = [];
  const drafts: ItemDraft[] = [];
  const locations: string[] = [];
  const lineOfValue: number[] = [];
  const lines = createInterface({
    input: createReadStream(file, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let n = 0;
  for await (const text of lines) {
    n += 1;
    if (text.trim() === '') continue;
    let value: JsonValue;
    try {
      value = JSON.parse(text) as JsonValue;
    } catch (error) {
      yield { kind: 'failure', location: `line ${n}`, reason: jsonErrorText(error, text, false) };
      if (whole) return;
      continue;
    }
    if (!whole) {
      const units = decodeUnits(format, value, `line ${n}`);
      for (const unit of units) {
        if (unit.kind !== 'conversation') continue;
        unit.conversation.index = n - 1;
        const { locations } = unit.conversation;
        if (locations) unit.conversation.locations = locations.map((l) => `line ${n}: ${l}`);
      }
      yield* units;
    } else if (decoder) {
      try {
        for (const d of decoder.push(value)) {
          drafts.push(d);
          locations.push(`line ${n}`);
        }
      } catch (error) {
        if (!(error instanceof TranscriptError)) throw error;
        // The decoder counts non-empty lines; name the file's line.
        const hinted = withFormatHint(error) as TranscriptError;
        yield { kind: 'failure', location: `line ${n}`, reason: hinted.reason };
        return;
      }
    } else {
      collected.push(value);
      lineOfValue.push(n);
    }
  }
  if (decoder) {
    const conversation = {
      index: 0,
      items: drafts,
      compactions: decoder.compactions,
      meta: {},
      locations,
    };
    yield { kind: 'conversation', conversation };
  } else if (format === 'THREADSTORE_JSONL') {
    yield { kind: 'dump', lines: collected };
  } else if (whole) {
    // One message a line: "[3]" / "messages[3]" is the file's line of that message.
    const toLine = (where: string) =>
      where.replace(/^(?:messages)?\[(\d+)\]/, (_, k: string) => `line ${lineOfValue[Number(k)]}`);
    for (const unit of decodeUnits(format, collected, '')) {
      if (unit.kind === 'conversation' && unit.conversation.locations) {
        unit.conversation.locations = unit.conversation.locations.map(toLine);
      }
      if (unit.kind === 'failure' && unit.location) unit.location = toLine(unit.location);
      yield unit;
    }
  }
}
