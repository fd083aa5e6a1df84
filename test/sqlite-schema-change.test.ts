/**
 * A schema change made by another connection on the same SQLite file (a migration run by a
 * newer server or `npm run migrate` while this one serves) must not misname columns: a
 * statement prepared on the connection's stale copy of the schema reports the old columns
 * while its rows have the new layout (src/db/sqlite.ts reloads the schema when PRAGMA
 * schema_version moves). SQLite only.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { testProvider } from './testkit/database.js';

const READ = 'query Read($id: ID!) { thread(id: $id) { id agentId name nextSeq } }';

describe.skipIf(testProvider !== 'sqlite')('a schema change by another connection', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reads rows under their own column names right after the change', async () => {
    await t.execute(
      'mutation { createThread(input: { id: "sc-1", agentId: "agent-A", name: "Name-N" }) { thread { id } } }',
    );
    const expected = { id: 'sc-1', agentId: 'agent-A', name: 'Name-N', nextSeq: 0 };
    // Read once so the statement is prepared (and cached) on the old schema.
    expect(await t.execute(READ, { id: 'sc-1' })).toEqual({ thread: expected });

    // Another connection redefines "Thread" with its columns in reverse order, as Prisma's
    // SQLite migrations redefine tables (create, copy, drop, rename).
    const other = new Database(t.url.replace(/^file:/, ''));
    try {
      const columns = other
        .prepare(`SELECT name FROM pragma_table_info('Thread')`)
        .pluck()
        .all() as string[];
      const reversed = [...columns].reverse().map((c) => `"${c}"`);
      other.exec(`CREATE TABLE "Thread_new" AS SELECT ${reversed.join(', ')} FROM "Thread";
        DROP TABLE "Thread"; ALTER TABLE "Thread_new" RENAME TO "Thread";`);
    } finally {
      other.close();
    }

    expect(await t.execute(READ, { id: 'sc-1' })).toEqual({ thread: expected });
    expect(await t.execute(READ, { id: 'sc-1' })).toEqual({ thread: expected });
  });
});
