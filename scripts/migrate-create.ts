/**
 * Writes a new committed migration for each provider: the SQL from the schema snapshot of the
 * newest committed migration to the current schema file, computed by Prisma's schema engine as
 * WebAssembly from the two datamodels alone (no binary download, no shadow database). Each
 * migration folder keeps `schema.prisma`, the snapshot the next change is diffed against.
 * Run `npm run schema:derive` first when prisma/schema.prisma changed. PostgreSQL needs a
 * reachable server for the engine to start (MIGRATE_POSTGRES_URL, default the local one).
 * Usage: npm run migrate:create -- <name>
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { diffSchemas, migrationsDir, type Provider, schemaPath } from '../src/db/migrations.js';

const name = (process.argv[2] ?? 'change').replace(/[^a-z0-9_]/gi, '_');
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const scratch = join(tmpdir(), `threadstore-diff-${process.pid}.db`);

for (const provider of ['sqlite', 'postgresql'] as const satisfies Provider[]) {
  const dir = migrationsDir(provider);
  const previous = existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
        .at(-1)
    : undefined;
  const from = previous ? readFileSync(join(dir, previous, 'schema.prisma'), 'utf8') : null;
  const to = readFileSync(schemaPath(provider), 'utf8');
  // The engine connects to a database of the provider on start, though a datamodel diff
  // reads nothing from it: a scratch SQLite file, or MIGRATE_POSTGRES_URL.
  const adapter =
    provider === 'sqlite'
      ? new PrismaBetterSqlite3({ url: scratch })
      : new PrismaPg({
          connectionString:
            process.env.MIGRATE_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
        });
  const sql = await diffSchemas(from, to, adapter);
  rmSync(scratch, { force: true });
  if (!sql) {
    console.log(`${provider}: the committed migrations already match the schema`);
    continue;
  }
  const folder = join(dir, `${stamp}_${name}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'migration.sql'), sql);
  writeFileSync(join(folder, 'schema.prisma'), to);
  if (!existsSync(join(dir, 'migration_lock.toml'))) {
    writeFileSync(join(dir, 'migration_lock.toml'), `provider = "${provider}"\n`);
  }
  console.log(`${provider}: wrote ${stamp}_${name}/migration.sql`);
}
