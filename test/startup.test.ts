/**
 * Start-up failures of the real processes (server, migrate, import): a bad DATABASE_URL, an
 * empty or invalid PORT, a port in use, Redis unreachable. Each is one line naming the setting
 * and what to do, exit code 1, no stack trace, no password.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, runToExit } from './testkit/process.js';
import { expectOneLine } from './testkit/startup.js';

const root = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'threadstore-startup-'));
const sqlite = `file:${join(dir, 'test.db')}`;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a bad setting stops the server with one line', () => {
  it('DATABASE_URL neither file: nor postgres:// (and no SQLite file named after it)', async () => {
    const result = await runToExit({ DATABASE_URL: 'postgres:/x' });
    expectOneLine(
      result,
      /^Configuration error: DATABASE_URL="postgres:\/x" is not valid: set it to file:<path>/,
    );
    expect(existsSync(join(root, 'postgres:'))).toBe(false);
  });

  it('never shows the password of a bad DATABASE_URL', async () => {
    const result = await runToExit({
      DATABASE_URL: 'postgresql://app:hunter2@db:99999/threadstore',
    });
    const line = expectOneLine(
      result,
      /DATABASE_URL="postgresql:\/\/app:\*\*\*@db:99999\/threadstore"/,
      'hunter2',
    );
    expect(line).not.toContain('hunter2');
  });

  it.each([
    ['DATABASE_URL', 'postgres:/app:hunter2@127.0.0.1:5432/x'],
    ['DATABASE_URL', 'postgres:app:hunter2@127.0.0.1:5432/x'],
    ['REDIS_URL', 'redis:/:hunter2@127.0.0.1:6379'],
  ])('never shows the password of a URL with slashes missing (%s=%s)', async (setting, url) => {
    const result = await runToExit({ DATABASE_URL: sqlite, [setting]: url });
    expectOneLine(result, new RegExp(`^Configuration error: ${setting}=".*\\*\\*\\*@`), 'hunter2');
  });

  it.each([
    ['a folder', () => `file:${tmpdir()}`, /it is a folder/],
    [
      'a file that is not a database',
      () => `file:${join(root, 'package.json')}`,
      /file is not a database/,
    ],
  ])('a SQLite path that cannot be a database: %s', async (_name, url, reason) => {
    const result = await runToExit({ DATABASE_URL: url() });
    expectOneLine(result, reason);
  });

  it.each([[''], ['abc'], ['70000']])('PORT=%j', async (port) => {
    const result = await runToExit({ DATABASE_URL: sqlite, PORT: port });
    expectOneLine(
      result,
      /^Configuration error: PORT="\w*" is not valid: set it to a port number from 0 to 65535/,
    );
  });

  it('a port already in use', async () => {
    const port = await freePort();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const result = await runToExit({
        DATABASE_URL: sqlite,
        PORT: String(port),
        HOST: '127.0.0.1',
      });
      expectOneLine(
        result,
        new RegExp(
          `^PORT: port ${port} on 127.0.0.1 is already in use: stop the other process or set PORT`,
        ),
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('Redis unreachable (REDIS_URL pointing at a closed port)', async () => {
    const port = await freePort();
    const result = await runToExit({
      DATABASE_URL: sqlite,
      REDIS_URL: `redis://:hunter2@127.0.0.1:${port}`,
    });
    expectOneLine(
      result,
      new RegExp(
        `^REDIS_URL: cannot reach Redis at 127.0.0.1:${port} \\(connection refused\\): check the host and port in REDIS_URL`,
      ),
      'hunter2',
    );
  });

  it('LOG_FORMAT=pretty reports the same failure as one readable line', async () => {
    const port = await freePort();
    const result = await runToExit({
      DATABASE_URL: sqlite,
      REDIS_URL: `redis://127.0.0.1:${port}`,
      LOG_FORMAT: 'pretty',
    });
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n').filter((line) => line.includes('FATAL'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/FATAL: REDIS_URL: cannot reach Redis/);
    expect(result.stdout + result.stderr).not.toMatch(/^\s+at /m);
  });
});

describe('npm run migrate and npm run import', () => {
  it('migrate with a bad DATABASE_URL', async () => {
    const result = await runToExit({ DATABASE_URL: 'postgres:/x' }, { script: 'src/migrate.ts' });
    expectOneLine(
      result,
      /^migrate failed: Configuration error: DATABASE_URL="postgres:\/x" is not valid/,
    );
  });

  it('import with a bad --database, and with a bad DATABASE_URL', async () => {
    const flag = await runToExit(
      {},
      { script: 'src/import/cli.ts', args: ['--database', 'mysql://u:hunter2@h/db', 'x.json'] },
    );
    expectOneLine(
      flag,
      /^--database="mysql:\/\/u:\*\*\*@h\/db" is not valid: expected file:<path>/,
      'hunter2',
    );
    const env = await runToExit(
      { DATABASE_URL: 'postgres:/x' },
      { script: 'src/import/cli.ts', args: ['x.json'] },
    );
    expectOneLine(env, /^Configuration error: DATABASE_URL="postgres:\/x" is not valid/);
  });
});
