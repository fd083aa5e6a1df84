/**
 * The thread browser (/ui) in headless Chromium (playwright-core driving /usr/bin/chromium;
 * .ci/run installs Debian's chromium when it is missing) against real server processes on
 * one SQLite file: the fixture transcripts imported with `npm run import`, a thread of 100k
 * items, live appends, a server restart, the list's actions, keyboard use, a phone-sized
 * screen, and sign-in under AUTH=required. Screenshots of each view go to test/screenshots/.
 *
 * SQLite project only (vitest.config.ts): the browser reaches the database only through the
 * GraphQL API and graphql-ws, whose behaviour on PostgreSQL (paging, live resume across a
 * restart, auth) the API and client tests check on both databases; a second Chromium run
 * would repeat the same pages at twice the cost on a shared machine.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { insertItems, type PreparedItem } from '../src/items/item.store.js';
import { graphql } from './generated/gql.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { root, runToExit, type ServerProcess, startServer } from './testkit/process.js';
import { append, createThread } from './testkit/seed.js';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(root, 'test', 'screenshots');
const FIXTURES = join(root, '..', 'shared', 'fixtures');
const BIG = 100_000;
/** An upper bound for a page to show what it should (a failure, not a measurement). */
const WAIT = 30_000;

const APPEND = graphql(`
  mutation UiTestAppend($input: AppendItemsInput!) {
    appendItems(input: $input) {
      thread {
        nextSeq
      }
    }
  }
`);

const THREAD = graphql(`
  query UiTestThread($id: ID!) {
    thread(id: $id) {
      id
      name
      archived
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

/** The seqs shown in the log (a paired tool result counts with its own seq), in page order. */
function seqsShown(page: Page): Promise<number[]> {
  return page.$$eval('.items [data-seq]', (elements) =>
    elements.map((e) => Number((e as HTMLElement).dataset.seq)),
  );
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
}

describe.skipIf(!existsSync(CHROMIUM))('thread browser (Chromium)', () => {
  let t: TestApp;
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let imported: string[];
  let bigId: string;
  const env = () => ({ DATABASE_URL: t.url, LOG_LEVEL: 'warn' });

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ensureBuilt();
    // The in-process app writes as "another process" (the big thread, appends while the
    // server is down); the server process serves the browser.
    t = await buildTestApp();
    const run = await runToExit(
      { DATABASE_URL: t.url },
      {
        script: 'src/import/cli.ts',
        args: [
          join(FIXTURES, 'openai-chat', 'tau-bench-gpt-4o-airline-sample.json'),
          join(FIXTURES, 'anthropic', 'claude-code-transcript-python-to-rust-port.jsonl'),
          join(FIXTURES, 'trajectories', 'swe-agent-marshmallow-1867-function-calling.traj'),
        ],
        timeoutMs: 120_000,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    imported = (run.stdout.trim().split('\n').at(-1) ?? '')
      .replace('created threads: ', '')
      .split(' ');
    expect(imported.length).toBeGreaterThan(3);

    // 100k items written straight through the item store (2,000 a transaction): the API's
    // 500-item appends would take minutes on a shared machine.
    bigId = await createThread(t, {
      id: 'big-thread',
      agentId: 'bulk',
      name: 'A 100k-item thread',
    });
    const filler = 'lorem ipsum '.repeat(8);
    const item = (seq: number): PreparedItem => ({
      type: 'message',
      status: 'COMPLETED',
      responseId: null,
      createdBy: null,
      createdAt: null,
      callId: null,
      dataJson: JSON.stringify({
        role: seq % 2 ? 'assistant' : 'user',
        content: `Message **${seq}**: ${filler}`,
      }),
      rawJson: null,
      rawFormat: null,
    });
    const db = t.app.db.prisma;
    const now = new Date();
    for (let start = 0; start < BIG; start += 2_000) {
      const batch = Array.from({ length: Math.min(2_000, BIG - start) }, (_, i) => item(start + i));
      await db.$transaction(async (tx) => {
        await insertItems(tx as never, 'local', bigId, start, batch, now);
      });
    }
    await db.$executeRaw`UPDATE "Thread" SET "nextSeq" = ${BIG}, "itemCount" = ${BIG} WHERE "tenantId" = 'local' AND "id" = ${bigId}`;

    server = await startServer(env());
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
    context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await t?.close();
  });

  /** Uncaught errors of the app's pages: none is expected. */
  const pageErrors: string[] = [];
  afterEach(() => {
    expect(pageErrors).toEqual([]);
  });

  async function open(path: string, on: BrowserContext = context): Promise<Page> {
    const page = await on.newPage();
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
    await page.goto(`${server.url}${path}`);
    return page;
  }

  it('lists the imported fixture threads, newest first, without sign-in on loopback', async () => {
    const page = await open('/ui/');
    await page.locator('.thread').first().waitFor({ timeout: WAIT });
    await page.getByText('No sign-in needed (tenant local)').waitFor({ timeout: WAIT });
    const shown = await page.$$eval('.thread', (rows) =>
      rows.map((r) => (r as HTMLElement).dataset.threadId),
    );
    for (const id of imported) expect(shown).toContain(id);
    expect(shown[0]).toBe(bigId);
    await page.locator('.live-live').first().waitFor({ timeout: WAIT });
    await shot(page, 'thread-list');

    // An imported Claude Code session: its newest page, tool calls opened.
    await page.locator('a.thread-link', { hasText: 'claude-code' }).click();
    await page.locator('.items').waitFor({ timeout: WAIT });
    await page.locator('.log .live-live').waitFor({ timeout: WAIT });
    await page.evaluate(() => {
      for (const d of document.querySelectorAll<HTMLDetailsElement>('details.tool')) d.open = true;
      window.scrollTo(0, document.documentElement.scrollHeight);
    });
    await shot(page, 'imported-thread');
    await page.close();
  });

  it('moves a thread appended to elsewhere to the top, and shows a new one, without a reload', async () => {
    const page = await open('/ui/');
    await page.locator('.live-live').first().waitFor({ timeout: WAIT });
    await page.evaluate(() => {
      (window as unknown as { marker: number }).marker = 42;
    });
    const oldest = imported[0]!;
    expect(await page.locator('.thread').first().getAttribute('data-thread-id')).not.toBe(oldest);
    await server.graphql(APPEND, {
      input: {
        threadId: oldest,
        items: [{ message: { role: 'user', content: 'One more question' } }],
      },
    });
    await page.waitForFunction(
      (id) => document.querySelector('.thread')?.getAttribute('data-thread-id') === id,
      oldest,
      { timeout: WAIT },
    );
    await expect(page.locator('.thread').first().locator('.preview').textContent()).resolves.toBe(
      'user: One more question',
    );
    // Created by another process (the in-process app), reaching the server through the file.
    const fresh = await createThread(t, { agentId: 'elsewhere', name: 'Created elsewhere' });
    await page.waitForFunction(
      (id) => document.querySelector('.thread')?.getAttribute('data-thread-id') === id,
      fresh,
      { timeout: WAIT },
    );
    expect(await page.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(42);
    await page.close();
  });

  it('renders every item type for people, with token usage and the model context', async () => {
    const id = await createThread(t, {
      id: 'showcase',
      agentId: 'support-bot',
      name: 'Refund for order 1234',
    });
    await append(t, id, [
      {
        message: {
          role: 'user',
          content: 'Where is my **refund** for order `1234`?',
        },
      },
      { reasoning: { text: 'The user asks about a refund; look the order up.' } },
      {
        responseId: 'r1',
        toolCall: { callId: 'c1', name: 'get_order', arguments: { orderId: '1234' } },
      },
      {
        toolResult: {
          callId: 'c1',
          name: 'get_order',
          output: { status: 'refunded', amount: 42.5 },
        },
      },
      { toolCall: { callId: 'c2', name: 'send_email', arguments: { to: 'c-42' } } },
      { toolResult: { callId: 'c2', name: 'send_email', output: 'SMTP timeout', isError: true } },
      { error: { reason: 'The mail server did not answer.', code: 'SMTP_TIMEOUT' } },
      {
        responseId: 'r2',
        message: {
          role: 'assistant',
          content:
            'Your refund of **$42.50** was issued yesterday.\n\n- order: 1234\n- status: refunded',
          usage: { inputTokens: 1200, outputTokens: 34, totalTokens: 1234 },
        },
      },
      { resourceEvent: { kind: 'session_started', payload: { host: 'laptop' } } },
      { slashCommand: { command: 'compact', args: '--keep 2' } },
      { terminal: { stream: 'stdout', text: '$ ls\nREADME.md' } },
      { other: { type: 'screen_share', data: { frames: 3 } } },
    ]);
    await t.execute(
      `mutation { addCompaction(input: {threadId: "showcase", startSeq: 0, endSeq: 3, summary: "User asked about the refund; get_order says refunded (42.50)."}) { marker { seq } } }`,
    );
    // Markdown with raw HTML left out (shown as text) and a javascript: link neutralised.
    const hostile = await createThread(t, { id: 'hostile-markdown', agentId: 'support-bot' });
    await append(t, hostile, [
      {
        message: {
          role: 'user',
          content:
            'A **bold** request\n\n<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">\n\n[click](javascript:window.pwned=3)',
        },
      },
    ]);
    const page = await open('/ui/threads/hostile-markdown');
    const message = page.locator('#item-0');
    await message.waitFor({ timeout: WAIT });
    await expect(message.locator('.markdown strong').textContent()).resolves.toBe('bold');
    expect(await message.locator('.markdown script, .markdown img').count()).toBe(0);
    expect(await message.locator('.markdown a').getAttribute('href')).not.toMatch(/^javascript:/);
    await message.locator('.markdown a').click();
    expect(
      await page.evaluate(() => (window as unknown as { pwned?: number }).pwned),
    ).toBeUndefined();

    await page.goto(`${server.url}/ui/threads/showcase`);
    await page.locator('#item-12').waitFor({ timeout: WAIT });
    const first = page.locator('#item-0');
    await expect(first.locator('.markdown strong').textContent()).resolves.toBe('refund');
    await expect(first.locator('.markdown code').textContent()).resolves.toBe('1234');
    // Reasoning collapsed; a tool call with its result in one block, collapsed, JSON inside.
    expect(
      await page.locator('#item-1 details').evaluate((d) => (d as HTMLDetailsElement).open),
    ).toBe(false);
    const call = page.locator('#item-2');
    await expect(call.locator('summary').textContent()).resolves.toContain('get_order');
    expect(await call.locator('#item-3').count()).toBe(1);
    await call.locator('summary').click();
    await expect(call.locator('pre.json').first().textContent()).resolves.toBe(
      '{\n  "orderId": "1234"\n}',
    );
    await expect(call.locator('#item-3 pre.json').textContent()).resolves.toContain(
      '"status": "refunded"',
    );
    // Failures highlighted: the failed tool pair and the error item.
    expect(await page.locator('#item-4').getAttribute('class')).toContain('failed');
    expect(await page.locator('#item-6').getAttribute('class')).toContain('failed');
    await page.locator('#item-4 summary').click();
    await expect(page.locator('#item-5 pre').textContent()).resolves.toBe('SMTP timeout');
    await expect(page.locator('#item-6 .error-reason').textContent()).resolves.toBe(
      'The mail server did not answer.',
    );
    // Token usage on the message and in the header.
    await expect(page.locator('#item-7 .usage').textContent()).resolves.toBe(
      'tokens: 1200 in · 34 out · 1234 total',
    );
    await expect(page.locator('.facts').textContent()).resolves.toContain('1200 in · 34 out');
    // Other types as JSON; the compaction marker with its summary and range.
    await expect(page.locator('#item-11 pre.json').textContent()).resolves.toBe(
      '{\n  "frames": 3\n}',
    );
    await expect(page.locator('#item-12').textContent()).resolves.toContain('items 0–3');
    await expect(page.locator('#item-12 .markdown').textContent()).resolves.toContain(
      'get_order says refunded',
    );
    await shot(page, 'thread-view', true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'thread-view-top');

    await page.getByRole('tab', { name: 'Context' }).click();
    const context = page.locator('.context-json');
    await context.waitFor({ timeout: WAIT });
    await expect(context.textContent()).resolves.toContain(
      '[threadstore compaction summary of items 0-3',
    );
    await page.getByLabel('Format').selectOption('ANTHROPIC_MESSAGES');
    await page.waitForFunction(
      () => document.querySelector('.context-json')?.textContent?.includes('"tool_use"'),
      undefined,
      {
        timeout: WAIT,
      },
    );
    await shot(page, 'thread-context');
    await page.close();
  });

  it('shows appended items live and resumes after a server restart with no gap or duplicate', async () => {
    const id = await createThread(t, { id: 'live-tail', agentId: 'tail' });
    const say = (n: number) => ({
      message: { role: n % 2 ? 'assistant' : 'user', content: `line ${n}` },
    });
    await append(t, id, range(0, 4).map(say));
    const page = await open('/ui/threads/live-tail');
    await page.locator('.log .live-live').waitFor({ timeout: WAIT });
    await page.evaluate(() => {
      (window as unknown as { marker: number }).marker = 7;
    });
    await server.graphql(APPEND, { input: { threadId: id, items: range(5, 7).map(say) } });
    await page.locator('#item-7').waitFor({ timeout: WAIT });

    // Every text the live line shows from here on: while the server is away it says so.
    await page.evaluate(() => {
      const line = document.querySelector('.log .live')!;
      const texts: string[] = [];
      (window as unknown as { liveTexts: string[] }).liveTexts = texts;
      new MutationObserver(() => texts.push(line.textContent ?? '')).observe(line, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    const port = server.port;
    await server.stop();
    await page.locator('.log .live-retrying').waitFor({ timeout: WAIT });
    // Written while the server is down, by another process on the same file.
    await append(t, id, range(8, 11).map(say));
    server = await startServer(env(), { port });
    await server.graphql(APPEND, { input: { threadId: id, items: range(12, 13).map(say) } });
    await page.locator('#item-13').waitFor({ timeout: WAIT });
    await page.locator('.log .live-live').waitFor({ timeout: WAIT });
    expect(await seqsShown(page)).toEqual(range(0, 13));
    expect(await page.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(7);
    const texts = await page.evaluate(
      () => (window as unknown as { liveTexts: string[] }).liveTexts,
    );
    expect(texts).toContain('Reconnecting…');
    expect(texts).not.toContain('Connecting…');
    expect(texts.at(-1)).toBe('Live: new items appear as they are appended.');
    await shot(page, 'live-tail');
    await page.close();
  });

  it('opens a deep link on its item in a 100k-item thread, loading pages around it', async () => {
    const target = 54_321;
    const page = await open(`/ui/threads/${bigId}?seq=${target}`);
    const item = page.locator(`#item-${target}`);
    await item.waitFor({ timeout: WAIT });
    await page.waitForFunction((id) => document.activeElement?.id === id, `item-${target}`, {
      timeout: WAIT,
    });
    const box = await item.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(800);
    const first = await seqsShown(page);
    expect(first.length).toBeLessThanOrEqual(100);
    expect(first).toContain(target);
    expect(first).toEqual(range(first[0]!, first.at(-1)!));
    await shot(page, 'deep-link');

    // Older items above when scrolled to the top, newer ones below at the bottom: in order.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(
      (min) => Number(document.querySelector('.items [data-seq]')?.getAttribute('data-seq')) < min,
      first[0]!,
      { timeout: WAIT },
    );
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForFunction(
      (max) => {
        const all = document.querySelectorAll('.items [data-seq]');
        return Number(all[all.length - 1]?.getAttribute('data-seq')) > max;
      },
      first.at(-1)!,
      { timeout: WAIT },
    );
    const after = await seqsShown(page);
    expect(after).toEqual(range(after[0]!, after.at(-1)!));
    expect(after.length).toBeLessThan(500);
    await page.close();
  });

  it('opens a deep link past the end of the 100k-item thread on its newest page, live from its end', async () => {
    const target = BIG + 30;
    const page = await open(`/ui/threads/${bigId}?seq=${target}`);
    await page
      .getByText(`Item ${target} is not in this thread`, { exact: false })
      .waitFor({ timeout: WAIT });
    await page.locator('.log .live-live').waitFor({ timeout: WAIT });
    // The newest page only: no replay of the thread from #0.
    expect(await seqsShown(page)).toEqual(range(BIG - 50, BIG - 1));
    await server.graphql(APPEND, {
      input: { threadId: bigId, items: [{ message: { role: 'user', content: 'After the end' } }] },
    });
    await page.locator(`#item-${BIG}`).waitFor({ timeout: WAIT });
    const shown = await seqsShown(page);
    expect(shown.length).toBeLessThanOrEqual(100);
    expect(shown).toEqual(range(BIG - 50, BIG));
    await page.close();
  });

  it('searches by name, filters by agent, and pages in more threads as the list scrolls', async () => {
    for (let n = 1; n <= 35; n++) {
      await createThread(t, { id: `pager-${n}`, agentId: 'pager', name: `Pager ${n}` });
    }
    const page = await open('/ui/');
    await page.locator('.thread').first().waitFor({ timeout: WAIT });
    await page.getByLabel('Agent').fill('pager');
    await page.getByText('35 threads').waitFor({ timeout: WAIT });
    await page.waitForFunction(
      () => document.querySelectorAll('.thread').length === 30,
      undefined,
      {
        timeout: WAIT,
      },
    );
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForFunction(
      () => document.querySelectorAll('.thread').length === 35,
      undefined,
      {
        timeout: WAIT,
      },
    );
    const ids = await page.$$eval('.thread', (rows) =>
      rows.map((r) => (r as HTMLElement).dataset.threadId),
    );
    expect(new Set(ids).size).toBe(35);
    expect(ids.every((id) => id?.startsWith('pager-'))).toBe(true);

    await page.getByLabel('Search by name').fill('PAGER 1');
    await page.getByText('11 threads').waitFor({ timeout: WAIT });
    const names = await page.$$eval('.thread-name', (els) => els.map((e) => e.textContent));
    expect(names.sort()).toEqual(['Pager 1', ...range(10, 19).map((n) => `Pager ${n}`)].sort());
    await page.close();
  });

  it('renames, archives and deletes a thread (after confirming) from the list', async () => {
    const id = await createThread(t, { id: 'to-manage', agentId: 'manage', name: 'Old name' });
    const page = await open('/ui/');
    const row = page.locator('.thread[data-thread-id="to-manage"]');
    await row.waitFor({ timeout: WAIT });

    await row.getByRole('button', { name: 'Rename Old name' }).click();
    const field = row.getByLabel('New name for to-manage');
    await field.fill('New name');
    await field.press('Enter');
    await row.locator('.thread-name', { hasText: 'New name' }).waitFor({ timeout: WAIT });
    expect((await server.graphql(THREAD, { id })).data?.thread?.name).toBe('New name');

    await row.getByRole('button', { name: 'Archive New name' }).click();
    await row.waitFor({ state: 'detached', timeout: WAIT });
    expect((await server.graphql(THREAD, { id })).data?.thread?.archived).toBe(true);
    await page.getByLabel('Show archived').check();
    await row.locator('.badge', { hasText: 'archived' }).waitFor({ timeout: WAIT });

    await row.getByRole('button', { name: 'Delete New name' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor({ timeout: WAIT });
    await shot(page, 'delete-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached', timeout: WAIT });
    expect((await server.graphql(THREAD, { id })).data?.thread).not.toBeNull();
    await row.getByRole('button', { name: 'Delete New name' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete thread' }).click();
    await row.waitFor({ state: 'detached', timeout: WAIT });
    expect((await server.graphql(THREAD, { id })).data?.thread).toBeNull();
    await page.close();
  });

  it('keeps the count right: an archived row leaves it, a live thread outside the filter does not join it', async () => {
    await createThread(t, { id: 'count-a', agentId: 'counting', name: 'Count A' });
    await createThread(t, { id: 'count-b', agentId: 'counting', name: 'Count B' });
    await createThread(t, { id: 'count-other', agentId: 'counting', name: 'Other' });
    const page = await open('/ui/');
    const count = page.locator('.count');
    await page.locator('.thread').first().waitFor({ timeout: WAIT });
    await page.getByLabel('Agent', { exact: true }).fill('counting');
    await page.getByLabel('Search by name', { exact: true }).fill('count');
    // Both filters applied (the agent alone lists 3), then the live list of those filters.
    await page.getByText('2 threads', { exact: true }).waitFor({ timeout: WAIT });
    await page.locator('.heading .live-live').waitFor({ timeout: WAIT });

    // Created elsewhere: one the filters leave out, then one they show.
    await createThread(t, { id: 'count-other-2', agentId: 'counting', name: 'Other 2' });
    await createThread(t, { id: 'count-c', agentId: 'counting', name: 'Count C' });
    await page.locator('.thread[data-thread-id="count-c"]').waitFor({ timeout: WAIT });
    expect(await count.textContent()).toBe('3 threads');

    // Archived while archived threads are hidden: the row and its count go.
    const row = page.locator('.thread[data-thread-id="count-a"]');
    await row.getByRole('button', { name: 'Archive Count A' }).click();
    await row.waitFor({ state: 'detached', timeout: WAIT });
    expect(await count.textContent()).toBe('2 threads');
    await page.getByLabel('Show archived').check();
    await page.getByText('3 threads', { exact: true }).waitFor({ timeout: WAIT });
    await page.close();
  });

  it('works with the keyboard alone, with a visible focus', async () => {
    const page = await open('/ui/');
    await page.locator('.thread').first().waitFor({ timeout: WAIT });
    let onLink = false;
    for (let i = 0; i < 15 && !onLink; i++) {
      await page.keyboard.press('Tab');
      onLink = await page.evaluate(() => document.activeElement?.matches('a.thread-link') ?? false);
    }
    expect(onLink).toBe(true);
    const outline = await page.evaluate(
      () => getComputedStyle(document.activeElement!).outlineStyle,
    );
    expect(outline).not.toBe('none');
    const firstHref = await page.evaluate(() => document.activeElement?.getAttribute('href'));
    await page.keyboard.press('ArrowDown');
    const secondHref = await page.evaluate(() => document.activeElement?.getAttribute('href'));
    expect(secondHref).toMatch(/^\/ui\/threads\//);
    expect(secondHref).not.toBe(firstHref);
    await page.keyboard.press('ArrowUp');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe(firstHref);

    // Open the showcase thread with Enter; arrows, Home and End move between its items.
    await page.goto(`${server.url}/ui/threads/showcase`);
    await page.locator('#item-12').waitFor({ timeout: WAIT });
    let onItem = false;
    for (let i = 0; i < 25 && !onItem; i++) {
      await page.keyboard.press('Tab');
      onItem = await page.evaluate(() => document.activeElement?.matches('li.item') ?? false);
    }
    expect(onItem).toBe(true);
    const focused = () => page.evaluate(() => (document.activeElement as HTMLElement).dataset.seq);
    expect(await focused()).toBe('12');
    await page.keyboard.press('Home');
    expect(await focused()).toBe('0');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('1');
    await page.keyboard.press('End');
    expect(await focused()).toBe('12');

    const list = await open('/ui/');
    await list.locator('.thread').first().waitFor({ timeout: WAIT });
    const link = list.locator('a.thread-link').first();
    await link.focus();
    const href = await link.getAttribute('href');
    await list.keyboard.press('Enter');
    await list.waitForURL(`${server.url}${href}`, { timeout: WAIT });
    await list.locator('.items, .empty').first().waitFor({ timeout: WAIT });
    await page.close();
    await list.close();
  });

  it('fits a phone-sized screen (375 px) without sideways scrolling', async () => {
    const phone = await browser.newContext({
      viewport: { width: 375, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    try {
      const page = await open('/ui/', phone);
      await page.locator('.thread').first().waitFor({ timeout: WAIT });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        375,
      );
      await shot(page, 'phone-list');
      await page.goto(`${server.url}/ui/threads/showcase`);
      await page.locator('#item-12').waitFor({ timeout: WAIT });
      await page.locator('#item-2 summary').click();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        375,
      );
      await shot(page, 'phone-thread');
    } finally {
      await phone.close();
    }
  });

  it('asks for an API key under AUTH=required, keeps it in the session only, and signs out', async () => {
    const key = await runToExit(
      { DATABASE_URL: t.url },
      {
        script: 'src/identity/keys-cli.ts',
        args: [
          'create',
          '--tenant',
          'local',
          '--scopes',
          'threads:read,threads:write',
          '--name',
          'ui-test',
        ],
      },
    );
    expect(key.code, key.stderr).toBe(0);
    const secret = key.stdout.trim();
    const guarded = await startServer({ ...env(), AUTH: 'required' });
    const session = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    try {
      const page = await session.newPage();
      await page.goto(`${guarded.url}/ui/`);
      const field = page.getByLabel('API key or token');
      await field.waitFor({ timeout: WAIT });
      await shot(page, 'sign-in');
      await field.fill('tsk_not_a_key');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor({ timeout: WAIT });
      await field.fill(secret);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('.thread').first().waitFor({ timeout: WAIT });
      await page.locator('.live-live').first().waitFor({ timeout: WAIT });
      expect(page.url()).not.toContain(secret);
      expect(await page.evaluate(() => sessionStorage.getItem('threadstore.token'))).toBe(secret);
      expect(await page.evaluate(() => localStorage.length)).toBe(0);
      await page.reload();
      await page.locator('.thread').first().waitFor({ timeout: WAIT });
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('API key or token').waitFor({ timeout: WAIT });
      expect(await page.evaluate(() => sessionStorage.getItem('threadstore.token'))).toBeNull();
    } finally {
      await session.close();
      await guarded.stop();
    }
  });

  it('opens GraphiQL on the example query and its variables', async () => {
    const page = await open('/graphql');
    await page.getByText('RecentThreads').first().waitFor({ timeout: 60_000 });
    // Monaco draws spaces as no-break spaces.
    await page.waitForFunction(
      () => (document.body.textContent ?? '').replace(/\u00a0/g, ' ').includes('"lastItems": 3'),
      undefined,
      { timeout: WAIT },
    );
    await shot(page, 'graphiql');
    await page.close();
  });
});
