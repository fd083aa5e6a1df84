/**
 * The thread browser shows a thread's lineage (issue 14, point 1), in headless Chromium
 * (playwright-core driving /usr/bin/chromium) against the app on a port: a source lists its
 * forks newest first (with "More forks" past the first page), a fork says "Forked from <link>
 * at seq N" and the link opens the source at that item, and a fork of a deleted source names
 * the source's id as deleted. Screenshots go to test/screenshots/.
 *
 * SQLite project only (vitest.config.ts), as test/ui.test.ts: forks on PostgreSQL are checked
 * through the API by test/forks.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated/gql.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { root } from './testkit/process.js';
import { appendMessages, createThread } from './testkit/seed.js';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(root, 'test', 'screenshots');
/** An upper bound for a page to show what it should (a failure, not a measurement). */
const WAIT = 30_000;

const FORK = graphql(`
  mutation UiForksFork($input: ForkThreadInput!) {
    forkThread(input: $input) {
      thread {
        id
      }
    }
  }
`);

const DELETE = graphql(`
  mutation UiForksDelete($input: DeleteThreadInput!) {
    deleteThread(input: $input) {
      deletedThreadId
    }
  }
`);

/** The newest mtime of the files under `dir` (0 when there are none). */
function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const info = statSync(path);
    latest = Math.max(latest, info.isDirectory() ? newest(path) : info.mtimeMs);
  }
  return latest;
}

/** Builds ui/dist unless it is newer than every source of the app (CI built it already). */
function ensureBuilt(): void {
  const index = join(root, 'ui', 'dist', 'index.html');
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  const sources = Math.max(
    newest(join(root, 'ui', 'src')),
    newest(join(root, 'client', 'src')),
    statSync(join(root, 'ui', 'index.html')).mtimeMs,
  );
  if (built > sources) return;
  execFileSync(process.execPath, [join(root, 'scripts', 'build-ui.mjs')], {
    cwd: root,
    stdio: 'ignore',
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!existsSync(CHROMIUM))('thread browser: forks (Chromium)', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ensureBuilt();
    t = await buildTestApp({ HOST: '127.0.0.1' });
    base = `http://127.0.0.1:${await t.app.start(0)}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Uncaught errors of the app's pages: none is expected. */
  const pageErrors: string[] = [];
  afterEach(() => {
    expect(pageErrors).toEqual([]);
  });

  async function open(path: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
    await page.goto(`${base}${path}`);
    return page;
  }

  async function fork(threadId: string, atSeq: number, name?: string): Promise<string> {
    const data = await t.execute(FORK, { input: { threadId, atSeq, name } });
    await sleep(3); // distinct createdAt: the list order is the time
    return data.forkThread.thread.id;
  }

  it('lists a thread’s forks newest first and links a fork to its origin at the seq', async () => {
    const source = await createThread(t, { name: 'Origin thread' });
    await appendMessages(t, source, 6);
    const first = await fork(source, 2, 'Fork one');
    const second = await fork(source, 4, 'Fork two');

    const page = await open(`/ui/threads/${source}`);
    const forks = page.getByRole('region', { name: /Forks/ });
    await forks.waitFor({ timeout: WAIT });
    expect(await forks.getByRole('heading').textContent()).toBe('Forks (2)');
    const rows = forks.getByRole('listitem');
    expect(await rows.allTextContents()).toEqual([
      expect.stringMatching(/^Fork two at seq 4 · 5 items · /),
      expect.stringMatching(/^Fork one at seq 2 · 3 items · /),
    ]);
    expect(await page.getByText('Forked from').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'forks-source.png') });

    await forks.getByRole('link', { name: 'Fork one' }).click();
    await page.waitForURL(`**/ui/threads/${first}`, { timeout: WAIT });
    const origin = page.locator('.lineage.origin');
    await origin.waitFor({ timeout: WAIT });
    expect(await origin.textContent()).toBe('Forked from Origin thread at seq 2');
    const link = origin.getByRole('link', { name: 'Origin thread' });
    expect(await link.getAttribute('href')).toBe(`/ui/threads/${source}?seq=2`);
    // The fork has no forks of its own: no list.
    expect(await page.getByRole('region', { name: /Forks/ }).count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'forks-fork.png') });

    // The origin link opens the source on the item the fork was made at.
    await link.click();
    await page.waitForURL(`**/ui/threads/${source}?seq=2`, { timeout: WAIT });
    await page.getByRole('region', { name: /Forks/ }).waitFor({ timeout: WAIT });
    expect(second).not.toBe(first);
    await page.close();
  });

  it('pages in more forks, and names a deleted source by its id', async () => {
    const source = await createThread(t, { name: 'Many forks' });
    await appendMessages(t, source, 2);
    const made: string[] = [];
    for (let n = 0; n < 22; n++) made.push(await fork(source, n % 2, `F${n}`));
    const page = await open(`/ui/threads/${source}`);
    const forks = page.getByRole('region', { name: /Forks/ });
    await forks.waitFor({ timeout: WAIT });
    expect(await forks.getByRole('heading').textContent()).toBe('Forks (22)');
    expect(await forks.getByRole('listitem').count()).toBe(20);
    await forks.getByRole('button', { name: 'More forks' }).click();
    await page.waitForFunction(
      () => document.querySelectorAll('.fork-list li').length === 22,
      null,
      {
        timeout: WAIT,
      },
    );
    expect(await forks.getByRole('link').allTextContents()).toEqual(
      made.map((_, n) => `F${n}`).reverse(),
    );
    expect(await forks.getByRole('button', { name: 'More forks' }).count()).toBe(0);
    await page.close();

    await t.execute(DELETE, { input: { id: source } });
    const orphan = await open(`/ui/threads/${made[0]}`);
    const origin = orphan.locator('.lineage.origin');
    await origin.waitFor({ timeout: WAIT });
    expect(await origin.textContent()).toBe(`Forked from ${source} deleted at seq 0`);
    expect(await origin.getByRole('link').count()).toBe(0);
    await orphan.screenshot({ path: join(SHOTS, 'forks-deleted-source.png') });
    await orphan.close();
  });
});
