/**
 * Transcripts in the OpenAI Chat Completions format -> NewItems, one conversation at a time.
 * Pure: no database, no file system; the importer (import.service.ts) writes what this returns.
 *
 * A file may hold (../shared/fixtures/README.md):
 * - a messages array: `[{role, content, ...}, ...]`;
 * - an object with `messages` (pydantic-ai's `{source, model, messages}` among them);
 * - an array of such objects, or tau-bench runs `{task_id, reward, info, traj, trial}` whose
 *   messages are under `traj`;
 * - JSONL: one conversation (object or messages array) per line, or one message per line.
 */
import { basename } from 'node:path';
import { pairToolCalls, type ToolItemRef } from '../compaction/context.js';
import { quote } from '../errors.js';
import type { NewItemInput } from '../items/item.service.js';
import { parseToolArguments } from '../items/item-types.js';
import { isJsonObject, type JsonValue } from '../json.js';
import { jsonErrorText } from './json-errors.js';

/** A malformed transcript file: names the file and where in it the problem is. */
export class TranscriptFormatError extends Error {
  /**
   * @param file the file name as given to the parser
   * @param location "line 3", "conversation 1, message 4", ... or null for the whole file
   * @param reason what is wrong there
   */
  constructor(
    readonly file: string,
    readonly location: string | null,
    readonly reason: string,
  ) {
    super(location ? `${file}: ${location}: ${reason}` : `${file}: ${reason}`);
    this.name = 'TranscriptFormatError';
  }
}

/** One conversation of a file, ready for importConversation. */
export interface ParsedConversation {
  /** 0-based position of the conversation in its file. */
  index: number;
  /** Human-readable name, used as the thread name ("tau-bench task 12 trial 0"). */
  label: string;
  /**
   * Thread metadata: importedFrom (file basename), conversationIndex, format
   * ("openai-chat" or "tau-bench"), line (JSONL), and the source's task_id, trial, reward,
   * model and source where present.
   */
  metadata: Record<string, JsonValue>;
  /** The items in log order. */
  items: NewItemInput[];
}

/** Thread metadata keys copied from a conversation object when they hold a JSON scalar. */
const COPIED_KEYS = ['task_id', 'trial', 'reward', 'model', 'source'] as const;

/** Where a conversation came from, for labels, metadata and error locations. */
interface Source {
  value: unknown;
  index: number;
  /** Location prefix of the conversation ("conversation 2", "line 3"), '' for a lone one. */
  where: string;
  /** 1-based JSONL line, when the file is JSONL. */
  line?: number;
  /** For one-message-per-line JSONL: the line of each message. */
  messageLines?: number[];
}

/**
 * Parses a transcript file into conversations.
 * @param text the file's contents
 * @param fileName the name to report in errors; its basename goes into metadata and labels
 * @returns the conversations in file order, each with at least one item
 * @throws TranscriptFormatError for invalid JSON (with line and column, or the JSONL line), an
 *   unrecognised layout, an empty conversation, a message without role, content of the wrong
 *   type, a tool message without tool_call_id or content, a tool call without id or
 *   function.name, or a tool result that answers no waiting call
 */
export function parseTranscriptFile(text: string, fileName: string): ParsedConversation[] {
  return sourcesOf(text, fileName).map((source) => parseConversation(source, fileName));
}

/** Splits a file into conversation sources, detecting JSON or JSONL. */
function sourcesOf(text: string, file: string): Source[] {
  if (text.trim() === '') throw new TranscriptFormatError(file, null, 'the file is empty');
  let top: unknown;
  try {
    top = JSON.parse(text);
  } catch (error) {
    const lines = jsonLines(text, file);
    // A first line that is JSON on its own means JSONL; otherwise one JSON document with a
    // syntax error, reported at its line (the first line of JSONL when that line is bad).
    if (!lines) throw new TranscriptFormatError(file, null, jsonErrorText(error, text));
    return jsonlSources(lines, file);
  }
  if (Array.isArray(top)) {
    if (top.length === 0) {
      throw new TranscriptFormatError(
        file,
        null,
        'the file holds an empty array; expected messages or conversations',
      );
    }
    if (isMessage(top[0])) return [{ value: top, index: 0, where: '' }];
    return top.map((value, index) => ({ value, index, where: `conversation ${index}` }));
  }
  return [{ value: top, index: 0, where: '' }];
}

/** A JSONL line: its 1-based number and parsed value. */
interface JsonLine {
  line: number;
  value: unknown;
}

/**
 * The non-blank lines of a JSONL file, parsed; null when the first non-blank line is not JSON
 * by itself or is the only line (then the file is not JSONL).
 * @throws TranscriptFormatError naming the line when a later line is invalid JSON
 */
function jsonLines(text: string, file: string): JsonLine[] | null {
  const raw = text.split(/\r?\n/);
  const numbered = raw
    .map((content, i) => ({ line: i + 1, content }))
    .filter((l) => l.content.trim() !== '');
  if (numbered.length < 2) return null;
  try {
    JSON.parse(numbered[0]!.content);
  } catch {
    return null;
  }
  return numbered.map(({ line, content }) => {
    try {
      return { line, value: JSON.parse(content) as unknown };
    } catch (error) {
      throw new TranscriptFormatError(file, `line ${line}`, jsonErrorText(error, content, false));
    }
  });
}

/** JSONL conversations: one per line, or one conversation when every line is a message. */
function jsonlSources(lines: JsonLine[], file: string): Source[] {
  return isMessage(lines[0]!.value)
    ? [messagePerLineSource(lines, file)]
    : lines.map(({ line, value }, index) => ({ value, index, where: `line ${line}`, line }));
}

/** One-message-per-line JSONL: a single conversation whose messages are the lines. */
function messagePerLineSource(lines: JsonLine[], file: string): Source {
  const bad = lines.find((l) => !isMessage(l.value));
  if (bad) {
    throw new TranscriptFormatError(
      file,
      `line ${bad.line}`,
      'expected a message object with a role, as on line 1',
    );
  }
  return {
    value: lines.map((l) => l.value),
    index: 0,
    where: '',
    messageLines: lines.map((l) => l.line),
  };
}

/** True for an object that looks like a chat message rather than a conversation. */
function isMessage(value: unknown): boolean {
  return isJsonObject(value) && 'role' in value && !('messages' in value) && !('traj' in value);
}

/** Builds the items, label and metadata of one conversation. */
function parseConversation(source: Source, file: string): ParsedConversation {
  const base = basename(file);
  const { value, index, where } = source;
  const fail = (location: string, reason: string) =>
    new TranscriptFormatError(file, location || null, reason);
  const metadata: Record<string, JsonValue> = { importedFrom: base, conversationIndex: index };
  let messages: unknown = value;
  let format: 'openai-chat' | 'tau-bench' = 'openai-chat';
  if (isJsonObject(value) && ('traj' in value || 'messages' in value)) {
    format = 'traj' in value ? 'tau-bench' : 'openai-chat';
    messages = format === 'tau-bench' ? value.traj : value.messages;
    for (const key of COPIED_KEYS) {
      const v = value[key];
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
        metadata[key] = v;
      }
    }
    if (!Array.isArray(messages)) {
      const key = format === 'tau-bench' ? 'traj' : 'messages';
      throw fail(where, `"${key}" must be an array of messages`);
    }
  } else if (!Array.isArray(messages)) {
    throw fail(
      where,
      'expected a messages array, an object with "messages", or a tau-bench run with "traj"',
    );
  }
  if (messages.length === 0) throw fail(where, 'the conversation has no messages');
  metadata.format = format;
  if (source.line !== undefined) metadata.line = source.line;

  const place = (...parts: string[]) => parts.filter(Boolean).join(', ');
  const locate = (j: number) =>
    source.messageLines ? `line ${source.messageLines[j]}` : place(where, `message ${j}`);
  const items: NewItemInput[] = [];
  const toolItems: (ToolItemRef & { message: number })[] = [];
  messages.forEach((message: unknown, j) => {
    const failHere: Fail = (detail, reason) => fail(place(locate(j), detail), reason);
    for (const item of messageItems(message, j, failHere)) {
      const tool = item.toolCall ?? item.toolResult;
      if (tool) {
        const type = item.toolCall ? 'tool_call' : 'tool_result';
        toolItems.push({ seq: items.length, type, callId: tool.callId as string, message: j });
      }
      items.push(item);
    }
  });
  // Pair as the store does (the nearest earlier call with that id and no result yet: models
  // re-use callIds), so a result that answers nothing is caught here, not in a later compaction.
  const answered = new Set(pairToolCalls(toolItems).map((p) => p.resultSeq));
  const orphan = toolItems.find((t) => t.type === 'tool_result' && !answered.has(t.seq));
  if (orphan) {
    throw fail(
      locate(orphan.message),
      `the tool message answers tool_call_id ${quote(orphan.callId ?? '', 256)}, but no earlier tool call ` +
        'with that id is waiting for a result',
    );
  }
  return { index, label: labelOf(value, base, index, format), metadata, items };
}

/** The thread name of a conversation. */
function labelOf(value: unknown, base: string, index: number, format: string): string {
  if (format === 'tau-bench' && isJsonObject(value)) {
    const trial = value.trial === undefined ? '' : ` trial ${String(value.trial)}`;
    return `tau-bench task ${String(value.task_id)}${trial}`;
  }
  const source = isJsonObject(value) && typeof value.source === 'string' ? value.source : null;
  return source === null ? `${base} #${index}` : `${base} #${index} (${basename(source)})`;
}

/** The error for a problem in the current message; `detail` narrows the place ("tool_calls[1]"). */
type Fail = (detail: string, reason: string) => TranscriptFormatError;

/**
 * The items of one message: a message item for text, then a tool_call item per tool call
 * (assistant), or a tool_result item (role tool). Items of an assistant message share the
 * responseId "msg-<index>", so the grouping of one model response survives the import.
 */
function messageItems(message: unknown, j: number, fail: Fail): NewItemInput[] {
  if (!isJsonObject(message)) throw fail('', 'a message must be an object');
  const { role, content } = message;
  if (typeof role !== 'string' || role === '') throw fail('', 'the message has no role');

  if (role === 'tool') {
    const callId = message.tool_call_id;
    if (typeof callId !== 'string' || callId === '') {
      throw fail('', 'a tool message needs a tool_call_id (the id of the call it answers)');
    }
    // The contract's ToolResultItem.output is non-null.
    if (content === undefined || content === null) throw fail('', 'a tool message needs content');
    const name = typeof message.name === 'string' && message.name !== '' ? message.name : null;
    return [{ toolResult: { callId, name, output: content } }];
  }

  if (message.function_call != null) {
    throw fail('', 'function_call (the legacy functions format) is not supported; use tool_calls');
  }
  const toolCalls = message.tool_calls ?? [];
  if (!Array.isArray(toolCalls)) throw fail('', 'tool_calls must be an array');
  const responseId = role === 'assistant' ? `msg-${j}` : null;
  const items: NewItemInput[] = [];
  const hasText =
    (typeof content === 'string' && content !== '') ||
    (Array.isArray(content) && content.length > 0);
  // A message with neither text nor tool calls still becomes a (possibly empty) message, so
  // every source message is accounted for.
  if (hasText || toolCalls.length === 0) {
    items.push({ responseId, message: messageBody(role, content, fail) });
  }
  toolCalls.forEach((call: unknown, k) => {
    const body = toolCallBody(call, (reason) => fail(`tool_calls[${k}]`, reason));
    items.push({ responseId, toolCall: body });
  });
  return items;
}

/** {role, content} for string content; {role, content: joined text parts, parts} for parts. */
function messageBody(role: string, content: unknown, fail: Fail): Record<string, unknown> {
  if (content === undefined || content === null || typeof content === 'string') {
    return { role, content: content ?? null };
  }
  if (Array.isArray(content)) {
    const texts = content.flatMap((part) =>
      isJsonObject(part) && part.type === 'text' && typeof part.text === 'string'
        ? [part.text]
        : [],
    );
    return { role, content: texts.length ? texts.join('\n') : null, parts: content };
  }
  throw fail('', 'content must be a string, an array of content parts, or null');
}

/** {callId, name, arguments}, arguments parsed from their JSON string (kept when invalid). */
function toolCallBody(
  call: unknown,
  fail: (reason: string) => TranscriptFormatError,
): Record<string, unknown> {
  if (!isJsonObject(call)) throw fail('a tool call must be an object');
  if (typeof call.id !== 'string' || call.id === '') throw fail('the tool call has no id');
  const fn = call.function;
  if (!isJsonObject(fn) || typeof fn.name !== 'string' || fn.name === '') {
    throw fail('the tool call has no function.name');
  }
  if (fn.arguments == null) throw fail('the tool call has no function.arguments');
  return {
    callId: call.id,
    name: fn.name,
    arguments: parseToolArguments(fn.arguments) as JsonValue,
  };
}
