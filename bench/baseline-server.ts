/**
 * The baseline: a bare node:http server issuing statements like threadstore's (an append is an
 * UPDATE ... RETURNING and a multi-row INSERT in one transaction, where the app sends one
 * statement on PostgreSQL and checks expiry and usage in its UPDATE) through the same driver
 * (better-sqlite3 for SQLite, pg for PostgreSQL), answering the same request bodies with the same JSON shape. No
 * GraphQL, no ORM, no validation: what the hardware and driver can do. An append writes the
 * same rows as the app's, search text included (the app's own itemSearchText computes it), so
 * the search index (SQLite's FTS5 triggers, PostgreSQL's GIN index) does the same work for both.
 *
 *   POST /append     {variables: {t, items}}          one transaction: UPDATE ... RETURNING + multi-row INSERT
 *   POST /page       {variables: {t, after?, n}}      thread row + items page (like Thread.items)
 *   POST /threads    {variables: {n, agent?}}         the thread list (of one agent), updatedAt DESC, id ASC
 *   POST /broadcast  {items: [{seq, content}]}        raw ws broadcast to every /raw-ws client
 *   GET  /healthz
 *   WS   /raw-ws     speaks just enough graphql-ws (connection_ack, remembers the subscribe id)
 *
 * Env: DATABASE_URL, PORT, HOST (127.0.0.1), DB_POOL_SIZE (10, like the app),
 * SQLITE_SYNCHRONOUS (FULL, the app's default: the same durability per commit as the app).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Database from 'better-sqlite3';
import pg from 'pg';
import { type WebSocket, WebSocketServer } from 'ws';
import { itemSearchText } from '../src/search/search-text.js';

const url = process.env.DATABASE_URL ?? '';
const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? '127.0.0.1';
const poolSize = Number(process.env.DB_POOL_SIZE ?? 10);
const tenantId = 'local';
const isPg = /^postgres(ql)?:\/\//.test(url);
const synchronous = process.env.SQLITE_SYNCHRONOUS?.toUpperCase() === 'NORMAL' ? 'NORMAL' : 'FULL';

interface ThreadRow {
  tenantId: string;
  id: string;
  agentId: string;
  name: string | null;
  updatedAt: Date | string;
  nextSeq: number;
  itemCount: number;
  [key: string]: unknown;
}
interface ItemRow {
  threadId: string;
  seq: number;
  type: string;
  status: string;
  createdAt: Date | string;
  dataJson: string;
  [key: string]: unknown;
}

/** A prepared item: what the app computes before its INSERT. */
interface NewRow {
  type: string;
  status: string;
  dataJson: string;
  /** Item.searchText, indexed by the search triggers (SQLite FTS5) or index (PostgreSQL GIN). */
  searchText: string | null;
}

interface Store {
  append(threadId: string, rows: NewRow[], now: Date): Promise<{ firstSeq: number }>;
  page(
    threadId: string,
    after: number | null,
    n: number,
  ): Promise<{ thread: ThreadRow | null; rows: ItemRow[] }>;
  threads(n: number, agentId: string | null): Promise<ThreadRow[]>;
}

// The statements Prisma emits for the app (see db.statements.log), with the same shapes.
const THREAD_COLS = [
  'tenantId',
  'id',
  'agentId',
  'name',
  'nameFolded',
  'archived',
  'metadataJson',
  'metadataCanonical',
  'createdAt',
  'updatedAt',
  'nextSeq',
  'itemCount',
];
const ITEM_COLS = [
  'tenantId',
  'threadId',
  'seq',
  'type',
  'status',
  'responseId',
  'createdAt',
  'createdBy',
  'callId',
  'dataJson',
];
/**
 * The columns the app's INSERT writes (src/items/item.store.ts insertItems): the same row,
 * with its search text, so the bare insert does the same index work as the app's (issue 14).
 */
const INSERT_COLS = [
  ...ITEM_COLS,
  'rawJson',
  'rawFormat',
  'inputTokens',
  'outputTokens',
  'totalTokens',
  'searchText',
];

/** The INSERT's parameters for `rows` at seqs firstSeq.., row by row in INSERT_COLS order. */
function insertParams(
  threadId: string,
  firstSeq: number,
  rows: NewRow[],
  createdAt: unknown,
): unknown[] {
  return rows.flatMap((r, i) => [
    tenantId,
    threadId,
    firstSeq + i,
    r.type,
    r.status,
    null, // responseId
    createdAt,
    null, // createdBy
    null, // callId
    r.dataJson,
    null, // rawJson
    null, // rawFormat
    null, // inputTokens
    null, // outputTokens
    null, // totalTokens
    r.searchText,
  ]);
}

function sqliteStore(path: string): Store {
  const db = new Database(path, { timeout: 10_000 });
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('foreign_keys = ON');
  const q = (table: string, cols: string[]) =>
    cols.map((c) => `\`main\`.\`${table}\`.\`${c}\``).join(', ');
  const update = db.prepare(
    'UPDATE `main`.`Thread` SET `nextSeq` = (`main`.`Thread`.`nextSeq` + ?), `itemCount` = (`main`.`Thread`.`itemCount` + ?), `updatedAt` = ? ' +
      'WHERE ((`main`.`Thread`.`tenantId` = ? AND `main`.`Thread`.`id` = ?) AND 1=1) RETURNING ' +
      THREAD_COLS.map((c) => `\`${c}\` AS \`${c}\``).join(', '),
  );
  const inserts = new Map<number, Database.Statement>();
  const insertOf = (n: number) => {
    let stmt = inserts.get(n);
    if (!stmt) {
      const row = `(${INSERT_COLS.map(() => '?').join(',')})`;
      stmt = db.prepare(
        `INSERT INTO \`main\`.\`Item\` (${INSERT_COLS.map((c) => `\`${c}\``).join(', ')}) VALUES ${Array(n).fill(row).join(', ')}`,
      );
      inserts.set(n, stmt);
    }
    return stmt;
  };
  const threadById = db.prepare(
    `SELECT ${q('Thread', THREAD_COLS)} FROM \`main\`.\`Thread\` WHERE ((\`main\`.\`Thread\`.\`tenantId\` = ? AND \`main\`.\`Thread\`.\`id\` = ?) AND 1=1) LIMIT ? OFFSET ?`,
  );
  const itemsAfter = db.prepare(
    `SELECT ${q('Item', ITEM_COLS)} FROM \`main\`.\`Item\` WHERE (\`main\`.\`Item\`.\`tenantId\` = ? AND \`main\`.\`Item\`.\`threadId\` = ? AND \`main\`.\`Item\`.\`seq\` > ?) ORDER BY \`main\`.\`Item\`.\`seq\` ASC LIMIT ? OFFSET ?`,
  );
  const itemsLast = db.prepare(
    `SELECT ${q('Item', ITEM_COLS)} FROM \`main\`.\`Item\` WHERE (\`main\`.\`Item\`.\`tenantId\` = ? AND \`main\`.\`Item\`.\`threadId\` = ? AND \`main\`.\`Item\`.\`seq\` > ?) ORDER BY \`main\`.\`Item\`.\`seq\` DESC LIMIT ? OFFSET ?`,
  );
  const threadList = db.prepare(
    `SELECT * FROM "Thread" WHERE "tenantId" = ? AND "archived" = ?
          ORDER BY "updatedAt" DESC, "id" ASC LIMIT ?`,
  );
  const agentThreadList = db.prepare(
    `SELECT * FROM "Thread" WHERE "tenantId" = ? AND "agentId" = ? AND "archived" = ?
          ORDER BY "updatedAt" DESC, "id" ASC LIMIT ?`,
  );
  const iso = (d: Date) => d.toISOString().replace('Z', '+00:00');
  const append = db.transaction((threadId: string, rows: NewRow[], now: Date) => {
    const n = rows.length;
    const thread = update.get(n, n, iso(now), tenantId, threadId) as ThreadRow | undefined;
    if (!thread) throw new Error(`no thread ${threadId}`);
    const firstSeq = thread.nextSeq - n;
    insertOf(n).run(...insertParams(threadId, firstSeq, rows, iso(now)));
    return { firstSeq };
  });
  return {
    append: async (threadId, rows, now) => append(threadId, rows, now),
    async page(threadId, after, n) {
      const thread = (threadById.get(tenantId, threadId, 1, 0) as ThreadRow | undefined) ?? null;
      if (!thread) return { thread, rows: [] };
      const rows = (
        after === null
          ? itemsLast.all(tenantId, threadId, -1, n + 1, 0)
          : itemsAfter.all(tenantId, threadId, after, n + 1, 0)
      ) as ItemRow[];
      return { thread, rows };
    },
    threads: async (n, agentId) =>
      (agentId === null
        ? threadList.all(tenantId, 0, n + 1)
        : agentThreadList.all(tenantId, agentId, 0, n + 1)) as ThreadRow[],
  };
}

function postgresStore(connectionString: string): Store {
  const pool = new pg.Pool({ connectionString, max: poolSize, statement_timeout: 30_000 });
  const q = (table: string, cols: string[]) =>
    cols.map((c) => `"public"."${table}"."${c}"`).join(', ');
  const update =
    'UPDATE "public"."Thread" SET "nextSeq" = ("public"."Thread"."nextSeq" + $1), "itemCount" = ("public"."Thread"."itemCount" + $2), "updatedAt" = $3 ' +
    `WHERE (("public"."Thread"."tenantId" = $4 AND "public"."Thread"."id" = $5) AND 1=1) RETURNING ${q('Thread', THREAD_COLS)}`;
  const insertOf = (n: number) => {
    const rows: string[] = [];
    for (let r = 0; r < n; r++)
      rows.push(`(${INSERT_COLS.map((_, c) => `$${r * INSERT_COLS.length + c + 1}`).join(',')})`);
    return `INSERT INTO "public"."Item" (${INSERT_COLS.map((c) => `"${c}"`).join(',')}) VALUES ${rows.join(', ')}`;
  };
  const insertSql = new Map<number, string>();
  const threadById = `SELECT ${q('Thread', THREAD_COLS)} FROM "public"."Thread" WHERE (("public"."Thread"."tenantId" = $1 AND "public"."Thread"."id" = $2) AND 1=1) LIMIT $3 OFFSET $4`;
  const items = (dir: string) =>
    `SELECT ${q('Item', ITEM_COLS)} FROM "public"."Item" WHERE ("public"."Item"."tenantId" = $1 AND "public"."Item"."threadId" = $2 AND "public"."Item"."seq" > $3) ORDER BY "public"."Item"."seq" ${dir} LIMIT $4 OFFSET $5`;
  const itemsAfter = items('ASC');
  const itemsLast = items('DESC');
  const threadList = `SELECT * FROM "Thread" WHERE "tenantId" = $1 AND "archived" = $2
          ORDER BY "updatedAt" DESC, "id" COLLATE "C" ASC LIMIT $3`;
  const agentThreadList = `SELECT * FROM "Thread" WHERE "tenantId" = $1 AND "agentId" = $2 AND "archived" = $3
          ORDER BY "updatedAt" DESC, "id" COLLATE "C" ASC LIMIT $4`;
  return {
    async append(threadId, rows, now) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const n = rows.length;
        const { rows: threads } = await client.query<ThreadRow>(update, [
          n,
          n,
          now,
          tenantId,
          threadId,
        ]);
        if (!threads[0]) throw new Error(`no thread ${threadId}`);
        const firstSeq = threads[0].nextSeq - n;
        const params = insertParams(threadId, firstSeq, rows, now);
        let sql = insertSql.get(n);
        if (!sql) {
          sql = insertOf(n);
          insertSql.set(n, sql);
        }
        await client.query(sql, params);
        await client.query('COMMIT');
        return { firstSeq };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async page(threadId, after, n) {
      const { rows: threads } = await pool.query<ThreadRow>(threadById, [tenantId, threadId, 1, 0]);
      const thread = threads[0] ?? null;
      if (!thread) return { thread, rows: [] };
      const { rows } = await pool.query<ItemRow>(after === null ? itemsLast : itemsAfter, [
        tenantId,
        threadId,
        after ?? -1,
        n + 1,
        0,
      ]);
      return { thread, rows };
    },
    threads: async (n, agentId) =>
      (agentId === null
        ? await pool.query<ThreadRow>(threadList, [tenantId, false, n + 1])
        : await pool.query<ThreadRow>(agentThreadList, [tenantId, agentId, false, n + 1])
      ).rows,
  };
}

const store = isPg ? postgresStore(url) : sqliteStore(url.replace(/^file:/, ''));

const cursor = (payload: unknown) =>
  Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
const isoOf = (value: Date | string) => new Date(value).toISOString();

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res
    .writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
    })
    .end(text);
}

type Vars = Record<string, unknown>;

async function handle(
  path: string,
  body: { variables?: Vars; items?: unknown[] },
): Promise<unknown> {
  const v = body.variables ?? {};
  if (path === '/append') {
    const threadId = String(v.t);
    const input = v.items as { message: { role: string; content: string } }[];
    // What prepareItem does, minus validation: the body becomes the stored JSON, its text the
    // search text (the app's own function: the same rows, so the same index work).
    const rows = input.map((item) => ({
      type: 'message',
      status: 'COMPLETED',
      dataJson: JSON.stringify(item.message),
      searchText: itemSearchText('message', item.message),
    }));
    const { firstSeq } = await store.append(threadId, rows, new Date());
    return {
      data: {
        appendItems: {
          items: rows.map((_, i) => ({ id: `${threadId}:${firstSeq + i}`, seq: firstSeq + i })),
        },
      },
    };
  }
  if (path === '/page') {
    const threadId = String(v.t);
    const n = Number(v.n ?? 50);
    const forward = 'after' in v;
    const { thread, rows } = await store.page(threadId, forward ? Number(v.after ?? -1) : null, n);
    if (!thread) return { data: { thread: null } };
    const more = rows.length > n;
    const page = rows.slice(0, n);
    if (!forward) page.reverse();
    const edges = page.map((row) => {
      const seq = Number(row.seq);
      return {
        cursor: cursor({ t: threadId, s: seq }),
        node: {
          id: `${threadId}:${seq}`,
          seq,
          type: row.type,
          status: row.status,
          createdAt: isoOf(row.createdAt),
          data: JSON.parse(row.dataJson) as unknown,
        },
      };
    });
    const pageInfo = forward
      ? { hasNextPage: more, endCursor: edges.at(-1)?.cursor ?? null }
      : { hasPreviousPage: more, startCursor: edges[0]?.cursor ?? null };
    return {
      data: { thread: { items: { edges: edges.map((e) => ({ node: e.node })), pageInfo } } },
    };
  }
  if (path === '/threads') {
    const n = Number(v.n ?? 50);
    const agent = v.agent === undefined || v.agent === null ? null : String(v.agent);
    const all = await store.threads(n, agent);
    const rows = all.slice(0, n);
    const last = rows.at(-1);
    // The agent's list is what a UI pages through: it asks for pageInfo too.
    const pageInfo =
      agent === null
        ? undefined
        : {
            hasNextPage: all.length > n,
            endCursor: last ? cursor({ u: new Date(last.updatedAt).getTime(), i: last.id }) : null,
          };
    return {
      data: {
        threads: {
          edges: rows.map((t) => ({
            node: {
              id: t.id,
              agentId: t.agentId,
              name: t.name,
              updatedAt: isoOf(t.updatedAt),
              itemCount: Number(t.itemCount),
            },
          })),
          pageInfo,
        },
      },
    };
  }
  if (path === '/broadcast') {
    broadcast(body.items as { seq: number; content: string }[]);
    return { ok: true };
  }
  throw Object.assign(new Error(`no route ${path}`), { status: 404 });
}

// Raw ws: the followers' client speaks graphql-ws; this answers just enough of it.
const subscribers = new Map<WebSocket, string>();

function broadcast(items: { seq: number; content: string }[]): void {
  // The commit time of the app's items is their createdAt; here it is now.
  const createdAt = new Date().toISOString();
  for (const item of items) {
    const node = { id: `raw:${item.seq}`, seq: item.seq, createdAt, content: item.content };
    for (const [socket, id] of subscribers) {
      socket.send(JSON.stringify({ id, type: 'next', payload: { data: { threadItems: node } } }));
    }
  }
}

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0]!;
  if (path === '/healthz') return send(res, 200, { status: 'ok' });
  readBody(req)
    .then((text) => handle(path, JSON.parse(text) as never))
    .then((out) => send(res, 200, out))
    .catch((error: Error & { status?: number }) =>
      send(res, error.status ?? 500, { errors: [{ message: error.message }] }),
    );
});

const wss = new WebSocketServer({ server, path: '/raw-ws' });
wss.on('connection', (socket) => {
  socket.on('message', (raw) => {
    const msg = JSON.parse(String(raw)) as { type: string; id?: string };
    if (msg.type === 'connection_init') socket.send(JSON.stringify({ type: 'connection_ack' }));
    else if (msg.type === 'subscribe' && msg.id) subscribers.set(socket, msg.id);
    else if (msg.type === 'complete') subscribers.delete(socket);
  });
  socket.on('close', () => subscribers.delete(socket));
});

server.listen(port, host, () => {
  const address = server.address() as { port: number };
  process.stdout.write(`baseline listening on ${address.port}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => process.exit(0));
