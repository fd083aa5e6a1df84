/**
 * Writes a new committed migration from the difference between the committed history and
 * prisma/schema.prisma, using Prisma's schema engine as WebAssembly (no binary download).
 * Usage: npm run migrate:create -- <name>
 */
import { mkdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { diffSchemaAgainstMigrations, migrationsDir } from '../src/db/migrations.js';

const name = (process.argv[2] ?? 'change').replace(/[^a-z0-9_]/gi, '_');
const scratch = join(tmpdir(), `threadstore-diff-${process.pid}.db`);
try {
  const sql = await diffSchemaAgainstMigrations('sqlite', new PrismaBetterSqlite3({ url: scratch }));
  if (!sql) {
    console.log('sqlite: the committed migrations already match prisma/schema.prisma');
  } else {
    const dir = migrationsDir('sqlite');
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    mkdirSync(join(dir, `${stamp}_${name}`), { recursive: true });
    writeFileSync(join(dir, `${stamp}_${name}`, 'migration.sql'), sql);
    if (!existsSync(join(dir, 'migration_lock.toml'))) {
      writeFileSync(join(dir, 'migration_lock.toml'), 'provider = "sqlite"\n');
    }
    console.log(`sqlite: wrote ${stamp}_${name}/migration.sql`);
  }
} finally {
  rmSync(scratch, { force: true });
}
