/**
 * Query.searchItems through the GraphQL endpoint, on the run's provider (SQLite and
 * PostgreSQL: the same file runs on both). One corpus, one table of queries with the items
 * each must find: the same set on both databases (contract: "The same query finds the same
 * items on both databases"). Then tenants, archived threads, filters, pages, queries that
 * never error, purge/delete/import/large appends keeping the index, and snippets.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reindexItems } from '../src/search/search-reindex.js';
import { graphql } from './generated/gql.js';
import type { NewItem } from './generated/graphql.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import type { GraphQLClient, ResultOf } from './testkit/graphql.js';

const SECRET = 'search-test-secret-of-at-least-32-characters-long';

function jwt(tenant: string): Promise<string> {
  return new SignJWT({ tenant, scope: 'threads:read threads:write threads:delete' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(`user-of-${tenant}`)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(SECRET));
}

const SEARCH = graphql(`
  query SearchItemsTest($query: String!, $filter: ItemSearchFilter, $first: Int, $after: String) {
    searchItems(query: $query, filter: $filter, first: $first, after: $after) {
      edges {
        cursor
        snippet
        thread {
          id
        }
        node {
          ... on ConversationItem {
            id
            seq
            type
          }
        }
      }
      pageInfo {
        hasNextPage
        hasPreviousPage
        endCursor
      }
    }
  }
`);

const CREATE = graphql(`
  mutation SearchCreateThread($input: CreateThreadInput!) {
    createThread(input: $input) {
      thread {
        id
      }
    }
  }
`);

const APPEND = graphql(`
  mutation SearchAppend($input: AppendItemsInput!) {
    appendItems(input: $input) {
      items {
        ... on ConversationItem {
          seq
        }
      }
    }
  }
`);

const UPDATE = graphql(`
  mutation SearchUpdateThread($input: UpdateThreadInput!) {
    updateThread(input: $input) {
      thread {
        archived
      }
    }
  }
`);

const PURGE = graphql(`
  mutation SearchPurge($input: PurgeItemsInput!) {
    purgeItems(input: $input) {
      itemsDeleted
    }
  }
`);

const DELETE = graphql(`
  mutation SearchDelete($input: DeleteThreadInput!) {
    deleteThread(input: $input) {
      itemsDeleted
    }
  }
`);

const IMPORT = graphql(`
  mutation SearchImport($input: ImportTranscriptInput!) {
    importTranscript(input: $input) {
      thread {
        id
      }
      itemsImported
    }
  }
`);

const msg = (content: string, role = 'user'): NewItem => ({ message: { role, content } });

/** The corpus: key -> item, all in thread "corpus" in this order (seq = index). */
const CORPUS: [string, NewItem][] = [
  ['fox', msg('The quick brown fox jumps over the lazy dog')],
  ['cafe', msg('Café au lait in the CAFÉ — naïve résumé')],
  ['strasse', msg('Straße und STRASSE in Berlin')],
  ['deployment', { reasoning: { text: 'Thinking about the deployment pipeline and deploys' } }],
  [
    'call',
    {
      toolCall: {
        callId: 'c1',
        name: 'read_file',
        arguments: { path: '/src/server/app.ts', limit: 100 },
      },
    },
  ],
  [
    'result',
    {
      toolResult: {
        callId: 'c1',
        name: 'read_file',
        output: 'export function buildApp() { return 42 }',
      },
    },
  ],
  [
    'error',
    { error: { reason: 'Connection refused: ECONNREFUSED 127.0.0.1:5432', code: 'DB_DOWN' } },
  ],
  ['terminal', { terminal: { stream: 'stdout', text: 'npm ERR! missing script: build-ui' } }],
  ['tokyo', msg('東京都に住んでいます')],
  ['kyoto', msg('京都の寺は美しい')],
  ['party', msg('パーティー 🎉 party time 🎉')],
  ['parts', { message: { role: 'user', parts: [{ type: 'text', text: 'Parts: a zebra' }] } }],
  ['phrase', msg('He said "hello world" to the world')],
  ['reversed', msg('world hello, not the phrase')],
  ['html', msg('Use <script>alert(1)</script> & "more"')],
  ['greek', msg('Ελληνικά ΦΙΛΟΣ φίλος')],
  ['or', msg('OR is a word here, or not')],
  ['foobar', msg('foo-bar baz_qux')],
  ['deploy', msg('prefixes: deploy deployed')],
  ['resource', { resourceEvent: { kind: 'deploy', payload: { text: 'zebra fox' } } }],
  ['slash', { slashCommand: { command: '/deploy', args: 'zebra fox' } }],
  ['fullwidth', msg('ｆｕｌｌｗｉｄｔｈ text and the ﬁle')],
  ['korean', msg('Korean 한국어 텍스트')],
  ['mixed', msg('mixed東京abc')],
  ['japanese', msg('日本語のテキスト検索')],
];

/** query -> keys of the corpus it must find (exactly), on both databases. */
const cases: [string, string[]][] = [
  ['fox', ['fox']],
  ['FOX', ['fox']],
  ['quick fox', ['fox']],
  ['fox cat', []],
  ['cafe', ['cafe']],
  ['CAFÉ', ['cafe']],
  ['naive resume', ['cafe']],
  ['strasse', ['strasse']],
  ['STRAßE', ['strasse']],
  ['deploy*', ['deployment', 'deploy']],
  ['deploy', ['deploy']],
  ['deployment OR zebra', ['deployment', 'parts']],
  ['"hello world"', ['phrase']],
  ['"hello world', ['phrase']],
  ['hello world', ['phrase', 'reversed']],
  ['"world hello"', ['reversed']],
  ['hello -phrase', ['phrase']],
  ['world -"hello world"', ['reversed']],
  ['"lazy do"*', ['fox']],
  ['"brown quick"', []],
  ['quick -"lazy dog"', []],
  ['quick -"lazy cat"', ['fox']],
  ['"quick brown" OR zebra', ['fox', 'parts']],
  ['bro*', ['fox']],
  ['東京', ['tokyo', 'mixed']],
  ['京都', ['tokyo', 'kyoto']],
  ['東', ['tokyo', 'mixed']],
  ['都', ['tokyo', 'kyoto']],
  ['住んで', ['tokyo']],
  ['寺は美', ['kyoto']],
  ['テキスト', ['japanese']],
  ['検索', ['japanese']],
  ['パーティー', ['party']],
  ['🎉', ['party']],
  ['party', ['party']],
  ['한국어', ['korean']],
  ['한국', ['korean']],
  ['국어', ['korean']],
  ['mixed東京abc', ['mixed']],
  ['read_file', ['call', 'result']],
  ['app.ts', ['call']],
  ['100', ['call']],
  ['42', ['result']],
  ['127.0.0.1', ['error']],
  ['econnrefused', ['error']],
  ['db_down', ['error']],
  ['npm ERR!', ['terminal']],
  ['zebra', ['parts']],
  ['φιλοσ', ['greek']],
  ['ΦΊΛΟΣ', ['greek']],
  ['script', ['html', 'terminal']],
  ['<script>', ['html', 'terminal']],
  ['foo.bar', ['foobar']],
  ['baz_qux', ['foobar']],
  ['fullwidth', ['fullwidth']],
  ['file', ['call', 'result', 'fullwidth']],
  ['OR', ['or']],
  ['fox OR', []],
  ['fox OR dog', ['fox']],
  ['fox OR zebra', ['fox', 'parts']],
  ['fox OR -zebra', []],
  ['*', []],
  ['"', []],
  ['""', []],
  ['-fox', []],
  ['--fox', []],
  ['', []],
  ['   ', []],
  ['fox*', ['fox']],
  ['f*x', []],
];

/** Queries that must never error (they degrade to plain words). */
const HOSTILE = [
  '"',
  '"""',
  '(',
  ')',
  'AND',
  'NOT',
  'NEAR(a b)',
  'a NOT b',
  '^fox',
  'fox:*',
  "fox'",
  "'",
  '\\',
  '*-"',
  '-',
  '!',
  '&',
  '|',
  "'fox' & !'dog'",
  '"unclosed OR',
  'OR OR OR',
  '- - -',
  '""*',
  'fox**',
  'col:fox',
  '{fox}',
  '%_',
  '\u0000',
  'a\u0000b',
  '🎉*',
  'ﷺ',
  '\u200d',
  'x'.repeat(1000),
];

let t: TestApp;
let A: GraphQLClient;
let B: GraphQLClient;
/** seq -> corpus key. */
const keyOfSeq = new Map<number, string>();

beforeAll(async () => {
  t = await buildTestApp({ AUTH: 'required', AUTH_JWT_SECRET: SECRET });
  A = t.as(`Bearer ${await jwt('search-a')}`);
  B = t.as(`Bearer ${await jwt('search-b')}`);
  await A.execute(CREATE, { input: { id: 'corpus', agentId: 'agent-s' } });
  const data = await A.execute(APPEND, {
    input: { threadId: 'corpus', items: CORPUS.map(([, item]) => item) },
  });
  data.appendItems.items.forEach((item, i) => {
    keyOfSeq.set(item.seq, CORPUS[i]![0]);
  });
});
afterAll(() => t?.close());

async function search(
  client: GraphQLClient,
  query: string,
  filter: Record<string, unknown> | null = null,
  first = 100,
) {
  const data = await client.execute(SEARCH, { query, filter, first });
  return data.searchItems;
}

/** The corpus keys a query finds in thread "corpus", sorted. */
async function keysFound(query: string, filter: Record<string, unknown> = {}): Promise<string[]> {
  const result = await search(A, query, { threadId: 'corpus', ...filter });
  return result.edges.map((e) => keyOfSeq.get(e.node.seq) ?? `?${e.node.seq}`).sort();
}

describe('the shared query table', () => {
  it.each(cases)('%j finds %j', async (query, expected) => {
    expect(await keysFound(query)).toEqual([...expected].sort());
  });

  it('has at least 30 queries', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });
});

describe('queries never error', () => {
  it.each(HOSTILE.map((q) => [q]))('%j', async (query) => {
    const response = await A.request(SEARCH, { query, first: 5 });
    expect(response.errors).toBeUndefined();
    expect(Array.isArray(response.data?.searchItems.edges)).toBe(true);
  });

  it('a query over 1000 characters is BAD_USER_INPUT; first outside 0..100 too', async () => {
    const long = await A.expectError(SEARCH, { query: 'x'.repeat(1001) });
    expect(long.code).toBe('BAD_USER_INPUT');
    const tooMany = await A.expectError(SEARCH, { query: 'fox', first: 101 });
    expect(tooMany.code).toBe('BAD_USER_INPUT');
    expect(tooMany.message).toContain('first');
    const forged = await A.expectError(SEARCH, { query: 'fox', after: 'nope' });
    expect(forged.code).toBe('BAD_USER_INPUT');
  });
});

describe('snippets', () => {
  it('escape HTML and mark matches', async () => {
    const [edge] = (await search(A, 'script more', { threadId: 'corpus' })).edges;
    expect(edge?.snippet).toBe(
      'Use &lt;<mark>script</mark>&gt;alert(1)&lt;/<mark>script</mark>&gt; &amp; &quot;<mark>more</mark>&quot;',
    );
  });

  it('mark accented and folded matches in the original text, and CJK substrings', async () => {
    const [cafe] = (await search(A, 'cafe', { threadId: 'corpus' })).edges;
    expect(cafe?.snippet).toBe('<mark>Café</mark> au lait in the <mark>CAFÉ</mark> — naïve résumé');
    const [tokyo] = (await search(A, '京都', { threadId: 'corpus', types: ['message'] })).edges
      .slice()
      .sort((a, b) => a.node.seq! - b.node.seq!);
    expect(tokyo?.snippet).toBe('東<mark>京都</mark>に住んでいます');
  });

  it('show a window around the first match of a long text', async () => {
    await A.execute(CREATE, { input: { id: 'long', agentId: 'agent-s' } });
    const text = `${'lorem ipsum '.repeat(100)}needle ${'dolor sit '.repeat(100)}`;
    await A.execute(APPEND, { input: { threadId: 'long', items: [msg(text)] } });
    const [edge] = (await search(A, 'needle', { threadId: 'long' })).edges;
    expect(edge?.snippet.startsWith('…')).toBe(true);
    expect(edge?.snippet.endsWith('…')).toBe(true);
    expect(edge?.snippet).toContain('<mark>needle</mark>');
    expect(edge!.snippet.length).toBeLessThan(260);
  });
});

describe('scope', () => {
  it("another tenant's items are never found; each tenant finds its own", async () => {
    await B.execute(CREATE, { input: { id: 'corpus', agentId: 'agent-s' } });
    await B.execute(APPEND, { input: { threadId: 'corpus', items: [msg('fox of tenant b')] } });
    const a = await search(A, 'fox', { threadId: 'corpus' });
    const b = await search(B, 'fox');
    expect(a.edges.map((e) => e.node.seq)).toEqual([0]);
    expect(b.edges).toHaveLength(1);
    expect(b.edges[0]?.snippet).toBe('<mark>fox</mark> of tenant b');
    expect((await search(B, 'zebra')).edges).toEqual([]);
    // A's cursor is refused for B.
    const cursor = a.edges[0]!.cursor;
    const refused = await B.expectError(SEARCH, { query: 'fox', after: cursor });
    expect(refused.code).toBe('BAD_USER_INPUT');
  });

  it('archived threads are left out unless includeArchived', async () => {
    await A.execute(CREATE, { input: { id: 'old', agentId: 'agent-old' } });
    await A.execute(APPEND, { input: { threadId: 'old', items: [msg('archived walrus')] } });
    expect((await search(A, 'walrus')).edges).toHaveLength(1);
    await A.execute(UPDATE, { input: { id: 'old', archived: true } });
    expect((await search(A, 'walrus')).edges).toHaveLength(0);
    const found = await search(A, 'walrus', { includeArchived: true });
    expect(found.edges.map((e) => e.thread.id)).toEqual(['old']);
  });

  it('filters: agentId, types, createdAfter/createdBefore', async () => {
    expect((await search(A, 'fox', { agentId: 'agent-s' })).edges.length).toBeGreaterThan(0);
    expect((await search(A, 'fox', { agentId: 'nobody' })).edges).toEqual([]);
    expect(await keysFound('read_file', { types: ['tool_result'] })).toEqual(['result']);
    expect(await keysFound('fox', { createdBefore: '2000-01-01T00:00:00.000Z' })).toEqual([]);
    expect(await keysFound('fox', { createdAfter: '2000-01-01T00:00:00.000Z' })).toEqual(['fox']);
    const empty = await A.expectError(SEARCH, { query: 'fox', filter: { types: [] } });
    expect(empty.code).toBe('BAD_USER_INPUT');
  });
});

describe('pages', () => {
  it('walk every match once, best first, with keyset cursors', async () => {
    await A.execute(CREATE, { input: { id: 'many', agentId: 'agent-many' } });
    // Items with one to five "otter": more mentions rank higher on both databases.
    const items = Array.from({ length: 45 }, (_, i) =>
      msg(`${'otter '.repeat((i % 5) + 1)}number ${i}`),
    );
    await A.execute(APPEND, { input: { threadId: 'many', items } });
    const seen: number[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const data: ResultOf<typeof SEARCH> = await A.execute(SEARCH, {
        query: 'otter',
        filter: { threadId: 'many' },
        first: 10,
        after,
      });
      const page = data.searchItems;
      pages++;
      seen.push(...page.edges.map((e) => e.node.seq!));
      expect(page.pageInfo.hasPreviousPage).toBe(after !== null);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(pages).toBe(5);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 45 }, (_, i) => i));
    // The first page holds the items that say "otter" most (five times).
    const first = await search(A, 'otter', { threadId: 'many' }, 9);
    expect(first.edges.map((e) => e.node.seq! % 5)).toEqual(Array(9).fill(4));
    // Default page: 20.
    const dflt = await A.execute(SEARCH, { query: 'otter', filter: { threadId: 'many' } });
    expect(dflt.searchItems.edges).toHaveLength(20);
  });
});

describe('the index follows every write', () => {
  it('purgeItems and deleteThread remove hits', async () => {
    await A.execute(CREATE, { input: { id: 'gone', agentId: 'agent-s' } });
    await A.execute(APPEND, {
      input: {
        threadId: 'gone',
        items: [
          {
            message: { role: 'user', content: 'ephemeral narwhal' },
            createdAt: '2020-01-01T00:00:00.000Z',
          },
        ],
      },
    });
    await A.execute(APPEND, { input: { threadId: 'gone', items: [msg('lasting narwhal')] } });
    expect((await search(A, 'narwhal')).edges).toHaveLength(2);
    await A.execute(PURGE, {
      input: { threadId: 'gone', before: '2021-01-01T00:00:00.000Z' },
    });
    const left = await search(A, 'narwhal');
    expect(left.edges.map((e) => e.snippet)).toEqual(['lasting <mark>narwhal</mark>']);
    await A.execute(DELETE, { input: { id: 'gone' } });
    expect((await search(A, 'narwhal')).edges).toEqual([]);
  });

  it("a fork's copied items are found in the fork; its later appends and the source's stay apart", async () => {
    await A.execute(CREATE, { input: { id: 'fork-src', agentId: 'agent-s' } });
    await A.execute(APPEND, {
      input: { threadId: 'fork-src', items: [msg('okapi one'), msg('okapi two')] },
    });
    await A.execute(
      'mutation($input: ForkThreadInput!) { forkThread(input: $input) { thread { id } } }',
      { input: { threadId: 'fork-src', atSeq: 0, id: 'fork-dst' } },
    );
    await A.execute(APPEND, { input: { threadId: 'fork-dst', items: [msg('okapi three')] } });
    const threadsOf = async (query: string) =>
      (await search(A, query)).edges.map((e) => `${e.thread.id}:${e.node.seq}`).sort();
    expect(await threadsOf('okapi')).toEqual([
      'fork-dst:0',
      'fork-dst:1',
      'fork-src:0',
      'fork-src:1',
    ]);
    expect(await threadsOf('okapi two')).toEqual(['fork-src:1']);
    expect(await threadsOf('okapi three')).toEqual(['fork-dst:1']);
    await A.execute(DELETE, { input: { id: 'fork-src' } });
    expect(await threadsOf('okapi')).toEqual(['fork-dst:0', 'fork-dst:1']);
  });

  it('an expired thread is left out at once, before the expiry job runs', async () => {
    await A.execute(
      'mutation($at: DateTime!) { createThread(input: { id: "expiring", agentId: "agent-s", expiresAt: $at }) { thread { id } } }',
      { at: new Date(Date.now() + 500).toISOString() },
    );
    await A.execute(APPEND, { input: { threadId: 'expiring', items: [msg('quokka soon')] } });
    expect((await search(A, 'quokka')).edges).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 600));
    expect((await search(A, 'quokka')).edges).toEqual([]);
  });

  it('large appends (the transaction path on PostgreSQL) and imports are searchable', async () => {
    await A.execute(CREATE, { input: { id: 'big', agentId: 'agent-s' } });
    const items = Array.from({ length: 150 }, (_, i) => msg(`bulk item ${i} pelican`));
    await A.execute(APPEND, { input: { threadId: 'big', items } });
    const big = await search(A, 'pelican', { threadId: 'big' }, 100);
    expect(big.edges).toHaveLength(100);
    expect(big.pageInfo.hasNextPage).toBe(true);

    const imported = await A.execute(IMPORT, {
      input: {
        agentId: 'agent-s',
        format: 'OPENAI_CHAT',
        transcript: [
          { role: 'user', content: 'What does a flamingo eat?' },
          { role: 'assistant', content: 'Shrimp, mostly.' },
        ],
      },
    });
    const threadId = imported.importTranscript.thread.id;
    const found = await search(A, 'flamingo OR shrimp', { threadId });
    expect(found.edges.map((e) => e.node.seq).sort()).toEqual([0, 1]);
  });

  it('search:reindex indexes items stored without searchText (before search existed)', async () => {
    await A.execute(CREATE, { input: { id: 'legacy', agentId: 'agent-s' } });
    await A.execute(APPEND, {
      input: { threadId: 'legacy', items: [msg('an old heron'), msg('and a newer heron')] },
    });
    expect((await search(A, 'heron')).edges).toHaveLength(2);
    // As stored before the migration: no searchText (SQLite's trigger drops the FTS row too).
    await t.app.db.prisma
      .$executeRaw`UPDATE "Item" SET "searchText" = NULL WHERE "threadId" = 'legacy'`;
    expect((await search(A, 'heron')).edges).toHaveLength(0);
    const done = await reindexItems(t.app.db);
    expect(done.indexed).toBe(2);
    expect((await search(A, 'heron')).edges).toHaveLength(2);
    expect((await reindexItems(t.app.db)).indexed).toBe(0);
  });
});
