/**
 * `npm run export -- <threadId> --format <format> [--tenant <tenantId>] [--database <url>]`
 *
 * Writes one thread in a TranscriptFormat to stdout, read page by page from the database and
 * written as it goes (export-stream.ts; what GET /threads/<id>/export sends): line formats
 * (THREADSTORE_JSONL, CLAUDE_CODE_JSONL) one JSON value a line, the others one JSON document.
 * stderr: one line per thing the format could not carry ("dropped <itemId> (seq <n>): <what>:
 * <why>") and a count. Acts as the operator of the tenant named (default DEFAULT_TENANT).
 * Exit code 0 when written, 1 when the thread does not exist (or anything else failed), 2 for
 * bad usage.
 */
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { operatorContext, runCommand } from '../cli.js';
import type { ServiceContext } from '../context.js';
import { findThread } from '../threads/thread.service.js';
import { exportChunks, shapeOf } from './export-stream.js';
import { type Dropped, TRANSCRIPT_FORMATS, type TranscriptFormat } from './types.js';

const USAGE =
  'usage: npm run export -- <threadId> --format <format> [--tenant <tenantId>] [--database <url>]';

function parseCommandLine(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      format: { type: 'string' },
      tenant: { type: 'string' },
      database: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });
}

/** Writes to stdout, waiting while it is full (a slow pipe holds one page, not the thread). */
async function out(text: string): Promise<void> {
  if (text && !process.stdout.write(text)) await once(process.stdout, 'drain');
}

function droppedLine(d: Dropped): string {
  const where = d.itemId === null ? 'thread' : `${d.itemId} (seq ${d.seq})`;
  return `dropped ${where}: ${d.what}: ${d.why}\n`;
}

/** Writes the thread's chunks to stdout in the format's shape; returns what was dropped. */
async function writeThread(
  ctx: ServiceContext,
  thread: NonNullable<Awaited<ReturnType<typeof findThread>>>,
  format: TranscriptFormat,
): Promise<number> {
  const shape = shapeOf(format);
  let count = 0;
  let first = true;
  let opened = false;
  for await (const chunk of exportChunks(ctx, thread, format)) {
    for (const d of chunk.dropped) process.stderr.write(droppedLine(d));
    count += chunk.dropped.length;
    if (shape === 'lines') {
      await out(chunk.values.map((v) => `${JSON.stringify(v)}\n`).join(''));
      continue;
    }
    if (!opened) {
      const system =
        chunk.system === undefined ? '' : `\n"system": ${JSON.stringify(chunk.system)},`;
      await out(shape === 'array' ? '[' : `{${system}\n"messages": [`);
      opened = true;
    }
    for (const v of chunk.values) {
      await out(`${first ? '' : ','}\n${JSON.stringify(v)}`);
      first = false;
    }
  }
  if (shape !== 'lines') {
    if (!opened) await out(shape === 'array' ? '[' : '{\n"messages": [');
    await out(shape === 'array' ? '\n]\n' : '\n]\n}\n');
  }
  return count;
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const format = values.format as TranscriptFormat | undefined;
  if (positionals.length !== 1 || !format || !TRANSCRIPT_FORMATS.includes(format)) {
    process.stderr.write(
      `give one thread id and --format, one of ${TRANSCRIPT_FORMATS.join(', ')}\n${USAGE}\n`,
    );
    return 2;
  }
  const ctx = await operatorContext(values);
  try {
    const threadId = positionals[0]!;
    const thread = await findThread(ctx, threadId);
    if (!thread) {
      process.stderr.write(
        `thread ${JSON.stringify(threadId)} does not exist in tenant ${ctx.tenantId}\n`,
      );
      return 1;
    }
    const dropped = await writeThread(ctx, thread, format);
    process.stderr.write(
      `exported thread ${thread.id} as ${format}; ${dropped} things the format cannot carry were left out${dropped ? ' (listed above)' : ''}\n`,
    );
    return 0;
  } finally {
    await ctx.db.close();
  }
}

runCommand(main);
