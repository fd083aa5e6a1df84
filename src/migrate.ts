/**
 * `npm run migrate`: applies the committed migrations of DATABASE_URL's provider and exits,
 * for deploy pipelines that migrate before rolling out. Instances also migrate at start;
 * concurrent runs on PostgreSQL serialise on an advisory lock, so this is always safe.
 */
import { openDatabase } from './db/client.js';
import { parseEnv } from './env.js';

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
  console.error(`migrate failed: ${(error as Error).message}`);
  process.exit(1);
}
