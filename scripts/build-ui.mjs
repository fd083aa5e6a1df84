#!/usr/bin/env node
// npm run build:ui: builds the thread browser (ui/, Vite) into ui/dist/, then writes a brotli
// (.br) and a gzip (.gz) copy beside each text file, which src/server/ui-route.ts sends to
// browsers that accept them (compressed once here, at the highest settings, not per request).
// --if-available (postinstall): exit quietly when Vite or ui/ is not there, as after
// `npm ci --omit=dev` or in the Dockerfile's install layer, which copies no ui/ yet.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ifAvailable = process.argv.includes('--if-available');
const root = join(import.meta.dirname, '..');
const config = join(root, 'ui', 'vite.config.ts');

function skip(why) {
  if (!ifAvailable) {
    console.error(`build:ui: ${why}`);
    process.exit(1);
  }
  console.log(`build:ui skipped: ${why}`);
  process.exit(0);
}

if (!existsSync(config)) skip('ui/vite.config.ts is not there');
let vite;
try {
  createRequire(import.meta.url).resolve('vite');
  vite = await import('vite');
} catch {
  skip('Vite is not installed (a dev dependency: run npm install without --omit=dev)');
}

await vite.build({ configFile: config, logLevel: 'warn' });

const COMPRESSIBLE = /\.(html|js|mjs|css|json|map|svg|txt|webmanifest)$/;
const dist = join(root, 'ui', 'dist');
let files = 0;
let before = 0;
let after = 0;
function compressTree(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      compressTree(path);
      continue;
    }
    if (!COMPRESSIBLE.test(name)) continue;
    const body = readFileSync(path);
    if (body.length < 1024) continue;
    const br = brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
    const gz = gzipSync(body, { level: 9 });
    if (br.length < body.length) writeFileSync(`${path}.br`, br);
    if (gz.length < body.length) writeFileSync(`${path}.gz`, gz);
    files += 1;
    before += body.length;
    after += Math.min(br.length, body.length);
  }
}
compressTree(dist);
console.log(
  `build:ui: ui/dist written; ${files} files compressed, ${(before / 1024).toFixed(0)} KiB -> ${(after / 1024).toFixed(0)} KiB (brotli)`,
);
