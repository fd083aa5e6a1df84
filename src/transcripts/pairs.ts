/**
 * Tool pairs for a model request (issue 11 point 4, "tool pairs intact"): every provider
 * refuses a tool call without its result and a result without its call (Anthropic: each
 * tool_use answered by a tool_result in the next user message; OpenAI Chat: tool messages right
 * after the assistant message with the tool_calls; OpenAI Responses: a function_call_output for
 * every function_call). Thread.modelContext therefore leaves out a call no result answers (a
 * call still running, awaiting approval, or never answered) and a result whose call is not in
 * the context (compacted away), and lists each. Transcripts (logs) keep them.
 */
import { isJsonObject, type JsonValue } from '../json.js';
import { dropped, isCompaction } from './common.js';
import type { ContextEntry, Dropped, JsonObject, StoredItem } from './types.js';

const callIdOf = (item: StoredItem): string | null =>
  isJsonObject(item.data) && typeof item.data.callId === 'string' ? item.data.callId : null;

/**
 * The context entries without unpaired tool calls and results, each left out listed in `out`.
 * A result answers the nearest earlier call with its callId that has no result yet (callIds
 * are re-used); a compaction record in between does not part them.
 * @param leadsIn true for an item the provider takes only with the item after it (an OpenAI
 *   reasoning item "provided without its required following item" is refused): such an item
 *   right before a call left out is left out too, and listed
 */
export function pairedEntries(
  entries: readonly ContextEntry[],
  out: Dropped[],
  leadsIn: (item: StoredItem) => boolean = () => false,
): ContextEntry[] {
  const waiting = new Map<string, number[]>();
  const answered = new Set<number>();
  const orphans = new Set<number>();
  entries.forEach((entry, i) => {
    if (isCompaction(entry)) return;
    const callId = callIdOf(entry);
    if (callId === null) return;
    if (entry.type === 'tool_call') waiting.set(callId, [...(waiting.get(callId) ?? []), i]);
    if (entry.type !== 'tool_result') return;
    const call = waiting.get(callId)?.pop();
    if (call === undefined) orphans.add(i);
    else answered.add(call);
  });
  const unanswered = (entry: ContextEntry, i: number) =>
    !isCompaction(entry) &&
    entry.type === 'tool_call' &&
    !answered.has(i) &&
    callIdOf(entry) !== null;
  // Lead-in items before a call left out (from the end, so a run of them goes together).
  const orphanedLeadIns = new Set<number>();
  for (let i = entries.length - 2; i >= 0; i--) {
    const entry = entries[i]!;
    const next = entries[i + 1]!;
    if (isCompaction(entry) || !leadsIn(entry)) continue;
    if (unanswered(next, i + 1) || orphanedLeadIns.has(i + 1)) orphanedLeadIns.add(i);
  }
  return entries.filter((entry, i) => {
    if (isCompaction(entry)) return true;
    if (unanswered(entry, i)) {
      const why =
        'a tool call without a result: a model request must answer every call (run it and append its result first)';
      out.push(dropped(entry, 'the whole item', why));
      return false;
    }
    if (orphans.has(i)) {
      out.push(dropped(entry, 'the whole item', 'a tool result whose call is not in the context'));
      return false;
    }
    if (orphanedLeadIns.has(i)) {
      const why = 'the provider takes it only with the item after it, a call left out';
      out.push(dropped(entry, 'the whole item', why));
      return false;
    }
    return true;
  });
}

const callsOf = (m: JsonObject): JsonObject[] =>
  Array.isArray(m.tool_calls) ? m.tool_calls.filter(isJsonObject) : [];

/** A message's content as text parts (Chat: a string or text parts; null for none). */
function textParts(content: JsonValue | undefined): JsonObject[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isJsonObject) : [];
}

/**
 * OpenAI Chat order for messages whose calls are all answered (after pairedEntries): the tool
 * messages right after the assistant message with the tool_calls. A message between them is
 * moved: an assistant one into that message (its text into content, its calls into tool_calls;
 * Chat's assistant message takes both), any other after the tool messages.
 */
export function chatToolOrder(messages: readonly JsonObject[]): JsonObject[] {
  const out: JsonObject[] = [];
  let i = 0;
  while (i < messages.length) {
    const m = messages[i++]!;
    if (m.role !== 'assistant' || callsOf(m).length === 0) {
      out.push(m);
      continue;
    }
    const host: JsonObject = { ...m, tool_calls: [...callsOf(m)] };
    const waiting = callsOf(m).map((c) => String(c.id));
    const tools: JsonObject[] = [];
    const later: JsonObject[] = [];
    while (waiting.length > 0 && i < messages.length) {
      const x = messages[i++]!;
      const k = x.role === 'tool' ? waiting.indexOf(String(x.tool_call_id)) : -1;
      if (k !== -1) {
        waiting.splice(k, 1);
        tools.push(x);
      } else if (x.role === 'assistant') {
        const texts = [...textParts(host.content), ...textParts(x.content)];
        host.content =
          texts.length === 0
            ? null
            : texts.length === 1 && texts[0]!.type === 'text'
              ? (texts[0]!.text as string)
              : texts;
        (host.tool_calls as JsonObject[]).push(...callsOf(x));
        waiting.push(...callsOf(x).map((c) => String(c.id)));
      } else {
        later.push(x);
      }
    }
    out.push(host, ...tools, ...later);
  }
  return out;
}
