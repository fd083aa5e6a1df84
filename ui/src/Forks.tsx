/**
 * A thread's lineage in the thread view: where it was forked from ("forked from <link> at seq
 * N", the link opening the source at that item; the source's id alone once it is deleted) and
 * the threads forked from it, newest first, paged with "More forks".
 */
import { useCallback, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { shortTime } from './format.js';
import { graphql } from './generated/gql.js';
import { describeError, useClient, useSession } from './session.js';

const FORKS_PAGE = 20;

const LineageQuery = graphql(`
  query UiThreadLineage($id: ID!, $first: Int, $after: String) {
    thread(id: $id) {
      id
      forkedFrom {
        threadId
        seq
        thread {
          id
          name
        }
      }
      forks(first: $first, after: $after) {
        totalCount
        edges {
          node {
            id
            name
            createdAt
            itemCount
            forkedFrom {
              seq
            }
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`);

type Lineage = NonNullable<Awaited<ReturnType<typeof loadLineage>>>;
type Fork = Lineage['forks']['edges'][number]['node'];

function loadLineage(client: ReturnType<typeof useClient>, id: string, after: string | null) {
  return client.request(LineageQuery, { id, first: FORKS_PAGE, after }).then((data) => data.thread);
}

/** "forked from ... at seq N" and the list of forks of thread `threadId` (nothing when none). */
export function Lineage({ threadId }: { threadId: string }) {
  const client = useClient();
  const { onError } = useSession();
  const [lineage, setLineage] = useState<Lineage | null>(null);
  const [forks, setForks] = useState<Fork[]>([]);
  const [more, setMore] = useState<{ after: string | null; loading: boolean } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const ids = useId();

  const fail = useCallback(
    (error: unknown) => {
      onError(error);
      setProblem(describeError(error));
    },
    [onError],
  );

  useEffect(() => {
    setLineage(null);
    setForks([]);
    setMore(null);
    setProblem(null);
    loadLineage(client, threadId, null).then((thread) => {
      if (!thread) return;
      setLineage(thread);
      setForks(thread.forks.edges.map((e) => e.node));
      const { hasNextPage, endCursor } = thread.forks.pageInfo;
      setMore(hasNextPage ? { after: endCursor ?? null, loading: false } : null);
    }, fail);
  }, [client, threadId, fail]);

  function loadMore() {
    if (!more || more.loading) return;
    setMore({ ...more, loading: true });
    loadLineage(client, threadId, more.after).then((thread) => {
      if (!thread) return;
      const known = new Set(forks.map((f) => f.id));
      setForks([
        ...forks,
        ...thread.forks.edges.map((e) => e.node).filter((f) => !known.has(f.id)),
      ]);
      const { hasNextPage, endCursor } = thread.forks.pageInfo;
      setMore(hasNextPage ? { after: endCursor ?? null, loading: false } : null);
    }, fail);
  }

  if (problem) {
    return (
      <p role="alert" className="problem">
        {problem}
      </p>
    );
  }
  if (!lineage) return null;
  const origin = lineage.forkedFrom;
  const total = lineage.forks.totalCount;
  return (
    <>
      {origin && (
        <p className="lineage origin">
          Forked from{' '}
          {origin.thread ? (
            <Link to={`/threads/${encodeURIComponent(origin.threadId)}?seq=${origin.seq}`}>
              {origin.thread.name || origin.threadId}
            </Link>
          ) : (
            <span title="The source thread was deleted">
              {origin.threadId} <span className="badge">deleted</span>
            </span>
          )}{' '}
          at seq {origin.seq}
        </p>
      )}
      {total > 0 && (
        <section className="lineage forks" aria-labelledby={`${ids}-forks`}>
          <h2 id={`${ids}-forks`}>
            Forks <span className="count">({total})</span>
          </h2>
          <ul className="fork-list">
            {forks.map((fork) => (
              <li key={fork.id}>
                <Link to={`/threads/${encodeURIComponent(fork.id)}`}>{fork.name || fork.id}</Link>{' '}
                <span className="meta">
                  at seq {fork.forkedFrom?.seq} · {fork.itemCount} items ·{' '}
                  <time dateTime={fork.createdAt}>{shortTime(fork.createdAt)}</time>
                </span>
              </li>
            ))}
          </ul>
          {more && (
            <button type="button" onClick={loadMore} disabled={more.loading}>
              {more.loading ? 'Loading…' : 'More forks'}
            </button>
          )}
        </section>
      )}
    </>
  );
}
