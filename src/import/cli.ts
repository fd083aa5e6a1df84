/**
 * `npm run import -- [--agent <agentId>] [--database <url>] <file>...`
 *
 * Imports OpenAI Chat Completions transcripts (see openai-chat.ts for the layouts), one thread
 * per conversation. Every file is read, parsed and checked before anything is written; a bad
 * file is reported as "<file>: <where>: <why>" on stderr and skipped, the others are
 * imported. Exit code 0 when everything was imported, 1 when anything failed, 2 for bad usage.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand } from '../cli.js';
import { limitsFromEnv, type ServiceContext } from '../context.js';
import { openDatabase } from '../db/client.js';
import { parseEnv } from '../env.js';
import { anonymousIdentity } from '../identity/identity.js';
import { createEventBus } from '../pubsub/bus.js';
import {
  type PreparedConversation,
  prepareConversation,
  writeConversation,
} from './import.service.js';
import { parseTranscriptFile, TranscriptFormatError } from './openai-chat.js';

const USAGE =
  'usage: npm run import -- [--tenant <tenantId>] [--agent <agentId>] [--database <url>] <file>...';
const DEFAULT_AGENT_ID = 'openai-chat-import';

/** "<file>: <message>", without repeating the file when the error already names it. */
function failure(file: string, error: unknown): string {
  if (error instanceof TranscriptFormatError) return error.message;
  return `${file}: ${error instanceof Error ? error.message : String(error)}`;
}

/** The command line's options and files. @throws TypeError for an unknown option */
function parseCommandLine(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      agent: { type: 'string' },
      tenant: { type: 'string' },
      database: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals: files } = parsed;
  if (values.help || files.length === 0) {
    (values.help ? process.stdout : process.stderr).write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const env = parseEnv();
  const db = await openDatabase(values.database ?? env.DATABASE_URL, {
    setting: values.database === undefined ? 'DATABASE_URL' : '--database',
    sqliteSynchronous: env.SQLITE_SYNCHRONOUS,
  });
  const tenantId = values.tenant ?? env.DEFAULT_TENANT;
  const ctx: ServiceContext = {
    db,
    // The importer writes as its operator: every scope, in the tenant named (default DEFAULT_TENANT).
    identity: anonymousIdentity(tenantId),
    tenantId,
    events: createEventBus(),
    limits: limitsFromEnv(env),
  };
  const options = { agentId: values.agent ?? DEFAULT_AGENT_ID };
  let failed = 0;
  try {
    // Read, parse and check every file first: a bad file is skipped whole, before any write.
    const ready: { file: string; conversations: PreparedConversation[] }[] = [];
    for (const file of files) {
      try {
        const conversations = parseTranscriptFile(readFileSync(file, 'utf8'), file);
        const prepared = conversations.map((c) => prepareConversation(ctx, c, options));
        ready.push({ file, conversations: prepared });
      } catch (error) {
        failed += 1;
        process.stderr.write(`${failure(file, error)}\n`);
      }
    }
    let threads = 0;
    let items = 0;
    for (const { file, conversations } of ready) {
      for (const conversation of conversations) {
        try {
          const thread = await writeConversation(ctx, conversation);
          threads += 1;
          items += thread.itemCount;
          process.stdout.write(`${thread.id}  ${thread.name ?? ''}  ${thread.itemCount} items\n`);
        } catch (error) {
          failed += 1;
          process.stderr.write(`${failure(file, error)}\n`);
        }
      }
    }
    const problems = failed ? `; ${failed} failed (see above)` : '';
    const from = `from ${ready.length} of ${files.length} files`;
    process.stdout.write(`imported ${threads} threads with ${items} items ${from}${problems}\n`);
  } finally {
    await db.close();
  }
  return failed ? 1 : 0;
}

runCommand(main);
