/**
 * One thread: its header (agent, counts, token usage of the loaded messages, its origin and
 * forks: Forks.tsx), the log ("Items" tab) and what its model is sent ("Context" tab:
 * Thread.modelContext).
 *
 * The log holds a window of the thread, never all of it: it opens on the newest page, or with
 * ?seq=<n> on a page around item n (scrolled to and focused), and pages older and newer items
 * by cursor as the reader scrolls to either end. Once the window reaches the end of the
 * thread it follows it live (client.follow from the last seq shown): new items appear as
 * they are appended, and after a reconnect (a server restart) the client resumes after the
 * last seq it yielded, so the log has no gap and no duplicate.
 */
import {
  type KeyboardEvent,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { Item, TranscriptFormat } from '../../client/src/index.js';
import { Lineage } from './Forks.js';
import { liveState, prettyJson, shortTime } from './format.js';
import { graphql } from './generated/gql.js';
import { ItemRow, pairTools } from './items.js';
import { describeError, useClient, useSession } from './session.js';
import { useSentinel } from './useSentinel.js';

const PAGE = 50;
/** Items shown before the deep-linked one, so it has context above it. */
const BEFORE_TARGET = 20;

const ThreadHeaderQuery = graphql(`
  query UiThreadHeader($id: ID!) {
    thread(id: $id) {
      id
      agentId
      name
      archived
      metadata
      createdAt
      updatedAt
      itemCount
      lastSeq
      compactions {
        id
        startSeq
        endSeq
      }
    }
  }
`);

type Header = NonNullable<Awaited<ReturnType<typeof loadHeader>>>;

function loadHeader(client: ReturnType<typeof useClient>, id: string) {
  return client.request(ThreadHeaderQuery, { id }).then((data) => data.thread);
}

export function ThreadView() {
  const { threadId = '' } = useParams();
  const [params] = useSearchParams();
  const seqParam = params.get('seq');
  const targetSeq = seqParam !== null && /^\d+$/.test(seqParam) ? Number(seqParam) : null;
  const client = useClient();
  const { onError } = useSession();
  const [header, setHeader] = useState<Header | null | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  const [tab, setTab] = useState<'items' | 'context'>('items');
  const [usage, setUsage] = useState({ input: 0, output: 0, messages: 0 });
  const ids = useId();

  useEffect(() => {
    setHeader(undefined);
    loadHeader(client, threadId).then(setHeader, (error) => {
      onError(error);
      setProblem(describeError(error));
    });
  }, [client, threadId, onError]);

  if (header === null) {
    return (
      <section>
        <h1>No thread “{threadId}”</h1>
        <p>It does not exist, was deleted, or belongs to another tenant.</p>
        <p>
          <Link to="/">Back to the threads</Link>
        </p>
      </section>
    );
  }

  const tabs = [
    { key: 'items', label: 'Items' },
    { key: 'context', label: 'Context' },
  ] as const;
  function onTabKey(event: KeyboardEvent) {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const next = tab === 'items' ? 'context' : 'items';
    setTab(next);
    document.getElementById(`${ids}-tab-${next}`)?.focus();
  }

  return (
    <article className="thread-view" aria-labelledby={`${ids}-title`}>
      <p className="back">
        <Link to="/">← Threads</Link>
      </p>
      <h1 id={`${ids}-title`}>{header?.name || threadId}</h1>
      {header && (
        <dl className="facts">
          <div>
            <dt>Agent</dt>
            <dd>{header.agentId}</dd>
          </div>
          <div>
            <dt>Items</dt>
            <dd>{header.itemCount}</dd>
          </div>
          <div>
            <dt>Compactions</dt>
            <dd>{header.compactions.length}</dd>
          </div>
          <div>
            <dt>Updated</dt>
            <dd>
              <time dateTime={header.updatedAt}>{shortTime(header.updatedAt)}</time>
            </dd>
          </div>
          <div>
            <dt>Tokens (loaded messages)</dt>
            <dd>
              {usage.messages
                ? `${usage.input} in · ${usage.output} out (${usage.messages} message${usage.messages === 1 ? '' : 's'})`
                : 'none reported'}
            </dd>
          </div>
          {header.archived && (
            <div>
              <dt>State</dt>
              <dd>archived</dd>
            </div>
          )}
        </dl>
      )}
      <Lineage threadId={threadId} />
      {problem && (
        <p role="alert" className="problem">
          {problem}
        </p>
      )}
      <div role="tablist" aria-label="Thread views" className="tabs" onKeyDown={onTabKey}>
        {tabs.map((t) => (
          <button
            key={t.key}
            id={`${ids}-tab-${t.key}`}
            type="button"
            role="tab"
            aria-selected={tab === t.key}
            aria-controls={`${ids}-panel-${t.key}`}
            tabIndex={tab === t.key ? 0 : -1}
            onClick={() => setTab(t.key)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        id={`${ids}-panel-items`}
        role="tabpanel"
        aria-labelledby={`${ids}-tab-items`}
        hidden={tab !== 'items'}
      >
        <ThreadLog
          key={`${threadId}:${targetSeq ?? 'end'}`}
          threadId={threadId}
          targetSeq={targetSeq}
          onUsage={setUsage}
        />
      </div>
      {tab === 'context' && (
        <div id={`${ids}-panel-context`} role="tabpanel" aria-labelledby={`${ids}-tab-context`}>
          <ContextPanel threadId={threadId} />
        </div>
      )}
    </article>
  );
}

interface Window {
  items: Item[];
  startCursor: string | null;
  endCursor: string | null;
  /** More items before the first one shown. */
  older: boolean;
  /** More stored items after the last one shown (false: the window reaches the end). */
  newer: boolean;
}

/** `items` added to the window's, in seq order, each seq once. */
function merge(current: Item[], more: Item[]): Item[] {
  const seen = new Set(current.map((i) => i.seq));
  const fresh = more.filter((i) => !seen.has(i.seq));
  if (fresh.length === 0) return current;
  return [...current, ...fresh].sort((a, b) => a.seq - b.seq);
}

function ThreadLog({
  threadId,
  targetSeq,
  onUsage,
}: {
  threadId: string;
  targetSeq: number | null;
  onUsage: (u: { input: number; output: number; messages: number }) => void;
}) {
  const client = useClient();
  const { onError } = useSession();
  const [win, setWin] = useState<Window | null>(null);
  const [loading, setLoading] = useState<'older' | 'newer' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [live, setLive] = useState<string>('');
  const [ended, setEnded] = useState(false);
  const [placed, setPlaced] = useState(false);
  const [focusSeq, setFocusSeq] = useState<number | null>(targetSeq);
  const lastSeq = useRef(-1);
  const keep = useRef<{ height: number; top: number } | null>(null);
  const stick = useRef(false);
  const list = useRef<HTMLOListElement>(null);

  const fail = useCallback(
    (error: unknown) => {
      onError(error);
      setProblem(describeError(error));
    },
    [onError],
  );

  // The first page: around targetSeq, or the newest. A targetSeq past the last stored item
  // (never written, or purged at the end) finds nothing after it: the newest page then, so
  // that the live tail starts after the thread's last item, not at #0.
  useEffect(() => {
    const newest = () => client.items.page(threadId, { last: PAGE });
    const first =
      targetSeq === null
        ? newest()
        : client.items
            .page(threadId, { afterSeq: Math.max(-1, targetSeq - BEFORE_TARGET - 1), first: PAGE })
            .then((page) => (page.nodes.length > 0 ? page : newest()));
    first.then(
      (page) =>
        setWin({
          items: page.nodes,
          startCursor: page.pageInfo.startCursor,
          endCursor: page.pageInfo.endCursor,
          older: page.pageInfo.hasPreviousPage,
          // Forward pages tell of newer items; the newest page has none after it.
          newer: page.pageInfo.hasNextPage && targetSeq !== null,
        }),
      fail,
    );
  }, [client, threadId, targetSeq, fail]);

  useEffect(() => {
    if (!win) return;
    lastSeq.current = win.items.at(-1)?.seq ?? lastSeq.current;
    let input = 0;
    let output = 0;
    let messages = 0;
    for (const item of win.items) {
      if (item.__typename !== 'MessageItem' || !item.usage) continue;
      messages += 1;
      input += item.usage.inputTokens ?? 0;
      output += item.usage.outputTokens ?? 0;
    }
    onUsage({ input, output, messages });
  }, [win, onUsage]);

  // Once placed: the deep-linked item scrolled to and focused, or the end of the log shown.
  useLayoutEffect(() => {
    if (!win || placed) return;
    const element = targetSeq === null ? null : document.getElementById(`item-${targetSeq}`);
    if (element) {
      const row = element.closest('li') ?? element;
      element.scrollIntoView({ block: 'center' });
      row.focus({ preventScroll: true });
    } else if (targetSeq === null || !win.newer) {
      // No target, or one past the end (the newest page shown): the end of the log.
      window.scrollTo(0, document.documentElement.scrollHeight);
    }
    setPlaced(true);
  }, [win, placed, targetSeq]);

  // Older items were put above: keep what the reader looks at where it was.
  // Newer ones arrived while the reader was at the bottom: stay at the bottom.
  useLayoutEffect(() => {
    const kept = keep.current;
    if (kept) {
      keep.current = null;
      window.scrollTo(0, kept.top + document.documentElement.scrollHeight - kept.height);
    } else if (stick.current) {
      stick.current = false;
      window.scrollTo(0, document.documentElement.scrollHeight);
    }
  });

  const loadOlder = useCallback(() => {
    if (!win?.older || loading || !win.startCursor) return;
    setLoading('older');
    client.items.page(threadId, { last: PAGE, before: win.startCursor }).then(
      (page) => {
        keep.current = {
          height: document.documentElement.scrollHeight,
          top: window.scrollY,
        };
        setWin(
          (w) =>
            w && {
              ...w,
              items: merge(w.items, page.nodes),
              startCursor: page.pageInfo.startCursor ?? w.startCursor,
              older: page.pageInfo.hasPreviousPage,
            },
        );
        setLoading(null);
      },
      (error) => {
        setLoading(null);
        fail(error);
      },
    );
  }, [client, threadId, win, loading, fail]);

  const loadNewer = useCallback(() => {
    if (!win?.newer || loading || !win.endCursor) return;
    setLoading('newer');
    client.items.page(threadId, { first: PAGE, after: win.endCursor }).then(
      (page) => {
        setWin(
          (w) =>
            w && {
              ...w,
              items: merge(w.items, page.nodes),
              endCursor: page.pageInfo.endCursor ?? w.endCursor,
              newer: page.pageInfo.hasNextPage,
            },
        );
        setLoading(null);
      },
      (error) => {
        setLoading(null);
        fail(error);
      },
    );
  }, [client, threadId, win, loading, fail]);

  const top = useSentinel(loadOlder, placed && Boolean(win?.older) && !loading, '200px');
  const bottom = useSentinel(loadNewer, placed && Boolean(win?.newer) && !loading, '200px');

  // Live once the window reaches the end: from the last seq shown, for as long as it is open.
  const atEnd = win !== null && !win.newer;
  useEffect(() => {
    if (!atEnd) return;
    const abort = new AbortController();
    (async () => {
      try {
        const items = client.follow(threadId, {
          afterSeq: lastSeq.current,
          signal: abort.signal,
          onStatus: (s) => setLive((previous) => liveState(previous, s.state)),
        });
        for await (const item of items) {
          const nearBottom =
            window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 120;
          if (nearBottom) stick.current = true;
          setWin((w) => w && { ...w, items: merge(w.items, [item]) });
        }
        if (!abort.signal.aborted) setEnded(true);
      } catch (error) {
        if (!abort.signal.aborted) fail(error);
      }
    })();
    return () => abort.abort();
  }, [atEnd, client, threadId, fail]);

  const rows = useMemo(() => pairTools(win?.items ?? []), [win]);
  const focusAt = focusSeq ?? rows.at(-1)?.item.seq ?? null;

  /** Up and down arrows move between items; Home and End go to the first and last shown. */
  function onKey(event: KeyboardEvent<HTMLOListElement>) {
    const keys = ['ArrowDown', 'ArrowUp', 'Home', 'End'];
    if (!keys.includes(event.key)) return;
    const target = event.target as HTMLElement;
    if (target.parentElement !== list.current) return;
    const items = [...(list.current?.children ?? [])] as HTMLElement[];
    const at = items.indexOf(target);
    const next =
      event.key === 'Home'
        ? items[0]
        : event.key === 'End'
          ? items.at(-1)
          : items[event.key === 'ArrowDown' ? at + 1 : at - 1];
    if (!next) return;
    event.preventDefault();
    setFocusSeq(Number(next.dataset.seq));
    next.focus();
  }

  if (!win) return <p aria-live="polite">{problem ?? 'Loading items…'}</p>;
  const statusText = ended
    ? 'This thread was deleted.'
    : !atEnd
      ? 'Scroll to the end to follow live.'
      : live === 'live'
        ? 'Live: new items appear as they are appended.'
        : live === 'retrying'
          ? 'Reconnecting…'
          : live === 'refreshing-token'
            ? 'Renewing credentials…'
            : 'Connecting…';
  const missing =
    targetSeq !== null && !win.items.some((i) => i.seq === targetSeq)
      ? `Item ${targetSeq} is not in this thread (it may have been purged).`
      : null;

  return (
    <section className="log" aria-label="Items">
      <p className={`live live-${ended ? 'ended' : live}`} aria-live="polite">
        {statusText}
      </p>
      {problem && (
        <p role="alert" className="problem">
          {problem}
        </p>
      )}
      {missing && <p className="problem">{missing}</p>}
      <div ref={top} className="more">
        {win.older && (
          <button type="button" onClick={loadOlder} disabled={loading !== null}>
            {loading === 'older' ? 'Loading…' : 'Load older items'}
          </button>
        )}
      </div>
      {rows.length === 0 ? (
        <p className="empty">No items yet.</p>
      ) : (
        <ol className="items" ref={list} onKeyDown={onKey}>
          {rows.map((row) => (
            <ItemRow
              key={row.item.seq}
              row={row}
              targetSeq={targetSeq}
              focusable={row.item.seq === focusAt || row.result?.seq === focusAt}
            />
          ))}
        </ol>
      )}
      <div ref={bottom} className="more">
        {win.newer && (
          <button type="button" onClick={loadNewer} disabled={loading !== null}>
            {loading === 'newer' ? 'Loading…' : 'Load newer items'}
          </button>
        )}
      </div>
    </section>
  );
}

const FORMATS: { value: TranscriptFormat; label: string }[] = [
  { value: 'OPENAI_CHAT', label: 'OpenAI Chat ({messages})' },
  { value: 'OPENAI_RESPONSES', label: 'OpenAI Responses ({input})' },
  { value: 'ANTHROPIC_MESSAGES', label: 'Anthropic Messages ({system, messages})' },
];

/** Thread.modelContext in the chosen provider shape: the request body the model is sent. */
function ContextPanel({ threadId }: { threadId: string }) {
  const client = useClient();
  const { onError } = useSession();
  const [format, setFormat] = useState<TranscriptFormat>('OPENAI_CHAT');
  const [body, setBody] = useState<{ format: TranscriptFormat; value: unknown } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const selectId = useId();

  useEffect(() => {
    const abort = new AbortController();
    setProblem(null);
    client.modelContext(threadId, format, { signal: abort.signal }).then(
      (value) => setBody({ format, value }),
      (error) => {
        if (abort.signal.aborted) return;
        onError(error);
        setProblem(describeError(error));
      },
    );
    return () => abort.abort();
  }, [client, threadId, format, onError]);

  return (
    <section className="context" aria-label="Model context">
      <p className="hint">
        What the agent sends to its model: compaction summaries in place of the items they cover,
        then every uncovered item, in the provider's request shape.
      </p>
      <div className="field">
        <label htmlFor={selectId}>Format</label>
        <select
          id={selectId}
          value={format}
          onChange={(e) => setFormat(e.target.value as TranscriptFormat)}
        >
          {FORMATS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </select>
      </div>
      {problem && (
        <p role="alert" className="problem">
          {problem}
        </p>
      )}
      {body?.format === format ? (
        <pre className="json context-json">
          <code>{prettyJson(body.value)}</code>
        </pre>
      ) : (
        !problem && <p aria-live="polite">Loading…</p>
      )}
    </section>
  );
}
