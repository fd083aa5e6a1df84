import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitsFromEnv, type ServiceContext } from '../src/context.js';
import { parseEnv } from '../src/env.js';
import { anonymousIdentity } from '../src/identity/identity.js';
import { importConversation } from '../src/import/import.service.js';
import { jsonErrorOffset } from '../src/import/json-errors.js';
import type { ThreadEventPayload } from '../src/pubsub/topics.js';
import { CODECS } from '../src/transcripts/index.js';
import type { DecodedConversation, ItemDraft } from '../src/transcripts/types.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { createTestDatabase, type TestDatabase } from './testkit/database.js';
import { startServer } from './testkit/process.js';

const root = join(import.meta.dirname, '..');
const fixtures = join(import.meta.dirname, '..', '..', 'shared', 'fixtures', 'openai-chat');
const TAU = join(fixtures, 'tau-bench-gpt-4o-airline-sample.json');
const PYDANTIC = join(fixtures, 'pydantic-ai-gpt-4o-conversations.json');

/** A Chat Completions message as the fixtures hold it. */
interface SourceMessage {
  role: string;
  content?: unknown;
  name?: string;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[] | null;
}
interface TauRun {
  task_id: number;
  trial: number;
  reward: number;
  traj: SourceMessage[];
}
interface PydanticEntry {
  source: string;
  model: string;
  messages: SourceMessage[];
}

const tauRuns = JSON.parse(readFileSync(TAU, 'utf8')) as TauRun[];
const pydanticEntries = JSON.parse(readFileSync(PYDANTIC, 'utf8')) as PydanticEntry[];

/** An item reduced to what the source determines. */
interface Expected {
  type: string;
  role?: string;
  content?: unknown;
  callId?: string;
  name?: string | null;
  arguments?: unknown;
  output?: unknown;
}

/** True when a source message has text to store as a message item. */
function hasText(m: SourceMessage): boolean {
  return typeof m.content === 'string' && m.content !== '';
}

/**
 * What the source says a conversation becomes, computed here without the parser: text ->
 * message, each tool_calls entry -> tool_call (after the assistant's text), tool -> tool_result.
 */
function expectedItems(messages: SourceMessage[]): Expected[] {
  return messages.flatMap((m): Expected[] => {
    if (m.role === 'tool') {
      const output = m.content;
      return [{ type: 'tool_result', callId: m.tool_call_id, name: m.name ?? null, output }];
    }
    const calls = m.tool_calls ?? [];
    const text: Expected[] =
      hasText(m) || calls.length === 0
        ? [{ type: 'message', role: m.role, content: m.content ?? null }]
        : [];
    return [
      ...text,
      ...calls.map((c) => ({
        type: 'tool_call',
        callId: c.id,
        name: c.function.name,
        arguments: JSON.parse(c.function.arguments) as unknown,
      })),
    ];
  });
}

/** Items per type as the source counts them: messages with text (or nothing else), tool calls, tool messages. */
function sourceCounts(messages: SourceMessage[]): Record<string, number> {
  const counts: Record<string, number> = {
    message: messages.filter((m) => m.role !== 'tool' && (hasText(m) || !m.tool_calls?.length))
      .length,
    tool_call: messages.flatMap((m) => m.tool_calls ?? []).length,
    tool_result: messages.filter((m) => m.role === 'tool').length,
  };
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
}

/** Items per type. */
function countTypes(items: { type: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item.type] = (counts[item.type] ?? 0) + 1;
  return counts;
}

/** A decoded draft reduced to the shape of Expected. */
function fromDraft(item: ItemDraft): Expected {
  if (item.message) {
    return { type: 'message', role: item.message.role, content: item.message.content };
  }
  if (item.toolCall) {
    const { callId, name } = item.toolCall as { callId: string; name: string };
    return { type: 'tool_call', callId, name, arguments: item.toolCall.arguments };
  }
  const { callId, name } = item.toolResult!;
  return { type: 'tool_result', callId, name: name ?? null, output: item.toolResult!.output };
}

/** The source's call ids in order: of tool_calls entries, and of tool messages. */
function sourceCallIds(messages: SourceMessage[]): { calls: string[]; results: string[] } {
  return {
    calls: messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id)),
    results: messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id!),
  };
}

/** Tool calls whose id an earlier call of the same conversation already used. */
function reusedCallIds(messages: SourceMessage[]): number {
  const seen = new Set<string>();
  let reused = 0;
  for (const id of sourceCallIds(messages).calls) {
    if (seen.has(id)) reused += 1;
    seen.add(id);
  }
  return reused;
}

/** The conversations the OpenAI Chat codec decodes from a fixture file. */
function decodeFile(file: string): DecodedConversation[] {
  return CODECS.OPENAI_CHAT!.decode(JSON.parse(readFileSync(file, 'utf8')));
}

describe('the OpenAI Chat codec on the fixtures', () => {
  it('finds where JSON.parse stopped', () => {
    expect(jsonErrorOffset('[1,,2]')).toBe(3);
    expect(jsonErrorOffset('{"a" 1}')).toBe(5);
    expect(jsonErrorOffset('[1] x')).toBe(4);
    expect(jsonErrorOffset('"a\\u12G4"')).toBe(6);
    expect(jsonErrorOffset('[1,2')).toBe(4);
  });

  it('reads the whole tau-bench fixture: 8 runs, 356 messages, 111 tool calls and results', () => {
    const conversations = decodeFile(TAU);
    expect(conversations).toHaveLength(8);
    const messages = tauRuns.flatMap((r) => r.traj);
    expect(messages).toHaveLength(356);
    expect(messages.flatMap((m) => m.tool_calls ?? [])).toHaveLength(111);
    expect(messages.filter((m) => m.role === 'tool')).toHaveLength(111);
    // README: the model re-used tool_call_ids 14 times (in 6 of the 8 runs).
    expect(tauRuns.map((r) => reusedCallIds(r.traj)).reduce((a, b) => a + b)).toBe(14);
    expect(tauRuns.filter((r) => reusedCallIds(r.traj) > 0)).toHaveLength(6);
    conversations.forEach((conversation, i) => {
      const run = tauRuns[i]!;
      expect(conversation.meta).toMatchObject({ task_id: run.task_id, trial: run.trial });
      expect(conversation.items.map(fromDraft)).toEqual(expectedItems(run.traj));
    });
  });

  it('reads the pydantic-ai fixture, parallel calls included', () => {
    const conversations = decodeFile(PYDANTIC);
    // Message 1 of the first conversation makes two calls at once: one response, two items.
    const parallel = conversations[0]!.items.filter((i) => i.responseId === 'msg-1');
    expect(parallel.map((i) => i.toolCall?.name)).toEqual(['get_country', 'get_product_name']);
    conversations.forEach((conversation, i) => {
      const source = pydanticEntries[i]!.messages;
      expect(countTypes(conversation.items.map(fromDraft))).toEqual(sourceCounts(source));
      expect(conversation.items.map(fromDraft)).toEqual(expectedItems(source));
    });
  });
});

const ITEMS_QUERY = `query($id: ID!) {
  thread(id: $id) {
    id name agentId metadata itemCount nextSeq
    items(first: 500) {
      totalCount
      edges { node {
        __typename
        ... on ConversationItem { seq type responseId }
        ... on MessageItem { role content }
        ... on ToolCallItem { callId name arguments }
        ... on ToolResultItem { callId resultName: name output isError }
      } }
    }
  }
}`;

interface StoredNode {
  seq: number;
  type: string;
  responseId: string | null;
  role?: string;
  content?: string | null;
  callId?: string;
  name?: string;
  arguments?: unknown;
  resultName?: string | null;
  output?: unknown;
  isError?: boolean;
}
interface StoredThread {
  id: string;
  name: string;
  agentId: string;
  metadata: Record<string, unknown>;
  itemCount: number;
  nextSeq: number;
  items: { totalCount: number; edges: { node: StoredNode }[] };
}

/** A stored item reduced to the shape of Expected. */
function fromStored(node: StoredNode): Expected {
  if (node.type === 'message') return { type: node.type, role: node.role, content: node.content };
  if (node.type === 'tool_call') {
    return { type: node.type, callId: node.callId, name: node.name, arguments: node.arguments };
  }
  return { type: node.type, callId: node.callId, name: node.resultName, output: node.output };
}

/** A conversation of `n` user messages "m0".."m{n-1}". */
function bigConversation(n: number): DecodedConversation {
  const messages = Array.from({ length: n }, (_, i) => ({ role: 'user', content: `m${i}` }));
  return CODECS.OPENAI_CHAT!.decode(messages)[0]!;
}

describe('importing through the service layer', () => {
  let t: TestApp;
  let ctx: ServiceContext;
  const options = { agentId: 'importer-test' };

  beforeAll(async () => {
    t = await buildTestApp();
    const env = parseEnv({});
    ctx = {
      db: t.app.db,
      identity: anonymousIdentity(env.DEFAULT_TENANT),
      tenantId: env.DEFAULT_TENANT,
      events: t.app.events,
      limits: limitsFromEnv(env),
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  const readThread = async (id: string) =>
    (await t.execute<{ thread: StoredThread }>(ITEMS_QUERY, { id })).thread;
  const threadCount = async () =>
    (
      await t.execute<{ threads: { totalCount: number } }>(
        '{ threads(filter: { includeArchived: true }) { totalCount } }',
      )
    ).threads.totalCount;

  it('stores both fixture files completely: items per type and callIds as in the source', async () => {
    const sources = [
      { file: TAU, conversations: tauRuns.map((r) => r.traj) },
      { file: PYDANTIC, conversations: pydanticEntries.map((e) => e.messages) },
    ];
    const events: ThreadEventPayload[] = [];
    const stop = t.app.events.listen('thread-events', ctx.tenantId, (e) => events.push(e));
    const imported: string[] = [];
    const tauTotals: Record<string, number> = {};
    for (const { file, conversations } of sources) {
      const parsed = decodeFile(file);
      expect(parsed).toHaveLength(conversations.length);
      for (const [i, conversation] of parsed.entries()) {
        const name = `${basename(file)} #${i}`;
        const written = (await importConversation(ctx, conversation, { ...options, name })).thread;
        imported.push(written.id);
        const stored = await readThread(written.id);
        const source = conversations[i]!;
        const expected = expectedItems(source);
        const nodes = stored.items.edges.map((e) => e.node);

        expect(stored.name).toBe(name);
        expect(stored.agentId).toBe('importer-test');
        expect(stored.metadata).toEqual({});
        expect(stored.itemCount).toBe(expected.length);
        expect(stored.nextSeq).toBe(expected.length);
        expect(stored.items.totalCount).toBe(expected.length);
        expect(nodes.map((n) => n.seq)).toEqual(expected.map((_, seq) => seq));

        expect(countTypes(nodes)).toEqual(sourceCounts(source));
        const ids = sourceCallIds(source);
        const callIds = (type: string) => nodes.filter((n) => n.type === type).map((n) => n.callId);
        expect(callIds('tool_call')).toEqual(ids.calls);
        expect(callIds('tool_result')).toEqual(ids.results);
        expect(nodes.map(fromStored)).toEqual(expected);
        expect(nodes.filter((n) => n.type === 'tool_result').every((n) => !n.isError)).toBe(true);
        // Items of one assistant message share a responseId; other roles have none.
        for (const node of nodes) {
          const fromAssistant = node.type === 'tool_call' || node.role === 'assistant';
          expect(node.responseId !== null).toBe(fromAssistant);
        }
        if (file === TAU) {
          for (const [type, n] of Object.entries(countTypes(nodes))) {
            tauTotals[type] = (tauTotals[type] ?? 0) + n;
          }
        }
      }
    }
    stop();
    expect(tauTotals.tool_call).toBe(111);
    expect(tauTotals.tool_result).toBe(111);
    expect(imported).toHaveLength(10);
    expect(events.map((e) => [e.type, e.threadId])).toEqual(
      imported.flatMap((id) => [
        ['CREATED', id],
        ['ITEMS_APPENDED', id],
      ]),
    );
    const mine = await t.execute<{ threads: { totalCount: number } }>(
      '{ threads(filter: { agentId: "importer-test" }) { totalCount } }',
    );
    expect(mine.threads.totalCount).toBe(10);
  });

  it('stores re-used callIds so that addCompaction pairs each result with the nearest open call', async () => {
    const run = tauRuns.find((r) => reusedCallIds(r.traj) > 0)!;
    const [conversation] = CODECS.OPENAI_CHAT!.decode([run]);
    const { thread } = await importConversation(ctx, conversation!, options);
    const nodes = (await readThread(thread.id)).items.edges.map((e) => e.node);
    // The first call whose id an earlier, already answered call used, and its own result.
    const seen = new Set<string>();
    const reused = nodes.find((n) => {
      if (n.type !== 'tool_call') return false;
      const again = seen.has(n.callId!);
      seen.add(n.callId!);
      return again;
    })!;
    const firstCall = nodes.find((n) => n.type === 'tool_call' && n.callId === reused.callId)!;
    const result = nodes.find(
      (n) => n.type === 'tool_result' && n.callId === reused.callId && n.seq > reused.seq,
    )!;
    expect(firstCall.seq).toBeLessThan(reused.seq);

    const compact = (endSeq: number) =>
      t.request<{ addCompaction: { compaction: { endSeq: number } } }>(
        'mutation($input: AddCompactionInput!) { addCompaction(input: $input) { compaction { endSeq } } }',
        { input: { threadId: thread.id, startSeq: 0, endSeq, summary: 'so far' } },
      );
    // Ending at the re-used call separates it from its own result, not the first call's.
    const split = await compact(reused.seq);
    expect(split.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(split.errors?.[0]?.message).toContain(
      `separates the tool call at seq ${reused.seq} from its result at seq ${result.seq}`,
    );
    const whole = await compact(result.seq);
    expect(whole.errors).toBeUndefined();
    expect(whole.data?.addCompaction.compaction.endSeq).toBe(result.seq);
  });

  it('writes over 500 items of one conversation in one transaction with consecutive seqs', async () => {
    const { thread } = await importConversation(ctx, bigConversation(1200), options);
    expect(thread.itemCount).toBe(1200);
    expect(thread.nextSeq).toBe(1200);
    const last = await t.execute<{ item: { seq: number; content: string } }>(
      'query($id: ID!) { item(threadId: $id, seq: 1199) { ... on MessageItem { seq content } } }',
      { id: thread.id },
    );
    expect(last.item).toEqual({ seq: 1199, content: 'm1199' });
  });

  it('writes nothing of a conversation whose write fails halfway', async () => {
    const before = await threadCount();
    let inserts = 0;
    // The second insert statement fails: the thread and the first 500 items must roll back.
    const failing = new Proxy(t.app.db.prisma, {
      get(target, prop) {
        if (prop !== '$transaction') return Reflect.get(target, prop);
        return (work: (tx: unknown) => Promise<unknown>, txOptions: unknown) =>
          target.$transaction(
            (tx) =>
              work(
                new Proxy(tx, {
                  get(txTarget, txProp) {
                    // Items are written with raw multi-row INSERTs (src/items/item.service.ts).
                    if (txProp !== '$executeRaw') return Reflect.get(txTarget, txProp);
                    return async (strings: TemplateStringsArray, ...values: unknown[]) => {
                      inserts += 1;
                      if (inserts === 2) throw new Error('disk full');
                      return txTarget.$executeRaw(strings, ...values);
                    };
                  },
                }),
              ),
            txOptions as never,
          );
      },
    });
    const failingCtx = { ...ctx, db: { ...ctx.db, prisma: failing } };
    await expect(importConversation(failingCtx, bigConversation(1200), options)).rejects.toThrow(
      'disk full',
    );
    expect(inserts).toBe(2);
    expect(await threadCount()).toBe(before);
  });

  it('checks every item before writing: a too large item writes no thread', async () => {
    const before = await threadCount();
    const [conversation] = CODECS.OPENAI_CHAT!.decode([tauRuns[0]]);
    const small = { ...ctx, limits: { ...ctx.limits, maxItemBytes: 2000 } };
    await expect(importConversation(small, conversation!, options)).rejects.toThrow(
      /^transcript: \[0\]\.traj\[0\]: its data is \d+ bytes of JSON; the limit is 2000 bytes \(for data, and for raw on its own\)\.$/,
    );
    expect(await threadCount()).toBe(before);
  });
});

/** Runs the real CLI (`npx tsx src/import/cli.ts ...`); resolves with its exit code and output. */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'src/import/cli.ts', ...args], { cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run import', () => {
  let database: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    // A database of the run's provider (a SQLite file or a PostgreSQL database) that no other
    // connection holds while the CLI migrates it.
    database = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'threadstore-import-'));
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports the README quick start files, skips bad files naming the line; the server lists the threads', async () => {
    const total = [...tauRuns.map((r) => r.traj), ...pydanticEntries.map((e) => e.messages)]
      .map((m) => expectedItems(m).length)
      .reduce((a, b) => a + b);
    const good = await runCli(['--database', database.url, TAU, PYDANTIC]);
    expect(good.stderr).toBe('');
    expect(good.code).toBe(0);
    const lines = good.stdout.trim().split('\n');
    expect(lines).toHaveLength(14);
    expect(lines[0]).toBe(`${TAU}: format OPENAI_CHAT (detected)`);
    expect(lines[1]).toMatch(
      /^[0-9a-f-]{36} {2}tau-bench-gpt-4o-airline-sample\.json #0 {2}32 items$/,
    );
    expect(lines.at(-2)).toBe(`imported 10 threads with ${total} items from 2 files`);
    const created = lines.at(-1)!.split(' ').slice(2);
    expect(created).toEqual(lines.filter((l) => l.endsWith(' items')).map((l) => l.split(' ')[0]));

    const badJsonl = join(dir, 'bad.jsonl');
    const first = JSON.stringify({ messages: [{ role: 'user', content: 'a' }] });
    writeFileSync(badJsonl, `${first}\n{oops\n`);
    const noCallId = join(dir, 'no-call-id.json');
    writeFileSync(
      noCallId,
      JSON.stringify([
        { role: 'assistant', tool_calls: [{ id: 'c1', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', content: 'x' },
      ]),
    );
    const mixed = await runCli([
      '--database',
      database.url,
      '--agent',
      'second-run',
      '--format',
      'OPENAI_CHAT',
      badJsonl,
      noCallId,
      PYDANTIC,
    ]);
    expect(mixed.code).toBe(1);
    const errors = mixed.stderr.trim().split('\n');
    expect(errors[0]).toBe(
      `${badJsonl}: line 2: invalid JSON at column 2: Expected property name or '}'`,
    );
    // A one-line JSON array is one document (file-source.ts), not a JSONL line: the index.
    expect(errors[1]).toBe(
      `${noCallId}: [1]: a tool message needs tool_call_id (or tool_call_ids)`,
    );
    expect(errors).toHaveLength(2);
    // The good line of bad.jsonl is imported; the pydantic file was imported before.
    expect(mixed.stdout.trim().split('\n').at(-2)).toBe(
      'imported 1 threads with 1 items from 3 files; 2 already imported (nothing written); 2 failed (see stderr)',
    );

    // What `npm start` on that database serves (and GraphiQL browses).
    const server = await startServer({ DATABASE_URL: database.url });
    try {
      const count = async (filter: Record<string, unknown>) => {
        const result = await server.graphql<{ threads: { totalCount: number } }>(
          'query($filter: ThreadFilter) { threads(filter: $filter) { totalCount } }',
          { filter: { includeArchived: true, ...filter } },
        );
        expect(result.errors).toBeUndefined();
        return result.data!.threads.totalCount;
      };
      expect(await count({})).toBe(11);
      expect(await count({ agentId: 'transcript-import' })).toBe(10);
      expect(await count({ agentId: 'second-run' })).toBe(1);
      expect(await count({ metadata: { importedFrom: 'no-call-id.json' } })).toBe(0);
      expect(await count({ metadata: { format: 'OPENAI_CHAT', task_id: 33 } })).toBe(2);
      const firstThread = await server.graphql<{ thread: { name: string; itemCount: number } }>(
        'query($id: ID!) { thread(id: $id) { name itemCount } }',
        { id: lines[1]!.split(' ')[0] },
      );
      expect(firstThread.data?.thread).toEqual({
        name: 'tau-bench-gpt-4o-airline-sample.json #0',
        itemCount: expectedItems(tauRuns[0]!.traj).length,
      });
    } finally {
      server.process.kill('SIGTERM');
      await server.exited;
    }
  });

  it('imports the .json/.jsonl/.traj files directly in a directory, in name order', async () => {
    const folder = join(dir, 'folder');
    mkdirSync(join(folder, 'nested'), { recursive: true });
    copyFileSync(TAU, join(folder, 'b-tau.json'));
    copyFileSync(PYDANTIC, join(folder, 'a-pydantic.json'));
    writeFileSync(join(folder, 'notes.txt'), 'not a transcript');
    copyFileSync(TAU, join(folder, 'nested', 'c-tau.json'));
    const run = await runCli(['--database', database.url, '--id-prefix', 'dir-', folder]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines.filter((l) => l.includes(': format '))).toEqual([
      `${join(folder, 'a-pydantic.json')}: format OPENAI_CHAT (detected)`,
      `${join(folder, 'b-tau.json')}: format OPENAI_CHAT (detected)`,
    ]);
    // The same conversations as the first test's files: their content keys answer.
    expect(lines.at(-2)).toBe(
      'imported 0 threads with 0 items from 2 files; 10 already imported (nothing written)',
    );

    const help = await runCli(['--help']);
    expect(help.stdout).toContain('<file or directory>...');
    expect(help.stdout).toContain('a directory imports the .json, .jsonl and .traj files');
    const emptyDir = join(dir, 'empty');
    mkdirSync(emptyDir);
    const empty = await runCli(['--database', database.url, emptyDir]);
    expect(empty.code).toBe(2);
    expect(empty.stderr.split('\n')[0]).toBe(`no .json, .jsonl or .traj files in ${emptyDir}`);
  });
});
