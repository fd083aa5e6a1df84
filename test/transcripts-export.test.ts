/**
 * Transcript export (issue 11, points 2, 3, 4, 6) through the real GraphQL endpoint, the real
 * HTTP route and the CLI, on the run's database: every fixture conversation imported (the
 * file's conversations as the CLI reads them, through the import service) comes back from
 * Thread.transcript in its own format deep-equal to the source, key order included (compared
 * as JSON text: no normalisation); the streamed export gives the same; conversion across
 * formats lists what it leaves out in extensions.transcriptDropped; modelContext shapes pass
 * the providers' request rules with a compaction record applied; a THREADSTORE_JSONL dump
 * restored on the OTHER database and dumped again is byte-identical (the sqlite project goes
 * SQLite -> PostgreSQL, the postgresql project the other way); a 100k-item thread streams from
 * a server process whose peak memory stays bounded; another tenant and no credentials are
 * refused.
 */
import { readFileSync } from 'node:fs';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitsFromEnv, type ServiceContext } from '../src/context.js';
import { parseEnv } from '../src/env.js';
import { anonymousIdentity } from '../src/identity/identity.js';
import { importConversation } from '../src/import/import.service.js';
import { insertItems, type PreparedItem } from '../src/items/item.store.js';
import { findThread } from '../src/threads/thread.service.js';
import { type ExportOptions, exportChunks, shapeOf } from '../src/transcripts/export-stream.js';
import { CODECS } from '../src/transcripts/index.js';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../src/transcripts/types.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { createDatabase, testPostgresUrl, testProvider } from './testkit/database.js';
import type { GraphQLClient } from './testkit/graphql.js';
import { runToExit, type ServerProcess, startServer } from './testkit/process.js';
import { checkAnthropic, checkChat, checkResponses } from './transcripts-checks.js';
import { sources } from './transcripts-sources.js';

const SECRET = 'transcripts-export-secret-of-at-least-32-chars';
const ALL_SCOPES = 'threads:read threads:write threads:delete admin';

function jwt(tenant: string, scope = ALL_SCOPES): Promise<string> {
  return new SignJWT({ tenant, scope })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(`user-of-${tenant}`)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(SECRET));
}

const ENV = { HOST: '127.0.0.1', AUTH: 'required', AUTH_JWT_SECRET: SECRET };
const TRANSCRIPT = `query($id: ID!, $format: TranscriptFormat!) {
  thread(id: $id) { transcript(format: $format) } }`;
const CONTEXT = `query($id: ID!, $format: TranscriptFormat!) {
  thread(id: $id) { modelContext(format: $format) } }`;

let t: TestApp;
let a: GraphQLClient;
let bearerA: string;
let bearerB: string;
let base: string;
/** Imported fixture conversations: thread id, format, the source value. */
const imported: { label: string; id: string; format: string; expected: unknown }[] = [];

/** A service context of tenant A on `app`'s database (the importer's, as the CLI builds it). */
function serviceContext(app: TestApp): ServiceContext {
  return {
    db: app.app.db,
    identity: anonymousIdentity('tenant-a'),
    tenantId: 'tenant-a',
    events: app.app.events,
    limits: limitsFromEnv(parseEnv({ DATABASE_URL: app.url })),
  };
}

beforeAll(async () => {
  t = await buildTestApp(ENV);
  base = `http://127.0.0.1:${await t.app.start(0)}`;
  bearerA = `Bearer ${await jwt('tenant-a')}`;
  bearerB = `Bearer ${await jwt('tenant-b')}`;
  a = t.as(bearerA);
  const ctx = serviceContext(t);
  for (const source of sources()) {
    const conversations = CODECS[source.format]!.decode(source.value);
    for (const [i, conversation] of conversations.entries()) {
      const result = await importConversation(ctx, conversation, { agentId: 'export-test' });
      imported.push({
        label: `${source.file} #${i}`,
        id: result.thread.id,
        format: source.format,
        expected: source.expected[i],
      });
    }
  }
});
afterAll(async () => {
  await t?.close();
});

async function transcript(client: GraphQLClient, id: string, format: string) {
  const res = await client.request(TRANSCRIPT, { id, format });
  expect(res.errors).toBeUndefined();
  return {
    value: (res.data as { thread: { transcript: unknown } }).thread.transcript,
    // The testkit's response type leaves extensions out; the body has them.
    dropped: ((res as { extensions?: Record<string, unknown> }).extensions?.transcriptDropped ??
      []) as Record<string, unknown>[],
  };
}

/** GET /threads/<id>/export as text. */
async function exported(id: string, format: string, authorization = bearerA) {
  return fetch(`${base}/threads/${id}/export?format=${format}`, { headers: { authorization } });
}

describe('round trip in the source format', () => {
  it('every fixture conversation comes back from Thread.transcript exactly, and streamed the same', async () => {
    expect(imported.length).toBe(41);
    for (const { label, id, format, expected } of imported) {
      const { value, dropped } = await transcript(a, id, format);
      // JSON text equality: deep equality including key order, nulls and unknown keys.
      expect(JSON.stringify(value), label).toBe(JSON.stringify(expected));
      expect(dropped, label).toEqual([]);
      const res = await exported(id, format);
      expect(res.status, label).toBe(200);
      const text = await res.text();
      if (format === 'CLAUDE_CODE_JSONL') {
        expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
        // The stream writes JSON.stringify per line: the fixture file byte for byte.
        const file = readFileSync(
          `${import.meta.dirname}/../../shared/fixtures/anthropic/claude-code-transcript-python-to-rust-port.jsonl`,
          'utf8',
        );
        expect(text).toBe(file);
      } else {
        expect(text, label).toBe(JSON.stringify(expected));
      }
    }
  });
});

/**
 * The thread streamed (export-stream.ts, as GET /threads/<id>/export and npm run export read
 * it) with `options`, put together as Thread.transcript gives it: values, dropped, chunks.
 */
async function streamed(id: string, format: TranscriptFormat, options: ExportOptions = {}) {
  const ctx = serviceContext(t);
  const thread = (await findThread(ctx, id))!;
  const values: unknown[] = [];
  const dropped: unknown[] = [];
  let system: unknown;
  let chunks = 0;
  for await (const chunk of exportChunks(ctx, thread, format, undefined, options)) {
    if (chunks++ === 0) system = chunk.system;
    values.push(...chunk.values);
    dropped.push(...chunk.dropped);
  }
  if (shapeOf(format) !== 'messages') return { value: values, dropped, chunks };
  return {
    value: { ...(system === undefined ? {} : { system }), messages: values },
    dropped,
    chunks,
  };
}

describe('streamed export equals Thread.transcript', () => {
  it('for every fixture conversation in every format, cut into many chunks', async () => {
    // Two items a page: a chunk at nearly every turn. A turn may hold 16 items before it is cut
    // where the responseId changes (more than any fixture's tool batch: a cut between parallel
    // calls and their results is the one place a stream may differ, see export-stream.ts).
    const small = { pageItems: 2, maxTurnItems: 16 };
    let chunks = 0;
    for (const { label, id } of imported) {
      for (const format of TRANSCRIPT_FORMATS) {
        const whole = await transcript(a, id, format);
        const stream = await streamed(id, format, small);
        chunks += stream.chunks;
        const what = `${label} as ${format}`;
        // Parsed back for a readable diff; the text comparison keeps key order.
        const same = JSON.stringify(stream.value) === JSON.stringify(whole.value);
        if (!same) expect(stream.value, what).toEqual(whole.value);
        expect(same, what).toBe(true);
        expect(stream.dropped, what).toEqual(whole.dropped);
      }
    }
    // Many chunks really were cut (41 conversations, 6 formats).
    expect(chunks).toBeGreaterThan(41 * 6 * 3);
  });

  it('cuts a thread of assistant messages without responseIds, and still equals it', async () => {
    const created = await a.execute(
      `mutation { createThread(input: { agentId: "plain" }) { thread { id } } }`,
    );
    const id = created.createThread.thread.id as string;
    const N = 12_000;
    const APPEND = `mutation($input: AppendItemsInput!) { appendItems(input: $input) { items { __typename } } }`;
    for (let start = 0; start < N; start += 500) {
      const items = Array.from({ length: 500 }, (_, i) => ({
        message: { role: 'assistant', content: `note ${start + i}` },
      }));
      await a.execute(APPEND, { input: { threadId: id, items } });
    }
    for (const format of ['OPENAI_CHAT', 'ANTHROPIC_MESSAGES', 'AI_SDK_UI_MESSAGES'] as const) {
      const stream = await streamed(id, format);
      // Each page (EXPORT_PAGE_ITEMS = 500) is encoded and written before the next is read
      // (but its last item, which waits to see whether the next page continues it).
      expect(stream.chunks, format).toBe(N / 500 + 1);
      const whole = await transcript(a, id, format);
      expect(JSON.stringify(stream.value), format).toBe(JSON.stringify(whole.value));
      expect(stream.dropped, format).toEqual(whole.dropped);
    }
  }, 300_000);
});

/** Imports a transcript through the mutation; the new thread's id. */
async function importThread(format: string, transcript: unknown): Promise<string> {
  const created = await a.execute(
    `mutation($input: ImportTranscriptInput!) { importTranscript(input: $input) { thread { id } } }`,
    { input: { format, transcript, agentId: 'export-test' } },
  );
  return created.importTranscript.thread.id as string;
}

describe('streamed export of split records equals Thread.transcript', () => {
  it('never cuts between blocks of one Anthropic user record, in any format', async () => {
    const user = (content: unknown[]) => ({ messages: [{ role: 'user', content }] });
    const image = (url: string) => ({ type: 'image', source: { type: 'url', url } });
    const threads = [
      user([
        { type: 'future_block', x: 1 },
        { type: 'text', text: 'hi' },
      ]),
      user([
        image('https://e.com/a.png'),
        image('https://e.com/b.png'),
        { type: 'document', source: { type: 'url', url: 'https://e.com/a.pdf' } },
        { type: 'text', text: 'what?' },
      ]),
      {
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'a', input: {} }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'before' },
              { type: 'tool_result', tool_use_id: 't', content: '1' },
              { type: 'text', text: 'after' },
            ],
          },
        ],
      },
    ];
    for (const [k, source] of threads.entries()) {
      const id = await importThread('ANTHROPIC_MESSAGES', source);
      for (const format of TRANSCRIPT_FORMATS) {
        const what = `thread ${k} as ${format}`;
        const whole = await transcript(a, id, format);
        const stream = await streamed(id, format, { pageItems: 1, maxTurnItems: 16 });
        expect(JSON.stringify(stream.value), what).toBe(JSON.stringify(whole.value));
        expect(stream.dropped, what).toEqual(whole.dropped);
        // The HTTP route writes the same (JSONL: one value a line).
        const text = await (await exported(id, format)).text();
        const lines = format.endsWith('JSONL');
        const http = lines
          ? text
              .trimEnd()
              .split('\n')
              .map((l) => JSON.parse(l))
          : JSON.parse(text);
        expect(JSON.stringify(http), what).toBe(JSON.stringify(whole.value));
      }
      // One Claude Code line holds the whole user record.
      const cc = (await transcript(a, id, 'CLAUDE_CODE_JSONL')).value as { type: string }[];
      expect(
        cc.filter((l) => l.type === 'user'),
        `thread ${k}`,
      ).toHaveLength(k === 2 ? 2 : 1);
    }
  });

  it('never cuts between parts of one AI SDK user message converted to another format', async () => {
    // The converted items of one split record form one message in every format, so no codec
    // may start a value with a later one (startsValue), else the stream splits the message.
    const text = (t: string) => ({ type: 'text', text: t });
    const source = [
      {
        id: 'u1',
        role: 'user',
        parts: [
          text('look'),
          text('at this'),
          { type: 'file', mediaType: 'image/png', url: 'https://e.com/a.png' },
        ],
      },
      { id: 'a1', role: 'assistant', parts: [text('ok')] },
      { id: 'u2', role: 'user', parts: [text('and'), text('this')] },
    ];
    const id = await importThread('AI_SDK_UI_MESSAGES', source);
    for (const format of TRANSCRIPT_FORMATS) {
      const whole = await transcript(a, id, format);
      const stream = await streamed(id, format, { pageItems: 1, maxTurnItems: 16 });
      expect(JSON.stringify(stream.value), format).toBe(JSON.stringify(whole.value));
      expect(stream.dropped, format).toEqual(whole.dropped);
    }
    const anthropic = (await transcript(a, id, 'ANTHROPIC_MESSAGES')).value as {
      messages: unknown;
    };
    expect(anthropic.messages).toEqual([
      {
        role: 'user',
        content: [
          text('look'),
          text('at this'),
          { type: 'image', source: { type: 'url', url: 'https://e.com/a.png' } },
        ],
      },
      { role: 'assistant', content: [text('ok')] },
      { role: 'user', content: [text('and'), text('this')] },
    ]);
    const cc = (await transcript(a, id, 'CLAUDE_CODE_JSONL')).value as { type: string }[];
    expect(cc.filter((l) => l.type === 'user')).toHaveLength(2);
  });
});

describe('across formats: what the target cannot carry is listed, what it can is converted', () => {
  it('empty messages, documents, refusals, file ids, image detail, is_error, a mid-thread system', async () => {
    const empty = await importThread('OPENAI_CHAT', [
      { role: 'user', content: '' },
      { role: 'assistant', content: '' },
    ]);
    const emptyWhy =
      'empty message: Anthropic Messages has no empty message (it refuses empty text blocks)';
    expect(await transcript(a, empty, 'ANTHROPIC_MESSAGES')).toEqual({
      value: { messages: [] },
      dropped: [0, 1].map((seq) => ({
        itemId: `${empty}:${seq}`,
        seq,
        what: 'the whole item',
        why: emptyWhy,
      })),
    });

    const pdf = 'https://e.com/a.pdf';
    const doc = await importThread('ANTHROPIC_MESSAGES', {
      messages: [
        { role: 'user', content: [{ type: 'document', source: { type: 'url', url: pdf } }] },
      ],
    });
    expect(await transcript(a, doc, 'OPENAI_RESPONSES')).toEqual({
      value: [{ role: 'user', content: [{ type: 'input_file', file_url: pdf }] }],
      dropped: [],
    });
    expect(await transcript(a, doc, 'AI_SDK_UI_MESSAGES')).toEqual({
      value: [
        {
          id: 'msg-0',
          role: 'user',
          parts: [{ type: 'file', mediaType: 'application/pdf', url: pdf }],
        },
      ],
      dropped: [],
    });
    expect(await transcript(a, doc, 'OPENAI_CHAT')).toEqual({
      value: [{ role: 'user', content: '' }],
      dropped: [
        {
          itemId: `${doc}:0`,
          seq: 0,
          what: 'file 0 (application/pdf)',
          why: 'OpenAI Chat takes no such file in this message',
        },
      ],
    });

    const refusal = await importThread('OPENAI_RESPONSES', [
      { role: 'user', content: 'q' },
      {
        type: 'message',
        id: 'm',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'refusal', refusal: 'no' }],
      },
    ]);
    expect(await transcript(a, refusal, 'OPENAI_CHAT')).toEqual({
      value: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '', refusal: 'no' },
      ],
      dropped: [],
    });
    const r1 = { itemId: `${refusal}:1`, seq: 1 };
    expect(await transcript(a, refusal, 'ANTHROPIC_MESSAGES')).toEqual({
      value: { messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }] },
      dropped: [
        { ...r1, what: 'refusal', why: 'Anthropic Messages has no refusal field' },
        { ...r1, what: 'the whole item', why: emptyWhy },
      ],
    });
    expect((await transcript(a, refusal, 'AI_SDK_UI_MESSAGES')).dropped).toEqual([
      { ...r1, what: 'refusal', why: 'AI SDK UIMessage has no refusal field' },
    ]);

    const files = await importThread('OPENAI_RESPONSES', [
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'x' },
          { type: 'input_image', image_url: 'https://e/x.png', detail: 'high' },
          { type: 'input_file', file_id: 'file-1' },
        ],
      },
    ]);
    const f0 = { itemId: `${files}:0`, seq: 0 };
    expect(await transcript(a, files, 'OPENAI_CHAT')).toEqual({
      value: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'x' },
            { type: 'image_url', image_url: { url: 'https://e/x.png', detail: 'high' } },
          ],
        },
      ],
      dropped: [
        {
          ...f0,
          what: 'file 0 (file id file-1)',
          why: 'OpenAI Chat takes no such file in this message',
        },
      ],
    });
    expect(await transcript(a, files, 'ANTHROPIC_MESSAGES')).toEqual({
      value: {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'x' },
              { type: 'image', source: { type: 'url', url: 'https://e/x.png' } },
            ],
          },
        ],
      },
      dropped: [
        {
          ...f0,
          what: 'image 0: detail (high)',
          why: 'Anthropic Messages images have no detail setting',
        },
        {
          ...f0,
          what: 'file 0 (file id file-1)',
          why: 'Anthropic Messages takes no such file in this message',
        },
      ],
    });
    expect((await transcript(a, files, 'AI_SDK_UI_MESSAGES')).dropped).toEqual([
      {
        ...f0,
        what: 'image 0: detail (high)',
        why: 'AI SDK UIMessage images have no detail setting',
      },
      {
        ...f0,
        what: 'file 0 (file id file-1)',
        why: 'AI SDK UIMessage takes no such file in this message',
      },
    ]);

    const chat = await importThread('OPENAI_CHAT', [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'https://x/y.png', detail: 'low' } },
        ],
      },
      { role: 'system', content: 'b' },
      { role: 'user', content: 'y' },
      {
        role: 'user',
        content: [{ type: 'input_audio', input_audio: { data: 'AAA', format: 'wav' } }],
      },
    ]);
    expect(await transcript(a, chat, 'OPENAI_RESPONSES')).toEqual({
      value: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'look' },
            { type: 'input_image', image_url: 'https://x/y.png', detail: 'low' },
          ],
        },
        { role: 'system', content: 'b' },
        { role: 'user', content: 'y' },
        { role: 'user', content: '' },
      ],
      dropped: [
        {
          itemId: `${chat}:3`,
          seq: 3,
          what: 'content part 0 (input_audio)',
          why: 'OpenAI Responses has no equivalent of this part (the neutral form carries text, images by URL, files by URL or OpenAI file id, refusals)',
        },
      ],
    });
    const anthropic = await transcript(a, chat, 'ANTHROPIC_MESSAGES');
    expect((anthropic.value as { system: unknown }).system).toBe('b');
    expect(anthropic.dropped).toContainEqual({
      itemId: `${chat}:1`,
      seq: 1,
      what: 'position (moved to system)',
      why: 'Anthropic Messages has one system prompt, before the messages: this system text was moved into it',
    });

    const failed = await importThread('ANTHROPIC_MESSAGES', {
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'a', input: {} }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't', content: '1', is_error: true }],
        },
      ],
    });
    expect((await transcript(a, failed, 'OPENAI_CHAT')).dropped).toEqual([
      {
        itemId: `${failed}:2`,
        seq: 2,
        what: 'isError',
        why: 'an OpenAI Chat tool message has no error flag',
      },
    ]);
  });
});

describe('Claude Code compaction', () => {
  it('an exact round trip of a session with a compact boundary reports nothing dropped', async () => {
    const line = (uuid: string, type: string, extra: Record<string, unknown>) => ({
      type,
      sessionId: 's',
      uuid,
      timestamp: '2026-01-01T00:00:00.000Z',
      ...extra,
    });
    const text = (t: string) => [{ type: 'text', text: t }];
    const lines = [
      line('u1', 'user', { message: { role: 'user', content: 'port it' } }),
      line('u2', 'assistant', {
        message: { id: 'msg_1', role: 'assistant', model: 'm', content: text('ok') },
      }),
      line('u3', 'system', { subtype: 'compact_boundary', content: 'Conversation compacted' }),
      line('u4', 'user', {
        isCompactSummary: true,
        message: { role: 'user', content: 'We ported it.' },
      }),
      line('u5', 'user', { message: { role: 'user', content: 'now test it' } }),
      line('u6', 'assistant', {
        message: { id: 'msg_2', role: 'assistant', model: 'm', content: text('tested') },
      }),
    ];
    const created = await a.execute(
      `mutation($input: ImportTranscriptInput!) { importTranscript(input: $input) { thread { id } compactionsImported } }`,
      { input: { format: 'CLAUDE_CODE_JSONL', transcript: lines, agentId: 'cc' } },
    );
    expect(created.importTranscript.compactionsImported).toBe(1);
    const id = created.importTranscript.thread.id as string;
    const whole = await transcript(a, id, 'CLAUDE_CODE_JSONL');
    expect(JSON.stringify(whole.value)).toBe(JSON.stringify(lines));
    expect(whole.dropped).toEqual([]);
    const stream = await streamed(id, 'CLAUDE_CODE_JSONL', { pageItems: 1 });
    expect(stream.chunks).toBeGreaterThan(1);
    expect(JSON.stringify(stream.value)).toBe(JSON.stringify(lines));
    expect(stream.dropped).toEqual([]);
    const cli = await runToExit(
      { DATABASE_URL: t.url },
      {
        script: 'src/transcripts/export-cli.ts',
        args: [id, '--format', 'CLAUDE_CODE_JSONL', '--tenant', 'tenant-a'],
        timeoutMs: 60_000,
      },
    );
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stderr).toMatch(/; 0 things the format cannot carry/);
    // Another format has no compaction records: the marker is listed, under that format's name.
    const chat = await transcript(a, id, 'OPENAI_CHAT');
    expect(chat.dropped).toContainEqual({
      itemId: `${id}:6`,
      seq: 6,
      what: 'the whole item',
      why: 'OpenAI Chat has no compaction records',
    });
    // A compaction added through the API is no line of the session: listed, as Claude Code's.
    await a.execute(
      `mutation($input: AddCompactionInput!) { addCompaction(input: $input) { compaction { id } } }`,
      { input: { threadId: id, startSeq: 4, endSeq: 5, summary: 'Tested.' } },
    );
    const added = await transcript(a, id, 'CLAUDE_CODE_JSONL');
    expect(JSON.stringify(added.value)).toBe(JSON.stringify(lines));
    expect(added.dropped).toEqual([
      {
        itemId: `${id}:7`,
        seq: 7,
        what: 'the whole item',
        why: 'Claude Code has no compaction records',
      },
    ]);
  });
});

describe('across formats', () => {
  it('Anthropic thinking into OPENAI_CHAT is listed in extensions.transcriptDropped', async () => {
    const thinking = imported.find((c) => c.label === 'anthropic cassettes #0')!;
    const { value, dropped } = await transcript(a, thinking.id, 'OPENAI_CHAT');
    expect(Array.isArray(value)).toBe(true);
    const reasoning = dropped.filter((d) => d.what === 'reasoning');
    expect(reasoning.length).toBeGreaterThan(0);
    expect(reasoning[0]!.itemId).toMatch(new RegExp(`^${thinking.id}:\\d+$`));
    expect(reasoning[0]!.why).toMatch(/OpenAI Chat/);
    // Every other format: a value, and the common core (tool calls) converted.
    for (const format of ['OPENAI_RESPONSES', 'AI_SDK_UI_MESSAGES', 'CLAUDE_CODE_JSONL']) {
      const other = await transcript(a, thinking.id, format);
      expect(JSON.stringify(other.value)).toContain('get_user_country');
    }
  });

  it('the CLI writes a fixture to stdout and lists what it dropped on stderr', async () => {
    const swe = imported.find((c) => c.label === 'swe-agent #0')!;
    const env = { DATABASE_URL: t.url };
    const args = (format: string) => ({
      script: 'src/transcripts/export-cli.ts',
      args: [swe.id, '--format', format, '--tenant', 'tenant-a'],
      timeoutMs: 60_000,
    });
    const same = await runToExit(env, args('OPENAI_CHAT'));
    expect(same.code, same.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(same.stdout))).toBe(JSON.stringify(swe.expected));
    expect(same.stderr).toMatch(/0 things the format cannot carry/);
    const thinking = imported.find((c) => c.label === 'anthropic cassettes #0')!;
    const across = await runToExit(env, {
      ...args('OPENAI_CHAT'),
      args: [thinking.id, '--format', 'OPENAI_CHAT', '--tenant', 'tenant-a'],
    });
    expect(across.code, across.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(across.stdout))).toBe(true);
    expect(across.stderr).toMatch(
      new RegExp(`dropped ${thinking.id}:\\d+ \\(seq \\d+\\): reasoning`),
    );
    const lines = await runToExit(env, args('THREADSTORE_JSONL'));
    expect(lines.stdout.trimEnd().split('\n')).toHaveLength(1 + 35);
    const missing = await runToExit(env, {
      ...args('OPENAI_CHAT'),
      args: ['nope', '--format', 'OPENAI_CHAT'],
    });
    expect(missing.code).toBe(1);
  });
});

describe('across formats: what a format cannot carry is converted or listed', () => {
  type Block = { type: string; text?: string; citations?: Record<string, unknown>[] };
  /** The web search exchange: its response's blocks and the imported thread. */
  const webSearch = () => {
    const c = imported.find((x) => x.label === 'anthropic cassettes #11')!;
    const messages = (c.expected as { messages: { content: Block[] }[] }).messages;
    const blocks = messages.at(-1)!.content;
    // Items: the user message (seq 0), then one per block of the response.
    const texts = blocks.flatMap((b, k) => (b.type === 'text' ? [{ ...b, seq: 1 + k }] : []));
    return { c, texts, cited: texts.filter((b) => b.citations) };
  };

  it('Anthropic text blocks go to OPENAI_CHAT unjoined; their citations are listed as dropped', async () => {
    const { c, texts, cited } = webSearch();
    expect(texts).toHaveLength(19);
    expect(cited).toHaveLength(9);
    const { value, dropped } = await transcript(a, c.id, 'OPENAI_CHAT');
    const assistant = (value as Record<string, unknown>[])[1]!;
    // Each text block its own part: the text is exactly the model's, nothing joined in.
    expect(assistant).toEqual({
      role: 'assistant',
      content: texts.map((b) => ({ type: 'text', text: b.text })),
    });
    expect(dropped.filter((d) => String(d.what).includes('citations'))).toEqual(
      cited.map((b) => ({
        itemId: `${c.id}:${b.seq}`,
        seq: b.seq,
        what: 'text part 0: citations (web_search_result_location)',
        why: 'OpenAI Chat has no equivalent of an Anthropic web_search_result_location citation',
      })),
    );
  });

  it('Anthropic web search citations become Responses url_citation annotations (cited_text and encrypted_index listed)', async () => {
    const { c, texts, cited } = webSearch();
    const { value, dropped } = await transcript(a, c.id, 'OPENAI_RESPONSES');
    const assistant = (value as Record<string, unknown>[]).filter((m) => m.role === 'assistant');
    // The response's text blocks are one Anthropic message: one assistant message, a part each.
    expect(assistant).toEqual([
      {
        role: 'assistant',
        content: texts.map((b) => ({
          type: 'output_text',
          text: b.text,
          annotations: (b.citations ?? []).map((x) => ({
            type: 'url_citation',
            start_index: 0,
            end_index: [...b.text!].length,
            url: x.url,
            title: x.title,
          })),
        })),
      },
    ]);
    // "Temperature: 66°F with clear skies": 34 characters.
    expect(
      (assistant[0]!.content as { annotations: { end_index: number }[] }[])[1]!.annotations[0]!
        .end_index,
    ).toBe(34);
    expect(dropped.filter((d) => String(d.what).includes('citations'))).toEqual(
      cited.map((b) => ({
        itemId: `${c.id}:${b.seq}`,
        seq: b.seq,
        what: 'text part 0: citations[].cited_text, citations[].encrypted_index',
        why: 'a url_citation annotation carries url, title and the span only',
      })),
    );
  });

  it('Anthropic web search citations become AI SDK source-url parts after their text', async () => {
    const { c, texts } = webSearch();
    const { value, dropped } = await transcript(a, c.id, 'AI_SDK_UI_MESSAGES');
    const parts = (value as { role: string; parts: Record<string, unknown>[] }[])[1]!.parts;
    expect(parts.filter((p) => p.type === 'text' || p.type === 'source-url')).toEqual(
      texts.flatMap((b) => [
        { type: 'text', text: b.text },
        ...(b.citations ?? []).map((x, j) => ({
          type: 'source-url',
          sourceId: `${c.id}:${b.seq}:0:${j}`,
          url: x.url,
          title: x.title,
          providerMetadata: {
            anthropic: { citedText: x.cited_text, encryptedIndex: x.encrypted_index },
          },
        })),
      ]),
    );
    expect(dropped.filter((d) => String(d.what).includes('citations'))).toEqual([]);
  });

  it('Responses instructions are the system prompt in other formats and instructions in its own request', async () => {
    const c = imported.find((x) => x.label === 'responses cassettes #9')!;
    const instructions = 'You are a helpful assistant.';
    const first = async (format: string) => {
      const { value } = await transcript(a, c.id, format);
      return value;
    };
    expect(((await first('OPENAI_CHAT')) as unknown[])[0]).toEqual({
      role: 'system',
      content: instructions,
    });
    expect(((await first('ANTHROPIC_MESSAGES')) as { system: unknown }).system).toBe(instructions);
    expect(((await first('AI_SDK_UI_MESSAGES')) as unknown[])[0]).toEqual({
      id: `msg-0`,
      role: 'system',
      parts: [{ type: 'text', text: instructions }],
    });
    // Its own format: the item list exactly as before (the round trip test), nothing dropped.
    const own = await transcript(a, c.id, 'OPENAI_RESPONSES');
    expect(JSON.stringify(own.value)).toBe(JSON.stringify(c.expected));
    expect(own.dropped).toEqual([]);
    const context = async (format: string) => {
      const res = await a.request(CONTEXT, { id: c.id, format });
      expect(res.errors).toBeUndefined();
      return (res.data as { thread: { modelContext: Record<string, unknown> } }).thread
        .modelContext;
    };
    const responses = await context('OPENAI_RESPONSES');
    expect(Object.keys(responses)).toEqual(['instructions', 'input']);
    expect(responses.instructions).toBe(instructions);
    expect(checkResponses(responses)).toEqual([]);
    const anthropic = await context('ANTHROPIC_MESSAGES');
    expect(anthropic.system).toBe(instructions);
    expect(checkAnthropic(anthropic)).toEqual([]);
    const chat = await context('OPENAI_CHAT');
    expect((chat.messages as unknown[])[0]).toEqual({ role: 'system', content: instructions });
    expect(checkChat(chat)).toEqual([]);
  });

  it('an AI SDK assistant image goes to neither OpenAI format and is listed', async () => {
    const ui = [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Chart the sales.' }] },
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          { type: 'text', text: 'Here it is:' },
          { type: 'file', mediaType: 'image/png', url: 'https://example.com/chart.png' },
        ],
      },
    ];
    const created = await a.execute(
      `mutation($input: ImportTranscriptInput!) { importTranscript(input: $input) { thread { id } } }`,
      { input: { format: 'AI_SDK_UI_MESSAGES', transcript: ui, agentId: 'export-test' } },
    );
    const id = created.importTranscript.thread.id as string;
    const image = {
      itemId: `${id}:2`,
      seq: 2,
      what: 'image',
    };
    const chat = await transcript(a, id, 'OPENAI_CHAT');
    expect(chat.value).toEqual([
      { role: 'user', content: 'Chart the sales.' },
      { role: 'assistant', content: 'Here it is:' },
    ]);
    expect(chat.dropped).toEqual([
      {
        ...image,
        why: 'an OpenAI Chat assistant message takes text and refusal parts only, no images',
      },
    ]);
    const responses = await transcript(a, id, 'OPENAI_RESPONSES');
    expect(responses.value).toEqual([
      { role: 'user', content: 'Chart the sales.' },
      { role: 'assistant', content: 'Here it is:' },
    ]);
    expect(responses.dropped).toEqual([
      {
        ...image,
        why: 'an OpenAI Responses assistant message takes output_text and refusal parts only, no images',
      },
    ]);
    // Its own format keeps it.
    expect((await transcript(a, id, 'AI_SDK_UI_MESSAGES')).value).toEqual(ui);
  });
});

describe('model context', () => {
  it('is the provider request shape with a compaction record applied', async () => {
    const run = imported.find((c) => c.label === 'tau-bench #0')!;
    await a.execute(
      `mutation($input: AddCompactionInput!) { addCompaction(input: $input) { compaction { id } } }`,
      {
        input: {
          threadId: run.id,
          startSeq: 1,
          endSeq: 4,
          summary: 'The customer asked to change a flight.',
        },
      },
    );
    const get = async (format: string) => {
      const res = await a.request(CONTEXT, { id: run.id, format });
      expect(res.errors).toBeUndefined();
      return (res.data as { thread: { modelContext: Record<string, unknown> } }).thread
        .modelContext;
    };
    const chat = await get('OPENAI_CHAT');
    expect(checkChat(chat)).toEqual([]);
    const responses = await get('OPENAI_RESPONSES');
    expect(checkResponses(responses)).toEqual([]);
    const anthropic = await get('ANTHROPIC_MESSAGES');
    expect(checkAnthropic(anthropic)).toEqual([]);
    for (const request of [chat, responses, anthropic]) {
      expect(JSON.stringify(request)).toContain('threadstore compaction summary of items 1-4');
      expect(JSON.stringify(request)).toContain('The customer asked to change a flight.');
    }
    const bad = await a.expectError(CONTEXT, { id: run.id, format: 'THREADSTORE_JSONL' });
    expect(bad.code).toBe('BAD_USER_INPUT');
  });
});

describe('THREADSTORE_JSONL', () => {
  it('a dump restored on the other database and dumped again is byte-identical', async () => {
    const run = imported.find((c) => c.label === 'claude code #0')!;
    await a.execute(
      `mutation($input: UpdateThreadInput!) { updateThread(input: $input) { thread { id } } }`,
      {
        input: { id: run.id, name: 'dumped', metadata: { k: [1, 'é', null] } },
      },
    );
    await a.execute(
      `mutation($input: AddCompactionInput!) { addCompaction(input: $input) { compaction { id } } }`,
      { input: { threadId: run.id, startSeq: 0, endSeq: 1, summary: 'Setup.' } },
    );
    const dump = (await transcript(a, run.id, 'THREADSTORE_JSONL')).value as unknown[];
    const text = (lines: unknown[]) => lines.map((l) => `${JSON.stringify(l)}\n`).join('');
    const streamed = await (await exported(run.id, 'THREADSTORE_JSONL')).text();
    expect(streamed).toBe(text(dump));

    const other = testProvider === 'sqlite' ? 'postgresql' : 'sqlite';
    const database = await createDatabase(other, { serverUrl: testPostgresUrl, label: 'restore' });
    const there = await buildTestApp(ENV, {}, database);
    try {
      const b = there.as(bearerA);
      const restored = await b.execute(
        `mutation($input: ImportTranscriptInput!) { importTranscript(input: $input) { thread { id } itemsImported compactionsImported } }`,
        {
          input: { format: 'THREADSTORE_JSONL', transcript: dump, agentId: 'export-test' },
        },
      );
      expect(restored.importTranscript.compactionsImported).toBe(1);
      const again = (await transcript(b, run.id, 'THREADSTORE_JSONL')).value as unknown[];
      expect(text(again)).toBe(text(dump));
    } finally {
      await there.close();
      await database.drop();
    }
  });
});

describe('streaming a large thread', () => {
  const N = 100_000;
  let threadId: string;
  let server: ServerProcess;

  beforeAll(async () => {
    const created = await a.execute(
      `mutation { createThread(input: { agentId: "big" }) { thread { id } } }`,
    );
    threadId = created.createThread.thread.id;
    const filler = 'x'.repeat(600);
    const item = (seq: number): PreparedItem => ({
      type: 'message',
      status: 'COMPLETED',
      responseId: seq % 2 ? `resp-${seq}` : null,
      createdBy: null,
      createdAt: null,
      callId: null,
      dataJson: JSON.stringify({
        role: seq % 2 ? 'assistant' : 'user',
        content: `${seq} ${filler}`,
      }),
      rawJson: null,
      rawFormat: null,
    });
    const db = t.app.db.prisma;
    const now = new Date();
    for (let start = 0; start < N; start += 2_000) {
      const batch = Array.from({ length: Math.min(2_000, N - start) }, (_, i) => item(start + i));
      await db.$transaction(async (tx) => {
        await insertItems(tx as never, 'tenant-a', threadId, start, batch, now);
      });
    }
    await db.$executeRaw`UPDATE "Thread" SET "nextSeq" = ${N}, "itemCount" = ${N} WHERE "tenantId" = 'tenant-a' AND "id" = ${threadId}`;
    // A heap of 128 MB: a server that held the thread (~70 MB of JSON text, several times that
    // as objects) would die of it; V8 also collects within it rather than growing lazily. Not
    // less: the app's heap at rest is ~70 MB, and at 96 MB V8 ran a full GC at nearly every
    // PostgreSQL page statement (180 per export, 5x slower); at 128 MB both databases stream
    // 100k items in ~3 s.
    server = await startServer(
      { DATABASE_URL: t.url, ...ENV, LOG_LEVEL: 'warn' },
      { nodeArgs: ['--max-old-space-size=128'] },
    );
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
  });

  const peakKb = () => {
    const status = readFileSync(`/proc/${server.process.pid}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]);
  };

  /** Reads a response body counting newlines and bytes, holding one chunk at a time. */
  async function drain(res: Response): Promise<{ lines: number; bytes: number; head: string }> {
    let lines = 0;
    let bytes = 0;
    let head = '';
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      const s = decoder.decode(chunk, { stream: true });
      if (head.length < 200) head += s.slice(0, 200);
      for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) lines++;
    }
    return { lines, bytes, head };
  }

  it('streams 100k items as JSONL and as a JSON array with bounded server memory', async () => {
    const url = (format: string) => `${server.url}/threads/${threadId}/export?format=${format}`;
    // Warm up (code loaded, pools open), then measure the peak's growth.
    await drain(
      await fetch(url('OPENAI_CHAT').replace(threadId, 'missing'), {
        headers: { authorization: bearerA },
      }),
    );
    const before = peakKb();
    const started = performance.now();
    const dump = await fetch(url('THREADSTORE_JSONL'), { headers: { authorization: bearerA } });
    expect(dump.status).toBe(200);
    expect(dump.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const d = await drain(dump);
    expect(d.lines).toBe(1 + N);
    const chat = await fetch(url('OPENAI_CHAT'), { headers: { authorization: bearerA } });
    const c = await drain(chat);
    const seconds = (performance.now() - started) / 1000;
    expect(c.head.startsWith('[{"role":"user","content":"0 x')).toBe(true);
    const grewMb = (peakKb() - before) / 1024;
    console.log(
      `export of ${N} items: ${(d.bytes / 2 ** 20).toFixed(0)} MB JSONL, ${(c.bytes / 2 ** 20).toFixed(0)} MB JSON; both in ${seconds.toFixed(1)} s (${Math.round((2 * N) / seconds)} items/s); server peak RSS grew ${grewMb.toFixed(1)} MB (from ${(before / 1024).toFixed(0)} MB)`,
    );
    // One page is ~0.3 MB; holding the thread would take several times its 78 MB of JSONL.
    expect(grewMb).toBeLessThan(96);
  }, 120_000);

  it('is refused without credentials, without threads:read, and for another tenant', async () => {
    const url = `${server.url}/threads/${threadId}/export?format=THREADSTORE_JSONL`;
    const none = await fetch(url, { headers: { 'x-graphql-yoga-csrf': '1' } });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(
      ((await none.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions
        .code,
    ).toBe('UNAUTHENTICATED');
    const other = await fetch(url, { headers: { authorization: bearerB } });
    const missing = await fetch(url.replace(threadId, 'no-such-thread'), {
      headers: { authorization: bearerB },
    });
    expect(other.status).toBe(404);
    const otherBody = (await other.json()) as {
      errors: { message: string; extensions: { code: string } }[];
    };
    const missingBody = (await missing.json()) as typeof otherBody;
    expect(otherBody.errors[0]!.extensions.code).toBe('NOT_FOUND');
    // Another tenant's thread answers as a missing one does (only the id differs).
    expect(otherBody.errors[0]!.message.replace(threadId, 'X')).toBe(
      missingBody.errors[0]!.message.replace('no-such-thread', 'X'),
    );
    const readless = await fetch(url, {
      headers: { authorization: `Bearer ${await jwt('tenant-a', 'threads:write')}` },
    });
    expect(readless.status).toBe(403);
    const badFormat = await fetch(url.replace('THREADSTORE_JSONL', 'CSV'), {
      headers: { authorization: bearerA },
    });
    expect(badFormat.status).toBe(400);
    expect(
      ((await badFormat.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!
        .extensions.code,
    ).toBe('BAD_USER_INPUT');
  });
});
