/**
 * Items rendered for people: messages as markdown (react-markdown renders no raw HTML, and
 * drops javascript: links: that is the sanitising), a tool call with its result in one
 * collapsible block (arguments and output as indented JSON), reasoning collapsed, errors and
 * failed tool results highlighted, compaction markers with their summary and range, any other
 * type as its JSON. Every item is an <li id="item-<seq>"> (a paired result too, nested in its
 * call), so /ui/threads/<id>?seq=<n> can scroll to it.
 */
import type { ReactNode } from 'react';
import Markdown from 'react-markdown';
import { Link } from 'react-router';
import type { Item, ItemOf } from '../../client/src/index.js';
import { partsText, prettyJson, shortTime } from './format.js';

type ToolCall = ItemOf<'ToolCallItem'>;
type ToolResult = ItemOf<'ToolResultItem'>;

/** A row of the log: an item, or a tool call with the result paired to it. */
export type Row = { item: Item; result?: ToolResult };

/**
 * Pairs tool results with their calls as the store does: a result belongs to the nearest
 * earlier call of the same callId that has no result yet (models re-use callIds). A result
 * whose call is not loaded (or a call whose result is not) stays a row of its own.
 */
export function pairTools(items: readonly Item[]): Row[] {
  const rows: Row[] = [];
  const open = new Map<string, Row[]>();
  for (const item of items) {
    if (item.__typename === 'ToolResultItem') {
      const waiting = open.get(item.callId);
      const row = waiting?.pop();
      if (row) {
        row.result = item;
        continue;
      }
    }
    const row: Row = { item };
    rows.push(row);
    if (item.__typename === 'ToolCallItem') {
      const list = open.get(item.callId) ?? [];
      list.push(row);
      open.set(item.callId, list);
    }
  }
  return rows;
}

/**
 * A JSON value, indented. A string is shown as its text (tool output is often a terminal's),
 * or indented when it holds a JSON object or array.
 */
function Json({ value }: { value: unknown }) {
  if (typeof value === 'string') {
    const parsed = parseStructured(value);
    if (parsed === undefined) {
      return (
        <pre className="json text">
          <code>{value}</code>
        </pre>
      );
    }
    return (
      <pre className="json">
        <code>{prettyJson(parsed)}</code>
      </pre>
    );
  }
  return (
    <pre className="json">
      <code>{prettyJson(value)}</code>
    </pre>
  );
}

/** The object or array a string holds as JSON, or undefined. */
function parseStructured(text: string): unknown {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? value : undefined;
  } catch {
    return undefined;
  }
}

function Text({ text }: { text: string }) {
  return (
    <div className="markdown">
      <Markdown>{text}</Markdown>
    </div>
  );
}

function Head({ item, label, extra }: { item: Item; label: ReactNode; extra?: ReactNode }) {
  return (
    <header className="item-head">
      <span className="seq">#{item.seq}</span>
      <span className="label">{label}</span>
      {extra}
      <time dateTime={item.createdAt}>{shortTime(item.createdAt)}</time>
      {item.createdBy && <span className="by">{item.createdBy}</span>}
      {item.status !== 'COMPLETED' && <span className="badge">{item.status.toLowerCase()}</span>}
    </header>
  );
}

function Usage({ usage }: { usage: ItemOf<'MessageItem'>['usage'] }) {
  if (!usage) return null;
  const parts = [
    usage.inputTokens != null && `${usage.inputTokens} in`,
    usage.outputTokens != null && `${usage.outputTokens} out`,
    usage.totalTokens != null && `${usage.totalTokens} total`,
  ].filter(Boolean);
  return parts.length ? <span className="usage">tokens: {parts.join(' · ')}</span> : null;
}

function Message({ item }: { item: ItemOf<'MessageItem'> }) {
  const text = item.content ?? partsText(item.parts);
  const otherParts = Array.isArray(item.parts)
    ? item.parts.filter((p) => !(p && typeof p === 'object' && 'text' in p))
    : [];
  return (
    <>
      <Head item={item} label={item.role} extra={<Usage usage={item.usage} />} />
      {text !== null ? <Text text={text} /> : null}
      {otherParts.length > 0 && (
        <details>
          <summary>
            {otherParts.length} other part{otherParts.length === 1 ? '' : 's'} (images, files…)
          </summary>
          <Json value={otherParts} />
        </details>
      )}
      {text === null && otherParts.length === 0 && <p className="muted">(empty message)</p>}
    </>
  );
}

function ToolResultBody({ result }: { result: ToolResult }) {
  return (
    <div
      id={`item-${result.seq}`}
      className={result.isError ? 'tool-result failed' : 'tool-result'}
      data-seq={result.seq}
    >
      <Head
        item={result}
        label={result.isError ? 'tool result: error' : 'tool result'}
        extra={result.toolName ? <span className="tool">{result.toolName}</span> : null}
      />
      <Json value={result.output} />
    </div>
  );
}

function ToolPair({ call, result, open }: { call: ToolCall; result?: ToolResult; open: boolean }) {
  const state = result ? (result.isError ? 'failed' : 'done') : 'no result yet';
  return (
    <details className={result?.isError ? 'tool failed' : 'tool'} open={open || undefined}>
      <summary>
        <span className="seq">#{call.seq}</span> <span className="label">tool call</span>{' '}
        <code className="tool">{call.name}</code> <span className="muted">({state})</span>
      </summary>
      <Head item={call} label="arguments" extra={<code className="muted">{call.callId}</code>} />
      <Json value={call.arguments} />
      {result && <ToolResultBody result={result} />}
    </details>
  );
}

function Reasoning({ item }: { item: ItemOf<'ReasoningItem'> }) {
  return (
    <details className="reasoning">
      <summary>
        <span className="seq">#{item.seq}</span> <span className="label">reasoning</span>
        {!item.text && <span className="muted"> (encrypted)</span>}
      </summary>
      <Head item={item} label="reasoning" />
      {item.text ? <Text text={item.text} /> : <p className="muted">Only encrypted content.</p>}
      {item.reasoningSummary != null && <Json value={item.reasoningSummary} />}
    </details>
  );
}

function Compaction({ item }: { item: ItemOf<'CompactionItem'> }) {
  return (
    <>
      <Head
        item={item}
        label="compaction"
        extra={
          <span>
            summarizes{' '}
            <Link to={`?seq=${item.startSeq}`}>
              items {item.startSeq}–{item.endSeq}
            </Link>
          </span>
        }
      />
      <Text text={item.summary} />
    </>
  );
}

function Body({ row, targetSeq }: { row: Row; targetSeq: number | null }) {
  const { item } = row;
  switch (item.__typename) {
    case 'MessageItem':
      return <Message item={item} />;
    case 'ToolCallItem':
      return (
        <ToolPair
          call={item}
          result={row.result}
          open={targetSeq !== null && (targetSeq === item.seq || targetSeq === row.result?.seq)}
        />
      );
    case 'ToolResultItem':
      return <ToolResultBody result={item} />;
    case 'ReasoningItem':
      return <Reasoning item={item} />;
    case 'ErrorItem':
      return (
        <>
          <Head
            item={item}
            label="error"
            extra={item.code ? <code className="muted">{item.code}</code> : null}
          />
          <p className="error-reason">{item.reason}</p>
        </>
      );
    case 'CompactionItem':
      return <Compaction item={item} />;
    case 'TerminalItem':
      return (
        <>
          <Head item={item} label={`terminal ${item.stream}`} />
          <pre className="terminal">{item.text}</pre>
        </>
      );
    default:
      return (
        <>
          <Head item={item} label={item.type.replace(/_/g, ' ')} />
          <Json value={item.data} />
        </>
      );
  }
}

/** The CSS class of a row: its type, and whether it failed. */
function rowClass(row: Row, target: boolean): string {
  const { item } = row;
  const failed =
    item.__typename === 'ErrorItem' ||
    (item.__typename === 'ToolResultItem' && item.isError) ||
    row.result?.isError;
  return ['item', `type-${item.type}`, failed && 'failed', target && 'target']
    .filter(Boolean)
    .join(' ');
}

/** One row of the log. `focusable`: the row arrow keys start from (roving tabindex). */
export function ItemRow({
  row,
  targetSeq,
  focusable,
}: {
  row: Row;
  targetSeq: number | null;
  focusable: boolean;
}) {
  const target =
    targetSeq !== null && (targetSeq === row.item.seq || targetSeq === row.result?.seq);
  const { item } = row;
  const role =
    item.__typename === 'MessageItem' ? `role-${item.role.replace(/[^a-z0-9_-]/gi, '')}` : '';
  return (
    <li
      id={`item-${item.seq}`}
      data-seq={item.seq}
      className={`${rowClass(row, target)} ${role}`}
      tabIndex={focusable ? 0 : -1}
      aria-label={`Item ${item.seq}: ${item.type}`}
    >
      <Body row={row} targetSeq={targetSeq} />
    </li>
  );
}
