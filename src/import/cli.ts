/**
 * `npm run import -- [--format <f>] [--tenant <t>] [--agent <a>] [--id-prefix <p>]
 *   [--database <url>] <file or directory>...`
 *
 * A directory stands for the .json, .jsonl and .traj files directly in it (not its
 * subdirectories), in name order.
 *
 * Imports transcripts in any TranscriptFormat (file-source.ts: JSON or JSONL, streamed one
 * conversation at a time), one thread per conversation, each in one transaction through the
 * same services as the importTranscript mutation (import.service.ts). The format is detected
 * when --format is left out, and said on stdout. Importing a conversation again creates
 * nothing: its idempotency key is a SHA-256 of its content (import.service.ts, contentKey).
 * With --id-prefix, thread ids are the prefix plus 32 hex digits of that hash (the same file
 * gives the same ids); otherwise they are random UUIDs. A THREADSTORE_JSONL dump keeps its
 * thread id (and its agentId: --agent must be the dump's, restore.service.ts); with
 * --id-prefix its id is the prefix plus the dump's id.
 *
 * stdout: one line per file (its format), one per conversation (created or already
 * imported), a summary, and last `created threads: <id> <id> ...`. stderr: one line per
 * failure, "<file>: <line or index>: <why>"; nothing of a failed conversation is written, the
 * others are imported. Exit code 0 when everything was imported, 1 when anything failed, 2 for
 * bad usage.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { operatorContext, runCommand } from '../cli.js';
import type { ServiceContext } from '../context.js';
import { ThreadstoreError } from '../errors.js';
import { jsonHash } from '../json.js';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../transcripts/types.js';
import { readSource, type SourceUnit, UnknownFormatError } from './file-source.js';
import { contentKey, type ImportResult, importConversation, scalarMeta } from './import.service.js';
import { restoreDump } from './restore.service.js';

const USAGE =
  'usage: npm run import -- [--format <format>] [--tenant <tenantId>] [--agent <agentId>] [--id-prefix <prefix>] [--database <url>] <file or directory>...\n  a directory imports the .json, .jsonl and .traj files directly in it, in name order';
const DEFAULT_AGENT_ID = 'transcript-import';

/** The command line's options and files. @throws TypeError for an unknown option */
function parseCommandLine(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      format: { type: 'string' },
      agent: { type: 'string' },
      tenant: { type: 'string' },
      'id-prefix': { type: 'string' },
      database: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });
}

type Options = ReturnType<typeof parseCommandLine>['values'];

/** File names a directory argument stands for (file-source.ts reads JSON and JSONL). */
const DIRECTORY_EXTENSIONS = new Set(['.json', '.jsonl', '.traj']);

/**
 * The files to import: each argument, a directory replaced by its files with those extensions
 * (sorted by name, not recursive). A path that cannot be read stays, for importFile to report.
 */
function expandDirectories(paths: string[]): string[] {
  return paths.flatMap((path) => {
    let names: string[];
    try {
      if (!statSync(path).isDirectory()) return [path];
      names = readdirSync(path, { withFileTypes: true })
        .filter((e) => e.isFile() && DIRECTORY_EXTENSIONS.has(extname(e.name).toLowerCase()))
        .map((e) => e.name);
    } catch {
      return [path];
    }
    return names.sort().map((name) => join(path, name));
  });
}

/** Counts over the whole run. */
interface Tally {
  created: string[];
  items: number;
  replayed: number;
  failed: number;
}

/** The prefix of an error that names a place in the source (the file's line or index). */
const SOURCE_PREFIX = 'transcript: ';

/** Imports one unit of a file; prints what happened. */
async function importUnit(
  ctx: ServiceContext,
  file: string,
  format: TranscriptFormat,
  unit: Exclude<SourceUnit, { kind: 'format' }>,
  values: Options,
  tally: Tally,
): Promise<void> {
  if (unit.kind === 'failure') {
    tally.failed += 1;
    const where = unit.location ? `${unit.location}: ` : '';
    process.stderr.write(`${file}: ${where}${unit.reason}\n`);
    return;
  }
  const name = basename(file);
  let result: ImportResult;
  let label: string;
  try {
    if (unit.kind === 'dump') {
      // A dump keeps its thread id (and restores byte-identical); --id-prefix puts the prefix
      // before it, so a copy can be restored next to the original (the key covers the prefix).
      const prefix = values['id-prefix'];
      const key = `content-sha256:${jsonHash(prefix === undefined ? unit.lines : { lines: unit.lines, prefix })}`;
      const dumpId = unit.lines[0] as { id?: unknown } | undefined;
      const threadId =
        prefix === undefined || typeof dumpId?.id !== 'string' ? null : `${prefix}${dumpId.id}`;
      label = `${name} (dump)`;
      result = await restoreDump(ctx, unit.lines, {
        threadId,
        agentId: values.agent,
        idempotencyKey: key,
      });
    } else {
      const { conversation } = unit;
      const key = contentKey(format, conversation);
      const prefix = values['id-prefix'];
      label = `${name} #${conversation.index}`;
      result = await importConversation(ctx, conversation, {
        threadId: prefix === undefined ? null : `${prefix}${key.split(':')[1]!.slice(0, 32)}`,
        agentId: values.agent ?? DEFAULT_AGENT_ID,
        name: label,
        metadata: {
          ...scalarMeta(conversation.meta),
          importedFrom: name,
          conversationIndex: conversation.index,
          format,
        },
        idempotencyKey: key,
        keyCovers: 'content',
      });
    }
  } catch (error) {
    if (!(error instanceof ThreadstoreError)) throw error;
    tally.failed += 1;
    // An item named by its source record ("transcript: line 12: ...") names the file's line or
    // index already; anything else is named within its conversation.
    const message = error.message.startsWith(SOURCE_PREFIX)
      ? error.message.slice(SOURCE_PREFIX.length)
      : `${unit.kind === 'conversation' ? `conversation ${unit.conversation.index}: ` : ''}${error.message}`;
    process.stderr.write(`${file}: ${message}\n`);
    return;
  }
  const { thread } = result;
  if (result.replayed) {
    tally.replayed += 1;
    process.stdout.write(`${thread.id}  ${label}  already imported, nothing written\n`);
    return;
  }
  tally.created.push(thread.id);
  tally.items += result.itemsImported;
  const records = result.compactionsImported ? `, ${result.compactionsImported} compactions` : '';
  process.stdout.write(`${thread.id}  ${label}  ${result.itemsImported} items${records}\n`);
}

/** Imports every conversation of one file. */
async function importFile(
  ctx: ServiceContext,
  file: string,
  values: Options,
  tally: Tally,
): Promise<void> {
  let format: TranscriptFormat | null = null;
  try {
    for await (const unit of readSource(file, (values.format as TranscriptFormat) ?? null)) {
      if (unit.kind === 'format') {
        format = unit.format;
        process.stdout.write(`${file}: format ${format}${unit.detected ? ' (detected)' : ''}\n`);
        continue;
      }
      await importUnit(ctx, file, format!, unit, values, tally);
    }
  } catch (error) {
    const known = error instanceof UnknownFormatError || (error as { code?: string }).code;
    if (!known) throw error;
    tally.failed += 1;
    process.stderr.write(`${file}: ${(error as Error).message}\n`);
  }
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
  if (values.help || positionals.length === 0) {
    (values.help ? process.stdout : process.stderr).write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  if (values.format && !(TRANSCRIPT_FORMATS as readonly string[]).includes(values.format)) {
    process.stderr.write(`--format must be one of ${TRANSCRIPT_FORMATS.join(', ')}\n${USAGE}\n`);
    return 2;
  }
  const files = expandDirectories(positionals);
  if (files.length === 0) {
    process.stderr.write(
      `no .json, .jsonl or .traj files in ${positionals.join(', ')}\n${USAGE}\n`,
    );
    return 2;
  }
  const ctx = await operatorContext(values);
  const tally: Tally = { created: [], items: 0, replayed: 0, failed: 0 };
  try {
    for (const file of files) await importFile(ctx, file, values, tally);
    const again = tally.replayed ? `; ${tally.replayed} already imported (nothing written)` : '';
    const problems = tally.failed ? `; ${tally.failed} failed (see stderr)` : '';
    process.stdout.write(
      `imported ${tally.created.length} threads with ${tally.items} items from ${files.length} files${again}${problems}\n`,
    );
    process.stdout.write(`created threads:${tally.created.map((id) => ` ${id}`).join('')}\n`);
  } finally {
    await ctx.db.close();
  }
  return tally.failed ? 1 : 0;
}

runCommand(main);
