/**
 * Behaviour that differs between databases unless we make it the same (issue: one suite, two
 * databases): U+0000, JSON null versus an absent key, id ordering, millisecond timestamps.
 * Runs on both providers like every integration test; the expected values are written out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { append, createThread } from './testkit/seed.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('the same on SQLite and PostgreSQL', () => {
  it('keeps U+0000 in JSON values and rejects it in text columns with BAD_USER_INPUT', async () => {
    const id = await createThread(t, {
      metadata: { 'k\u0000': 'v\u0000w', nested: { s: '\u0000' } },
    });
    await append(t, id, [
      { message: { role: 'user', content: 'a\u0000b' } },
      { other: { type: 'blob', data: { x: '\u0000', '\u0000': ['\u0000'] } } },
    ]);
    const r = await t.execute(
      `query($id: ID!) { thread(id: $id) { metadata items { edges { node {
      ... on MessageItem { content } ... on OtherItem { data } } } } } }`,
      { id },
    );
    expect(r.thread.metadata).toEqual({ 'k\u0000': 'v\u0000w', nested: { s: '\u0000' } });
    expect(r.thread.items.edges[0].node.content).toBe('a\u0000b');
    expect(r.thread.items.edges[1].node.data).toEqual({ x: '\u0000', '\u0000': ['\u0000'] });
    const filtered = await t.execute(
      `query($m: JSON) { threads(filter: { metadata: $m }) { totalCount } }`,
      {
        m: { 'k\u0000': 'v\u0000w' },
      },
    );
    expect(filtered.threads.totalCount).toBe(1);

    const cases: [string, Record<string, unknown>][] = [
      [
        'mutation($v: String!) { createThread(input: { agentId: "a", name: $v }) { thread { id } } }',
        { v: 'x\u0000' },
      ],
      [
        'mutation($v: String!) { createThread(input: { agentId: $v }) { thread { id } } }',
        { v: '\u0000' },
      ],
      [
        'mutation($id: ID!, $v: String!) { appendItems(input: { threadId: $id, items: [{ createdBy: $v, message: { role: "user", content: "x" } }] }) { replayed } }',
        { id, v: 'bot\u0000' },
      ],
      [
        'mutation($id: ID!, $v: String!) { appendItems(input: { threadId: $id, idempotencyKey: $v, items: [{ message: { role: "user", content: "x" } }] }) { replayed } }',
        { id, v: 'k\u0000' },
      ],
      [
        'mutation($id: ID!, $v: String!) { addCompaction(input: { threadId: $id, startSeq: 0, endSeq: 0, summary: $v }) { compaction { id } } }',
        { id, v: 'sum\u0000' },
      ],
      [
        'query($v: String) { threads(filter: { nameContains: $v }) { totalCount } }',
        { v: '\u0000' },
      ],
    ];
    for (const [query, variables] of cases) {
      const error = await t.expectError(query, variables);
      expect(error.code, query).toBe('BAD_USER_INPUT');
      expect(error.message).toContain('U+0000');
    }
    const after = await t.execute(
      `query($id: ID!) { thread(id: $id) { nextSeq compactions { id } } }`,
      { id },
    );
    expect(after.thread).toEqual({ nextSeq: 2, compactions: [] });
  });

  it('tells JSON null from an absent key', async () => {
    const withNull = await createThread(t, { metadata: { a: null } });
    const without = await createThread(t, { metadata: {} });
    const r = await t.execute(
      `query($x: ID!, $y: ID!) { x: thread(id: $x) { metadata } y: thread(id: $y) { metadata } }`,
      {
        x: withNull,
        y: without,
      },
    );
    expect(r.x.metadata).toEqual({ a: null });
    expect(Object.keys(r.x.metadata)).toEqual(['a']);
    expect(r.y.metadata).toEqual({});
    const f = await t.execute(
      `{ threads(filter: { metadata: { a: null } }) { edges { node { id } } } }`,
    );
    expect(f.threads.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([withNull]);
  });

  it('orders ids bytewise (uppercase before lowercase) and keeps milliseconds in UTC', async () => {
    const ids = ['ord-b', 'ord-B', 'ord-a', 'ord-A', 'ord-_', 'ord-0'];
    for (const id of ids) await createThread(t, { id, agentId: 'ordering' });
    // Same updatedAt for all: ties are broken by id ascending, in code-point order.
    await t.app.db.prisma.thread.updateMany({
      where: { agentId: 'ordering' },
      data: { updatedAt: new Date('2026-01-02T03:04:05.678Z') },
    });
    const r = await t.execute(
      `{ threads(filter: { agentId: "ordering" }) { edges { node { id updatedAt } } } }`,
    );
    expect(r.threads.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([
      'ord-0',
      'ord-A',
      'ord-B',
      'ord-_',
      'ord-a',
      'ord-b',
    ]);
    expect(r.threads.edges[0].node.updatedAt).toBe('2026-01-02T03:04:05.678Z');
  });
});
