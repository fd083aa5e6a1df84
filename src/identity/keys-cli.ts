/**
 * `npm run keys -- <command>`: API keys for agents and scripts, without a running server.
 *
 *   create --tenant <tenantId> --scopes <scope,...> --name <name>   prints only the secret
 *   revoke <id>                                                     id: apikey:k... or k...
 *   list --tenant <tenantId>                                        id, name, scopes, dates
 *
 * `--database <url>` overrides DATABASE_URL. Exit code 0 on success, 1 on failure, 2 for bad
 * usage. Failures are one line on stderr; the secret is the only thing `create` writes to
 * stdout, once (it is stored only as a hash).
 */
import { parseArgs } from 'node:util';
import { runCommand } from '../cli.js';
import { type Database, openDatabase } from '../db/client.js';
import { parseEnv } from '../env.js';
import { ThreadstoreError } from '../errors.js';
import { apiKeyNodeId, parseApiKeyId } from '../ids.js';
import { createApiKeyFor, listApiKeys } from './api-key.service.js';
import { revokeApiKeyRow, selectApiKey } from './api-key.store.js';
import { anonymousIdentity, SCOPES } from './identity.js';

const USAGE = `usage: npm run keys -- create --tenant <tenantId> --scopes <${SCOPES.join(',')}> --name <name>
       npm run keys -- revoke <id>
       npm run keys -- list --tenant <tenantId>
options: --database <url> (default DATABASE_URL)`;

class UsageError extends Error {}

/** The command line's command, options and arguments. @throws UsageError */
function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        tenant: { type: 'string' },
        scopes: { type: 'string' },
        name: { type: 'string' },
        database: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function required(value: string | undefined, option: string): string {
  if (!value) throw new UsageError(`${option} is required`);
  return value;
}

/** Runs one command against `db`; returns what to print on stdout. */
async function run(
  db: Database,
  command: string | undefined,
  argv: ReturnType<typeof parseCommandLine>,
) {
  const { values, positionals } = argv;
  if (command === 'create') {
    const { secret } = await createApiKeyFor(db, {
      tenantId: required(values.tenant, '--tenant'),
      name: required(values.name, '--name'),
      scopes: required(values.scopes, '--scopes')
        .split(',')
        .map((s) => s.trim()),
    });
    return secret;
  }
  if (command === 'revoke') {
    const keyId = parseApiKeyId(required(positionals[1], '<id>'));
    const key = keyId ? await selectApiKey(db.prisma, keyId) : null;
    if (!key) throw new ThreadstoreError('NOT_FOUND', `no API key ${positionals[1]}`);
    const revoked = await revokeApiKeyRow(db.prisma, key.tenantId, key.id, new Date());
    return `revoked ${apiKeyNodeId(key.id)} (${key.name}, tenant ${key.tenantId}) at ${revoked?.revokedAt?.toISOString()}`;
  }
  if (command === 'list') {
    const tenantId = required(values.tenant, '--tenant');
    const keys = await listApiKeys({ db, identity: anonymousIdentity(tenantId) });
    return keys
      .map((k) =>
        [
          apiKeyNodeId(k.id),
          k.name,
          k.scopes.join(','),
          k.createdAt.toISOString(),
          k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active',
        ].join('  '),
      )
      .join('\n');
  }
  throw new UsageError(command ? `unknown command "${command}"` : 'a command is required');
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
    if (parsed.values.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (!['create', 'revoke', 'list'].includes(parsed.positionals[0] ?? '')) {
      throw new UsageError(
        parsed.positionals[0]
          ? `unknown command "${parsed.positionals[0]}"`
          : 'a command is required',
      );
    }
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const env = parseEnv();
  const db = await openDatabase(parsed.values.database ?? env.DATABASE_URL, {
    setting: parsed.values.database === undefined ? 'DATABASE_URL' : '--database',
  });
  try {
    const output = await run(db, parsed.positionals[0], parsed);
    if (output) process.stdout.write(`${output}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof ThreadstoreError) {
      process.stderr.write(`keys: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await db.close();
  }
}

runCommand(main);
