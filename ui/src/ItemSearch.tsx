/**
 * Full-text search over the items of every thread (Query.searchItems): a search box above the
 * thread list, results best first with the matching text (the server's snippet, whose matches
 * are marked), each linking to its item in its thread (?seq=<n>). More results load by cursor.
 * The agent and archived filters of the thread list apply to the search too.
 */
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { shortTime } from './format.js';
import { graphql } from './generated/gql.js';
import { describeError, useClient, useSession } from './session.js';

const PAGE = 20;

const SearchItemsQuery = graphql(`
  query UiSearchItems($query: String!, $filter: ItemSearchFilter, $first: Int, $after: String) {
    searchItems(query: $query, filter: $filter, first: $first, after: $after) {
      edges {
        cursor
        snippet
        thread {
          id
          name
        }
        node {
          ... on ConversationItem {
            id
            seq
            type
            createdAt
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

interface Hit {
  id: string;
  threadId: string;
  threadName: string | null;
  seq: number;
  type: string;
  createdAt: string;
  snippet: string;
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

/**
 * A snippet (HTML: escaped text with <mark></mark> around matches) as React nodes, without
 * innerHTML: only the marks become elements, everything else stays text.
 */
export function Snippet({ html }: { html: string }) {
  const parts = html.split(/(<mark>[\s\S]*?<\/mark>)/);
  const text = (s: string) => s.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);
  return (
    <>
      {parts.map((part, i) =>
        part.startsWith('<mark>') ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string
          <mark key={i}>{text(part.slice(6, -7))}</mark>
        ) : (
          text(part)
        ),
      )}
    </>
  );
}

/** The search box and its results; `agentId` and `includeArchived` narrow the search. */
export function ItemSearch({
  agentId,
  includeArchived,
}: {
  agentId: string | null;
  includeArchived: boolean;
}) {
  const client = useClient();
  const { onError } = useSession();
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<Hit[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [more, setMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const generation = useRef(0);
  const ids = useId();

  // Searches as the query settles (300 ms after the last keystroke).
  useEffect(() => {
    const timer = setTimeout(() => setQuery(typed.trim()), 300);
    return () => clearTimeout(timer);
  }, [typed]);

  const load = (after: string | null) => {
    const mine = after === null ? ++generation.current : generation.current;
    setLoading(true);
    setProblem(null);
    client
      .request(SearchItemsQuery, {
        query,
        filter: { agentId, includeArchived },
        first: PAGE,
        after,
      })
      .then(
        (data) => {
          if (mine !== generation.current) return;
          const page = data.searchItems;
          const found: Hit[] = page.edges.map((e) => ({
            id: e.node.id,
            threadId: e.thread.id,
            threadName: e.thread.name ?? null,
            seq: e.node.seq,
            type: e.node.type,
            createdAt: e.node.createdAt,
            snippet: e.snippet,
          }));
          setHits((old) => (after === null ? found : [...old, ...found]));
          setCursor(page.pageInfo.endCursor ?? null);
          setMore(page.pageInfo.hasNextPage);
          setLoading(false);
        },
        (error) => {
          if (mine !== generation.current) return;
          setLoading(false);
          onError(error);
          setProblem(describeError(error));
        },
      );
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: load reads the current query
  useEffect(() => {
    if (!query) {
      generation.current++;
      setHits([]);
      setMore(false);
      setProblem(null);
      return;
    }
    load(null);
  }, [query, agentId, includeArchived, client]);

  return (
    <div className="item-search">
      <search>
        <form
          className="filters"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            setQuery(typed.trim());
          }}
        >
          <div className="field wide">
            <label htmlFor={`${ids}-q`}>Search items</label>
            <input
              id={`${ids}-q`}
              type="search"
              placeholder='words, "a phrase", prefix*, -exclude, a OR b'
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
            />
          </div>
        </form>
      </search>
      {problem && (
        <p role="alert" className="problem">
          {problem}
        </p>
      )}
      {query && (
        <section aria-label="Search results" className="search-results">
          <p className="count" aria-live="polite">
            {loading && hits.length === 0
              ? 'Searching…'
              : `${hits.length}${more ? '+' : ''} result${hits.length === 1 ? '' : 's'}`}
          </p>
          {hits.length > 0 && (
            <ol className="hits">
              {hits.map((hit) => (
                <li key={hit.id} className="hit">
                  <Link
                    className="hit-link"
                    to={`/threads/${encodeURIComponent(hit.threadId)}?seq=${hit.seq}`}
                  >
                    <span className="hit-thread">{hit.threadName ?? hit.threadId}</span>
                    <span className="hit-meta">
                      {hit.type} · #{hit.seq} · {shortTime(hit.createdAt)}
                    </span>
                  </Link>
                  <p className="snippet">
                    <Snippet html={hit.snippet} />
                  </p>
                </li>
              ))}
            </ol>
          )}
          {more && (
            <button type="button" onClick={() => load(cursor)} disabled={loading}>
              {loading ? 'Loading…' : 'More results'}
            </button>
          )}
        </section>
      )}
    </div>
  );
}
