/**
 * PostgreSQL start-up failures of the real server and `npm run migrate`: unreachable
 * (connection refused, no answer), and refusing (no such database, no such role). Each is one
 * line naming DATABASE_URL and what to do, exit code 1, no stack trace, no password; and the
 * start-up line of a healthy server shows DATABASE_URL without its password.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testPostgresUrl } from './testkit/database.js';
import { freePort, runToExit, startServer } from './testkit/process.js';
import { expectOneLine } from './testkit/startup.js';

/** The test server's URL with a user, password and database of our choosing. */
function postgresUrl(parts: {
  user?: string;
  password?: string;
  database?: string;
  port?: number;
}): string {
  const url = new URL(testPostgresUrl);
  if (parts.user) url.username = parts.user;
  if (parts.password) url.password = parts.password;
  if (parts.database) url.pathname = `/${parts.database}`;
  if (parts.port) url.port = String(parts.port);
  return url.toString();
}

const sockets = new Set<Socket>();
let silent: Server | null = null;
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => (silent ? silent.close(resolve) : resolve(undefined)));
});

describe('PostgreSQL unreachable or refusing stops the server with one line', () => {
  it('connection refused', async () => {
    const port = await freePort();
    const result = await runToExit({ DATABASE_URL: postgresUrl({ password: 'hunter2', port }) });
    expectOneLine(
      result,
      new RegExp(
        `^DATABASE_URL: cannot reach PostgreSQL at 127.0.0.1:${port} \\(connection refused\\): check the host and port`,
      ),
      'hunter2',
    );
  });

  it('no answer within the connect timeout', async () => {
    const port = await freePort();
    // Accepts connections and never answers, like a firewall that drops packets.
    silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent!.listen(port, '127.0.0.1', resolve));
    const result = await runToExit({ DATABASE_URL: postgresUrl({ password: 'hunter2', port }) });
    expectOneLine(
      result,
      /^DATABASE_URL: cannot reach PostgreSQL at 127.0.0.1:\d+ \(.*timeout.*\)/,
      'hunter2',
    );
  });

  it('the database does not exist', async () => {
    const result = await runToExit({
      DATABASE_URL: postgresUrl({ password: 'hunter2', database: 'threadstore_no_such_db' }),
    });
    expectOneLine(
      result,
      /^DATABASE_URL: PostgreSQL at [\w.]+:\d+ has no database "threadstore_no_such_db": create it \(createdb threadstore_no_such_db\)/,
      'hunter2',
    );
  });

  it('the role does not exist', async () => {
    const result = await runToExit({
      DATABASE_URL: postgresUrl({ user: 'threadstore_no_such_role', password: 'hunter2' }),
    });
    expectOneLine(
      result,
      /^DATABASE_URL: PostgreSQL at [\w.]+:\d+ refused the login \(role "threadstore_no_such_role" does not exist\): check the user and password/,
      'hunter2',
    );
  });

  it('npm run migrate and npm run import say the same, as one line', async () => {
    const port = await freePort();
    const url = postgresUrl({ password: 'hunter2', port });
    const migrate = await runToExit({ DATABASE_URL: url }, { script: 'src/migrate.ts' });
    expectOneLine(
      migrate,
      /^migrate failed: DATABASE_URL: cannot reach PostgreSQL at 127.0.0.1:\d+ \(connection refused\)/,
      'hunter2',
    );
    const flag = await runToExit(
      {},
      { script: 'src/import/cli.ts', args: ['--database', url, 'x.json'] },
    );
    expectOneLine(
      flag,
      /^--database: cannot reach PostgreSQL at 127.0.0.1:\d+ \(connection refused\): check the host and port in --database/,
      'hunter2',
    );
  });
});

describe('a healthy start', () => {
  it('logs the database URL without its password, with the version and commit', async () => {
    // Trust authentication ignores the password: the server starts, and must not print it.
    const database = await createTestDatabase();
    const url = new URL(database.url);
    url.password = 'hunter2';
    const server = await startServer({ DATABASE_URL: url.toString() });
    try {
      const output = server.output();
      expect(output).not.toContain('hunter2');
      const start = output
        .split('\n')
        .map((line) => (line.startsWith('{') ? (JSON.parse(line) as Record<string, unknown>) : {}))
        .find((log) => String(log.msg).startsWith('threadstore '));
      expect(start?.database).toMatch(/^postgres(ql)?:\/\/[^:]+:\*\*\*@/);
      expect(start?.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(start?.commit).toMatch(/^([0-9a-f]{40}|unknown)$/);
      expect(String(start?.msg)).toContain(`threadstore ${start?.version} (`);
    } finally {
      server.kill();
      await server.exited;
      await database.drop();
    }
  });
});
