/**
 * The thread list: newest activity first, with a search over the items of all threads
 * (ItemSearch.tsx) above it, searched by name, filtered by agent and archived,
 * paged by cursor as the list scrolls, and live (followThreads): a thread created or appended
 * to elsewhere moves to the top without a reload, a deleted one leaves. Rename, archive and
 * delete (after a confirmation dialog) on each row. Arrow keys move between threads.
 */
import {
  type FormEvent,
  type KeyboardEvent,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { Link } from 'react-router';
import type { Thread, ThreadFilter } from '../../client/src/index.js';
import { itemPreview, liveState, shortTime } from './format.js';
import { ItemSearch } from './ItemSearch.js';
import { describeError, useClient, useSession } from './session.js';
import { useSentinel } from './useSentinel.js';

const PAGE = 30;

interface Filters {
  name: string;
  agent: string;
  archived: boolean;
}

function toFilter(f: Filters): ThreadFilter {
  return {
    nameContains: f.name.trim() || null,
    agentId: f.agent.trim() || null,
    includeArchived: f.archived,
  };
}

/** Whether a thread from a live event belongs in the list the filters show. */
function matches(thread: Thread, f: Filters): boolean {
  if (!f.archived && thread.archived) return false;
  if (f.agent.trim() && thread.agentId !== f.agent.trim()) return false;
  const name = f.name.trim().toLocaleLowerCase();
  return !name || (thread.name ?? '').toLocaleLowerCase().includes(name);
}

/** The loaded threads and the count of all that match the filters. */
interface Listed {
  threads: Thread[];
  /** Threads matching the filters (null before the first page). */
  total: number | null;
  /** More pages after the loaded ones. */
  more: boolean;
  /** Bumped when a change leaves the count unknown (a thread not loaded): it is read again. */
  recount: number;
}

/**
 * `list` after thread `id` changed to `thread` (null: deleted): put at the top (`top`, a live
 * event) or replaced in place, dropped when it no longer matches, and the count moved by
 * whether it matched before and after. Whether a thread not loaded matched before is known
 * only for a created one or when every page is loaded; otherwise the count is read again.
 */
function applyChange(
  list: Listed,
  id: string,
  thread: Thread | null,
  f: Filters,
  how: { created?: boolean; top?: boolean } = {},
): Listed {
  const shown = list.threads.some((t) => t.id === id);
  const fits = thread !== null && matches(thread, f);
  const rest = list.threads.filter((t) => t.id !== id);
  const threads = !fits
    ? rest
    : how.top
      ? [thread, ...rest]
      : list.threads.map((t) => (t.id === id ? thread : t));
  const before = shown ? 1 : how.created || !list.more ? 0 : null;
  if (before === null) return { ...list, threads, recount: list.recount + 1 };
  const total = list.total === null ? null : Math.max(0, list.total + Number(fits) - before);
  return { ...list, threads, total };
}

/** The filters as typed, settled for 250 ms before they are searched. */
function useSettled<T>(value: T, ms = 250): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function ThreadList() {
  const client = useClient();
  const { onError } = useSession();
  const [filters, setFilters] = useState<Filters>({ name: '', agent: '', archived: false });
  const settled = useSettled(filters);
  const [list, setList] = useState<Listed>({ threads: [], total: null, more: false, recount: 0 });
  const { threads, total, more } = list;
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [live, setLive] = useState('connecting');
  const [deleting, setDeleting] = useState<Thread | null>(null);
  const [reload, setReload] = useState(0);
  const generation = useRef(0);
  const ids = useId();

  const fail = useCallback(
    (error: unknown) => {
      onError(error);
      setProblem(describeError(error));
    },
    [onError],
  );

  // The first page, again whenever the filters change (or a resync asks for it).
  // biome-ignore lint/correctness/useExhaustiveDependencies: reload is a trigger
  useEffect(() => {
    const mine = ++generation.current;
    setLoading(true);
    setProblem(null);
    client.threads.list({ first: PAGE, filter: toFilter(settled) }).then(
      (page) => {
        if (mine !== generation.current) return;
        setList({
          threads: page.nodes,
          total: page.totalCount,
          more: page.pageInfo.hasNextPage,
          recount: 0,
        });
        setCursor(page.pageInfo.endCursor);
        setLoading(false);
      },
      (error) => {
        if (mine !== generation.current) return;
        setLoading(false);
        fail(error);
      },
    );
  }, [client, settled, fail, reload]);

  const loadMore = useCallback(() => {
    if (loading || !more || !cursor) return;
    const mine = generation.current;
    setLoading(true);
    client.threads.list({ first: PAGE, after: cursor, filter: toFilter(settled) }).then(
      (page) => {
        if (mine !== generation.current) return;
        setList((old) => {
          const seen = new Set(old.threads.map((t) => t.id));
          const threads = [...old.threads, ...page.nodes.filter((t) => !seen.has(t.id))];
          return { ...old, threads, more: page.pageInfo.hasNextPage };
        });
        setCursor(page.pageInfo.endCursor);
        setLoading(false);
      },
      (error) => {
        setLoading(false);
        fail(error);
      },
    );
  }, [client, cursor, more, loading, settled, fail]);

  const sentinel = useSentinel(loadMore, more && !loading);

  // The count again, after a change to a thread that is not loaded.
  useEffect(() => {
    if (list.recount === 0) return;
    const mine = generation.current;
    client.threads.list({ first: 1, filter: toFilter(settled) }).then((page) => {
      if (mine === generation.current) setList((l) => ({ ...l, total: page.totalCount }));
    }, fail);
  }, [client, settled, fail, list.recount]);

  // Live: events of the agent filtered on (or of all), applied to the loaded list.
  useEffect(() => {
    const abort = new AbortController();
    const agentId = settled.agent.trim() || null;
    setLive('connecting');
    (async () => {
      try {
        for await (const event of client.followThreads({
          agentId,
          signal: abort.signal,
          onStatus: (s) => setLive((previous) => liveState(previous, s.state)),
        })) {
          if (event.type === 'RESYNC') {
            setReload((n) => n + 1);
            continue;
          }
          const { threadId, thread } = event;
          // thread is null once the thread is deleted (also in an event from before the delete).
          const changed = event.type === 'DELETED' ? null : thread;
          setList((old) =>
            applyChange(old, threadId, changed, settled, {
              created: event.type === 'CREATED',
              top: true,
            }),
          );
        }
      } catch (error) {
        if (!abort.signal.aborted) fail(error);
      }
    })();
    return () => abort.abort();
  }, [client, settled, fail]);

  function replace(thread: Thread) {
    setList((old) => applyChange(old, thread.id, thread, settled));
  }

  async function toggleArchived(thread: Thread) {
    try {
      replace(await client.threads.update({ id: thread.id, archived: !thread.archived }));
    } catch (error) {
      fail(error);
    }
  }

  async function confirmDelete(thread: Thread) {
    try {
      await client.threads.delete(thread.id);
      setList((old) => applyChange(old, thread.id, null, settled));
      setDeleting(null);
    } catch (error) {
      fail(error);
    }
  }

  return (
    <section aria-labelledby="threads-title">
      <div className="heading">
        <h1 id="threads-title" tabIndex={-1}>
          Threads
        </h1>
        <span className={`live live-${live}`} aria-live="polite">
          {live === 'live' ? 'Live' : live === 'retrying' ? 'Reconnecting…' : 'Connecting…'}
        </span>
      </div>
      <ItemSearch agentId={settled.agent.trim() || null} includeArchived={settled.archived} />
      <search>
        <form className="filters" onSubmit={(e: FormEvent) => e.preventDefault()}>
          <div className="field">
            <label htmlFor={`${ids}-name`}>Search by name</label>
            <input
              id={`${ids}-name`}
              type="search"
              value={filters.name}
              onChange={(e) => setFilters({ ...filters, name: e.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor={`${ids}-agent`}>Agent</label>
            <input
              id={`${ids}-agent`}
              type="text"
              list={`${ids}-agents`}
              placeholder="any"
              value={filters.agent}
              onChange={(e) => setFilters({ ...filters, agent: e.target.value })}
            />
            <datalist id={`${ids}-agents`}>
              {[...new Set(threads.map((t) => t.agentId))].map((agent) => (
                <option key={agent} value={agent} />
              ))}
            </datalist>
          </div>
          <div className="field check">
            <input
              id={`${ids}-archived`}
              type="checkbox"
              checked={filters.archived}
              onChange={(e) => setFilters({ ...filters, archived: e.target.checked })}
            />
            <label htmlFor={`${ids}-archived`}>Show archived</label>
          </div>
        </form>
      </search>
      {problem && (
        <p role="alert" className="problem">
          {problem}
        </p>
      )}
      <p className="count" aria-live="polite">
        {total === null ? 'Loading…' : `${total} thread${total === 1 ? '' : 's'}`}
      </p>
      <ThreadRows
        threads={threads}
        onRenamed={replace}
        onArchive={toggleArchived}
        onDelete={setDeleting}
        onError={fail}
      />
      <div ref={sentinel} className="more">
        {more && (
          <button type="button" onClick={loadMore} disabled={loading}>
            {loading ? 'Loading…' : 'Load more threads'}
          </button>
        )}
      </div>
      {deleting && (
        <ConfirmDelete
          thread={deleting}
          onCancel={() => setDeleting(null)}
          onConfirm={() => confirmDelete(deleting)}
        />
      )}
    </section>
  );
}

/** Up and down arrows move between the threads' links. */
function moveFocus(event: KeyboardEvent<HTMLElement>) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const links = [...event.currentTarget.querySelectorAll<HTMLElement>('a.thread-link')];
  const at = links.indexOf(document.activeElement as HTMLElement);
  if (at < 0) return;
  const next = links[event.key === 'ArrowDown' ? at + 1 : at - 1];
  if (next) {
    event.preventDefault();
    next.focus();
  }
}

function ThreadRows(props: {
  threads: Thread[];
  onRenamed: (t: Thread) => void;
  onArchive: (t: Thread) => void;
  onDelete: (t: Thread) => void;
  onError: (e: unknown) => void;
}) {
  if (props.threads.length === 0) return <p className="empty">No threads match.</p>;
  return (
    <ul className="threads" aria-label="Threads" onKeyDown={moveFocus}>
      {props.threads.map((thread) => (
        <ThreadRow key={thread.id} thread={thread} {...props} />
      ))}
    </ul>
  );
}

function ThreadRow({
  thread,
  onRenamed,
  onArchive,
  onDelete,
  onError,
}: {
  thread: Thread;
  onRenamed: (t: Thread) => void;
  onArchive: (t: Thread) => void;
  onDelete: (t: Thread) => void;
  onError: (e: unknown) => void;
}) {
  const client = useClient();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(thread.name ?? '');
  const inputId = useId();
  const title = thread.name || thread.id;

  async function rename(event: FormEvent) {
    event.preventDefault();
    try {
      onRenamed(await client.threads.update({ id: thread.id, name: name.trim() || null }));
      setRenaming(false);
    } catch (error) {
      onError(error);
    }
  }

  return (
    <li className={thread.archived ? 'thread archived' : 'thread'} data-thread-id={thread.id}>
      {renaming ? (
        <form className="rename" onSubmit={rename}>
          <label htmlFor={inputId}>New name for {thread.id}</label>
          <input
            id={inputId}
            value={name}
            onChange={(e) => setName(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setRenaming(false);
            }}
            // biome-ignore lint/a11y/noAutofocus: the field the person just asked for
            autoFocus
          />
          <button type="submit">Save</button>
          <button type="button" onClick={() => setRenaming(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <Link className="thread-link" to={`/threads/${encodeURIComponent(thread.id)}`}>
          <span className="thread-name">{title}</span>
          {thread.archived && <span className="badge">archived</span>}
        </Link>
      )}
      <p className="meta">
        <span>{thread.agentId}</span>
        <span>
          {thread.itemCount} item{thread.itemCount === 1 ? '' : 's'}
        </span>
        <time dateTime={thread.updatedAt}>{shortTime(thread.updatedAt)}</time>
      </p>
      {thread.lastItem && <p className="preview">{itemPreview(thread.lastItem)}</p>}
      {!renaming && (
        <div className="actions">
          <button
            type="button"
            onClick={() => {
              setName(thread.name ?? '');
              setRenaming(true);
            }}
            aria-label={`Rename ${title}`}
          >
            Rename
          </button>
          <button
            type="button"
            onClick={() => onArchive(thread)}
            aria-label={`${thread.archived ? 'Unarchive' : 'Archive'} ${title}`}
          >
            {thread.archived ? 'Unarchive' : 'Archive'}
          </button>
          <button
            type="button"
            className="danger"
            onClick={() => onDelete(thread)}
            aria-label={`Delete ${title}`}
          >
            Delete
          </button>
        </div>
      )}
    </li>
  );
}

/** A modal dialog (focus kept inside, Escape cancels) before a thread is deleted. */
function ConfirmDelete({
  thread,
  onCancel,
  onConfirm,
}: {
  thread: Thread;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    dialog.current?.showModal();
    // Back where the person was; after a delete that row is gone: the list's heading then.
    return () =>
      opener?.isConnected ? opener.focus() : document.getElementById('threads-title')?.focus();
  }, []);
  return (
    <dialog ref={dialog} aria-labelledby={titleId} onCancel={onCancel} className="confirm">
      <h2 id={titleId}>Delete “{thread.name || thread.id}”?</h2>
      <p>
        The thread and its {thread.itemCount} item{thread.itemCount === 1 ? '' : 's'} are deleted
        for good; its id can never be used again.
      </p>
      <div className="actions">
        {/* biome-ignore lint/a11y/noAutofocus: the safe choice gets the focus */}
        <button type="button" onClick={onCancel} autoFocus>
          Cancel
        </button>
        <button type="button" className="danger" onClick={onConfirm}>
          Delete thread
        </button>
      </div>
    </dialog>
  );
}
