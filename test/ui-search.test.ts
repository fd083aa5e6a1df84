/**
 * The thread browser's item search (ui/src/ItemSearch.tsx) in headless Chromium against a real
 * server process: typing a query shows results best first with their snippets (matches marked,
 * stored HTML shown as text, never as markup), the list's archived filter applies, and a result
 * opens its thread at the item. Screenshot: test/screenshots/item-search.png.
 *
 * SQLite project only (vitest.config.ts), as test/ui.test.ts: the search itself is checked on
 * both databases by test/search.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated/gql.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { root, type ServerProcess, startServer } from './testkit/process.js';
import { append, createThread, message } from './testkit/seed.js';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(root, 'test', 'screenshots');
const WAIT = 30_000;

const ARCHIVE = graphql(`
  mutation UiSearchTestArchive($input: UpdateThreadInput!) {
    updateThread(input: $input) {
      thread {
        archived
      }
    }
  }
`);

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

/** Builds ui/dist unless it is newer than every source of the app. */
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

describe.skipIf(!existsSync(CHROMIUM))('item search in the thread browser (Chromium)', () => {
  let t: TestApp;
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let mainId: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ensureBuilt();
    t = await buildTestApp();
    mainId = await createThread(t, { id: 'search-main', agentId: 'ui', name: 'Deploy notes' });
    const filler = Array.from({ length: 30 }, (_, i) => message(`filler line ${i}`));
    await append(t, mainId, [
      ...filler,
      message('The <b>kingfisher</b> deploy failed at 03:00', 'assistant'),
      message('kingfisher kingfisher: rolled back'),
    ]);
    const other = await createThread(t, { id: 'search-old', agentId: 'ui', name: 'Old thread' });
    await append(t, other, [message('an archived kingfisher')]);
    await t.execute(ARCHIVE, { input: { id: other, archived: true } });
    server = await startServer({ DATABASE_URL: t.url, LOG_LEVEL: 'warn' });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await t?.close();
  });

  afterEach(() => {
    expect(pageErrors).toEqual([]);
  });

  async function open(path: string): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
    await page.goto(`${server.url}${path}`);
    return page;
  }

  it('finds items, marks matches, shows stored HTML as text and opens the item', async () => {
    const page = await open('/ui/');
    await page.getByLabel('Search items').fill('kingfisher');
    const hits = page.locator('.hit');
    await hits.nth(1).waitFor({ timeout: WAIT });
    // The archived thread's item is left out; best match (two mentions) first.
    expect(await hits.count()).toBe(2);
    const snippets = await page.$$eval('.hit .snippet', (ps) => ps.map((p) => p.innerHTML));
    expect(snippets[0]).toBe('<mark>kingfisher</mark> <mark>kingfisher</mark>: rolled back');
    expect(snippets[1]).toBe(
      'The &lt;b&gt;<mark>kingfisher</mark>&lt;/b&gt; deploy failed at 03:00',
    );
    expect(await page.locator('.hit .snippet b').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'item-search.png') });

    // The list's "Show archived" applies to the search as well.
    await page.getByLabel('Show archived').check();
    await hits.nth(2).waitFor({ timeout: WAIT });
    expect(await hits.count()).toBe(3);
    await page.getByLabel('Show archived').uncheck();
    await page.waitForFunction(() => document.querySelectorAll('.hit').length === 2, null, {
      timeout: WAIT,
    });

    // A result opens its thread at the item.
    await page.locator('.hit-link').nth(1).click();
    await page.waitForURL(/\/ui\/threads\/search-main\?seq=30$/, { timeout: WAIT });
    await page.locator('#item-30').waitFor({ timeout: WAIT });
    await page.waitForFunction(() => document.activeElement?.id === 'item-30', null, {
      timeout: WAIT,
    });
    await page.close();
  });

  it('a query with nothing to match shows no results and no error', async () => {
    const page = await open('/ui/');
    await page.getByLabel('Search items').fill('"-* OR');
    await page.getByText('0 results').waitFor({ timeout: WAIT });
    expect(await page.locator('[role=alert]').count()).toBe(0);
    await page.close();
  });
});
