/** Small display helpers: times, one-line previews of items, JSON text. */
import type { FollowStatus, Item } from '../../client/src/index.js';

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A DateTime as the reader's local date and time. */
export function shortTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : timeFormat.format(date);
}

/** JSON as indented text; strings that hold JSON are shown as they are. */
export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'null';
}

function clip(text: string, max = 140): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The text parts of message parts (OpenAI, Anthropic and AI SDK shapes), joined. */
export function partsText(parts: unknown): string | null {
  if (!Array.isArray(parts)) return null;
  const texts = parts
    .map((p) => (p && typeof p === 'object' && 'text' in p ? (p as { text: unknown }).text : null))
    .filter((t): t is string => typeof t === 'string');
  return texts.length ? texts.join('\n\n') : null;
}

/** One line saying what an item is, for the list's preview of a thread's newest item. */
export function itemPreview(item: Item): string {
  switch (item.__typename) {
    case 'MessageItem':
      return `${item.role}: ${clip(item.content ?? partsText(item.parts) ?? '(no text)')}`;
    case 'ToolCallItem':
      return `tool call ${item.name}(${clip(JSON.stringify(item.arguments) ?? '', 80)})`;
    case 'ToolResultItem':
      return `${item.isError ? 'tool error' : 'tool result'}${item.toolName ? ` ${item.toolName}` : ''}: ${clip(JSON.stringify(item.output) ?? '', 100)}`;
    case 'ReasoningItem':
      return `reasoning: ${clip(item.text || '(encrypted)')}`;
    case 'ErrorItem':
      return `error: ${clip(item.reason)}`;
    case 'CompactionItem':
      return `compaction of items ${item.startSeq}–${item.endSeq}`;
    case 'TerminalItem':
      return `${item.stream}: ${clip(item.text)}`;
    case 'SlashCommandItem':
      return `/${item.command}${item.args ? ` ${clip(item.args)}` : ''}`;
    case 'ResourceEventItem':
      return `event ${item.kind}`;
    default:
      return item.type;
  }
}

/**
 * The state the live line shows: the client's, except that a new subscription after a drop
 * (its 'subscribing' following 'live', 'retrying' or 'refreshing-token') still shows the
 * reconnect, not the first "Connecting…".
 */
export function liveState(previous: string, next: FollowStatus['state']): string {
  if (next !== 'subscribing') return next;
  if (previous === 'live') return 'retrying';
  return previous === 'retrying' || previous === 'refreshing-token' ? previous : next;
}
