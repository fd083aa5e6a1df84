#!/usr/bin/env node
// Runs `prisma generate` (one Prisma client per provider) with no network: Prisma's CLI tries to
// download a schema-engine binary unless PRISMA_SCHEMA_ENGINE_BINARY names an existing file;
// generate never runs it (../shared/notes/prisma-offline.md), so any existing file will do.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const cli = require.resolve('prisma/build/index.js');
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
};
// One client per provider: the canonical (SQLite) schema, and the derived PostgreSQL one.
for (const schema of ['prisma/schema.prisma', 'prisma/postgresql/schema.prisma']) {
  const result = spawnSync(process.execPath, [cli, 'generate', '--schema', schema], {
    stdio: 'inherit',
    env,
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
