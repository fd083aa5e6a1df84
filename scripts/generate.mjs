#!/usr/bin/env node
// Runs `prisma generate` (Prisma client + Pothos types) with no network: Prisma's CLI tries to
// download a schema-engine binary unless PRISMA_SCHEMA_ENGINE_BINARY names an existing file;
// generate never runs it (../shared/notes/prisma-offline.md), so any existing file will do.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const cli = require.resolve('prisma/build/index.js');
const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1' };
const result = spawnSync(process.execPath, [cli, 'generate'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
