#!/usr/bin/env node
// npm run build: compiles src/ (with the generated Prisma clients) into a fresh dist/, builds the
// thread browser into ui/dist/ (scripts/build-ui.mjs; src/server/ui-route.ts serves it), then
// records the commit in dist/COMMIT for /healthz and the start-up line (a container has no git):
// the COMMIT environment variable when set (docker build --build-arg COMMIT=...), else
// `git rev-parse HEAD`, else nothing (the server then says "unknown").
import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
rmSync('dist', { recursive: true, force: true });
const tsc = spawnSync(
  process.execPath,
  [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
  {
    stdio: 'inherit',
  },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
const ui = spawnSync(process.execPath, ['scripts/build-ui.mjs'], { stdio: 'inherit' });
if (ui.status !== 0) process.exit(ui.status ?? 1);

let commit = process.env.COMMIT ?? '';
if (!commit) {
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    commit = '';
  }
}
if (commit) writeFileSync('dist/COMMIT', `${commit}\n`);
