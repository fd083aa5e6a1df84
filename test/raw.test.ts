/**
 * Raw statements sent to the driver adapter directly (src/db/raw.ts) must return what Prisma's
 * `$queryRaw` returns for the same statement: the same keys, values and types (bigint, Date,
 * parsed JSON, null), with the same parameters (strings, numbers, bigint, Date, lists, null);
 * count as statements; fail with errors the availability rules still recognise; and leave
 * transactions on Prisma's path. On both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../src/db/errors.js';
import { queryRows } from '../src/db/raw.js';
import { dependencyFailure } from '../src/db/unavailable.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { buildTestApp, type TestApp } from './testkit/app.js';

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
