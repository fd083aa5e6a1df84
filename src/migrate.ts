/**
 * `npm run migrate`: applies the committed migrations of DATABASE_URL's provider and exits,
 * for deploy pipelines that migrate before rolling out. Instances also migrate at start;
 * concurrent runs on PostgreSQL serialise on an advisory lock, so this is always safe.
 * A failure is one line on stderr ("migrate failed: ...", no stack, no password) and exit 1.
 */
import { openDatabase } from './db/client.js';
import { ConfigError, parseEnv, redact } from './env.js';

try {
  const env = parseEnv();
  const db = await openDatabase(env.DATABASE_URL);
  console.log(
    db.appliedMigrations.length
      ? `applied: ${db.appliedMigrations.join(', ')}`
      : 'the database is up to date; nothing applied',
  );
  await db.close();
} catch (error) {
  const message = error instanceof ConfigError ? error.message : redact((error as Error).message);
  console.error(
    message
      .split('\n')
      .map((line) => `migrate failed: ${line}`)
      .join('\n'),
  );
  process.exit(1);
}
