/**
 * Committed migrations: reading them from `prisma/migrations/<provider>/` and applying them
 * with Prisma's schema engine, exactly as `prisma migrate deploy` records them in
 * `_prisma_migrations` (a restart applies nothing twice).
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { MigrationList } from '@prisma/schema-engine-wasm/schema_engine_bg';
import { withSchemaEngine } from './schema-engine.js';

export type Provider = 'sqlite' | 'postgresql';

/** Repository root (this file lives in src/db/). */
export const projectRoot = join(import.meta.dirname, '..', '..');

/** The Prisma schema file for a provider: the canonical one, or the derived PostgreSQL one. */
export function schemaPath(provider: Provider): string {
  return provider === 'sqlite'
    ? join(projectRoot, 'prisma', 'schema.prisma')
    : join(projectRoot, 'prisma', 'postgresql', 'schema.prisma');
}

/** The folder holding one provider's committed migration history. */
export function migrationsDir(provider: Provider): string {
  return join(projectRoot, 'prisma', 'migrations', provider);
}

/** Reads a provider's committed migrations in name (= time) order. */
export async function readMigrations(provider: Provider): Promise<MigrationList> {
  const baseDir = migrationsDir(provider);
  const names = existsSync(baseDir)
    ? (await readdir(baseDir, { withFileTypes: true }))
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  const lockPath = join(baseDir, 'migration_lock.toml');
  return {
    baseDir,
    lockfile: {
      path: 'migration_lock.toml',
      content: existsSync(lockPath) ? await readFile(lockPath, 'utf8') : null,
    },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      names.map(async (name) => ({
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: {
            tag: 'ok' as const,
            value: await readFile(join(baseDir, name, 'migration.sql'), 'utf8'),
          },
        },
      })),
    ),
  };
}

/** True when some committed migration is not in `applied` (names recorded in _prisma_migrations). */
export async function hasPendingMigrations(
  provider: Provider,
  applied: string[],
): Promise<boolean> {
  const done = new Set(applied);
  const committed = await readMigrations(provider);
  return committed.migrationDirectories.some((m) => !done.has(m.path));
}

const noFilters = { externalTables: [], externalEnums: [] };

/**
 * Applies every committed migration not yet recorded in the database.
 * @returns the names of the migrations applied now (empty when the database was current)
 */
export async function applyMigrations(
  provider: Provider,
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
): Promise<string[]> {
  const schemaText = await readFile(schemaPath(provider), 'utf8');
  const migrationsList = await readMigrations(provider);
  return withSchemaEngine(schemaText, adapterFactory, async (engine) => {
    const result = await engine.applyMigrations({ migrationsList, filters: noFilters });
    return result.appliedMigrationNames;
  });
}

/**
 * The SQL that takes a database from the `from` schema (null = empty database) to the `to`
 * schema, computed from the two datamodels alone (no database, no shadow database). Empty
 * when they agree. Used by `npm run migrate:create`, which keeps a snapshot of the schema in
 * each migration folder to diff the next change against.
 */
export async function diffSchemas(
  from: string | null,
  to: string,
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
): Promise<string> {
  return withSchemaEngine(to, adapterFactory, async (engine) => {
    const result = await engine.diff({
      from:
        from === null
          ? { tag: 'empty' }
          : { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: from }] },
      to: { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: to }] },
      script: true,
      exitCode: null,
      filters: noFilters,
    });
    const sql = result.stdout ?? '';
    return sql.includes('This is an empty migration') || /^\s*(--.*\n?\s*)*$/.test(sql) ? '' : sql;
  });
}
