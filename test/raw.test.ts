/**
 * Raw statements sent to the driver adapter directly (src/db/raw.ts) must return what Prisma's
 * `$queryRaw` returns for the same statement: the same keys, values and types (bigint, Date,
 * parsed JSON, null), with the same parameters (strings, numbers, bigint, Date, lists, null);
 * count as statements; fail with errors the availability rules still recognise; and leave
 * transactions on Prisma's path. On both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../src/db/errors.js';
import { executeRows, queryRows, rawTransaction } from '../src/db/raw.js';
import { dependencyFailure } from '../src/db/unavailable.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { testProvider } from './testkit/database.js';

describe('raw statements through the adapter', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.execute(
      'mutation { createThread(input: { id: "raw-1", agentId: "agent-raw", name: "Ünïcode ✓", metadata: { k: [1, 2] } }) { thread { id } } }',
    );
    await t.execute(
      `mutation { appendItems(input: { threadId: "raw-1", items: [
        { message: { role: "user", content: "one" } },
        { message: { role: "assistant", content: "two", usage: { inputTokens: 5, outputTokens: 7 } } }
      ] }) { items { ... on ConversationItem { seq } } } }`,
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  const statements = (): Prisma.Sql[] => {
    const since = new Date(Date.now() - 3_600_000);
    return [
      Prisma.sql`SELECT * FROM "Thread" WHERE "tenantId" = ${'local'} AND "id" = ${'raw-1'}`,
      Prisma.sql`SELECT * FROM "Item" WHERE "tenantId" = ${'local'} AND "threadId" = ${'raw-1'} AND "seq" > ${-1} ORDER BY "seq"`,
      Prisma.sql`SELECT COUNT(*) AS n, MAX("seq") AS m, SUM("seq") AS s FROM "Item" WHERE "threadId" IN (${Prisma.join(['raw-1', 'none'])})`,
      Prisma.sql`SELECT "seq", "createdAt" FROM "Item" WHERE "createdAt" > ${since} AND "seq" < ${BigInt(10)} ORDER BY "seq"`,
      Prisma.sql`SELECT ${'text'} AS a, ${null} AS b, ${2.5} AS c, 1 = 1 AS d`,
      Prisma.sql`SELECT COALESCE(${Number.NaN}, 7) AS nan, COALESCE(${Number.POSITIVE_INFINITY}, 8) AS inf`,
      Prisma.sql`SELECT * FROM "Thread" WHERE "id" = ${'no-such-thread'}`,
    ];
  };

  it('returns what $queryRaw returns, value for value and type for type', async () => {
    const prisma = t.app.db.prisma;
    for (const sql of statements()) {
      const direct = await queryRows<Record<string, unknown>>(prisma, sql);
      const viaPrisma = await prisma.$queryRaw<Record<string, unknown>[]>(sql);
      expect(direct).toStrictEqual(viaPrisma);
    }
    const [thread] = await queryRows<Record<string, unknown>>(prisma, statements()[0]!);
    expect(thread?.id).toBe('raw-1');
    expect(thread?.name).toBe('Ünïcode ✓');
    expect(thread?.updatedAt).toBeInstanceOf(Date);
    const [sums] = await queryRows<Record<string, unknown>>(prisma, statements()[2]!);
    expect(Number(sums?.n)).toBe(2);
  });

  it('counts each statement, and leaves a transaction on Prisma', async () => {
    const prisma = t.app.db.prisma;
    const { count, log } = await t.countStatements(() =>
      queryRows(prisma, Prisma.sql`SELECT 1 AS one`),
    );
    expect(count).toBe(1);
    expect(log[0]).toContain('SELECT 1 AS one');
    const inside = await prisma.$transaction((tx) =>
      queryRows<{ one: unknown }>(tx, Prisma.sql`SELECT 1 AS one`),
    );
    expect(Number(inside[0]?.one)).toBe(1);
  });

  it('fails as $queryRaw fails: the same error class, code and driver error', async () => {
    const prisma = t.app.db.prisma;
    const failures = (sql: Prisma.Sql) =>
      Promise.all([
        queryRows(prisma, sql).catch((e: unknown) => e),
        prisma.$queryRaw(sql).catch((e: unknown) => e),
      ]);
    const [direct, viaPrisma] = await failures(Prisma.sql`SELECT * FROM "NoSuchTable"`);
    expect(direct).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
    expect((direct as { code: string }).code).toBe((viaPrisma as { code: string }).code);
    expect(dependencyFailure(direct)).toBeNull();
    // A duplicate key (the idempotency replay of appends relies on recognising it).
    const duplicate = Prisma.sql`INSERT INTO "Thread" ("tenantId", "id", "agentId", "createdAt", "updatedAt")
      SELECT "tenantId", "id", "agentId", "createdAt", "updatedAt" FROM "Thread" WHERE "id" = ${'raw-1'} RETURNING "id"`;
    const [dup, dupViaPrisma] = await failures(duplicate);
    expect(isUniqueViolation(dupViaPrisma)).toBe(true);
    expect(isUniqueViolation(dup)).toBe(true);
    expect(dependencyFailure(dup)).toBeNull();
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// transaction(..., { raw: true }) runs raw transactions on SQLite only (src/db/transaction.ts).
describe.skipIf(testProvider !== 'sqlite')('raw transactions on SQLite', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const insertThread = (id: string) =>
    Prisma.sql`INSERT INTO "Thread" ("tenantId", "id", "agentId", "createdAt", "updatedAt")
      VALUES (${'local'}, ${id}, ${'agent'}, ${new Date()}, ${new Date()})`;
  const exists = async (id: string) =>
    (await queryRows(t.app.db.prisma, Prisma.sql`SELECT 1 FROM "Thread" WHERE "id" = ${id}`))
      .length === 1;
  const limits = { maxWaitMs: 5_000, timeoutMs: 5_000 };

  it('commits what work wrote, and rolls all of it back when work throws', async () => {
    const prisma = t.app.db.prisma;
    const ran = await rawTransaction(
      prisma,
      (tx) => executeRows(tx, insertThread('rt-ok')),
      limits,
    );
    expect(ran).toEqual({ result: 1 });
    expect(await exists('rt-ok')).toBe(true);
    const failed = await rawTransaction(
      prisma,
      async (tx) => {
        await executeRows(tx, insertThread('rt-undone'));
        throw new Error('work failed');
      },
      limits,
    ).catch((e: unknown) => e);
    expect((failed as Error).message).toBe('work failed');
    expect(await exists('rt-undone')).toBe(false);
  });

  it('has no Prisma client API on its executor', async () => {
    const error = await rawTransaction(
      t.app.db.prisma,
      async (tx) => tx.thread.findFirst({ where: { id: 'rt-ok' } }),
      limits,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(await queryRows(t.app.db.prisma, Prisma.sql`SELECT 1 AS one`)).toHaveLength(1);
  });

  it('rolls back at its timeout: P2028, nothing written, the connection free again', async () => {
    const error = await rawTransaction(
      t.app.db.prisma,
      async (tx) => {
        await executeRows(tx, insertThread('rt-late'));
        await sleep(400);
        return executeRows(tx, insertThread('rt-later'));
      },
      { maxWaitMs: 5_000, timeoutMs: 100 },
    ).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('P2028');
    expect(await exists('rt-late')).toBe(false);
    expect(await exists('rt-later')).toBe(false);
  });

  it('gives up after maxWait while another transaction holds the connection, and frees it later', async () => {
    const prisma = t.app.db.prisma;
    const holder = prisma.$transaction(async (tx) => {
      await tx.$executeRaw(insertThread('rt-holder'));
      await sleep(600);
    });
    await sleep(50);
    const error = await rawTransaction(prisma, (tx) => executeRows(tx, insertThread('rt-waiter')), {
      maxWaitMs: 100,
      timeoutMs: 5_000,
    }).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('P2028');
    await holder;
    // The transaction granted after the wait ended was rolled back: the connection serves.
    await sleep(50);
    expect(await exists('rt-holder')).toBe(true);
    expect(await exists('rt-waiter')).toBe(false);
    const after = await rawTransaction(
      prisma,
      (tx) => executeRows(tx, insertThread('rt-after')),
      limits,
    );
    expect(after).toEqual({ result: 1 });
  });
});
