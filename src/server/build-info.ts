/**
 * Which build is running: the version from package.json and the git commit, shown in /healthz,
 * the start-up line and the threadstore_build_info metric.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BuildInfo {
  /** package.json's version. */
  version: string;
  /** The full commit hash, or "unknown". */
  commit: string;
}

// This file sits one folder below src/ (or dist/), two below the project root.
const sourceRoot = join(import.meta.dirname, '..');
const projectRoot = join(sourceRoot, '..');

/**
 * The commit: a COMMIT file written next to main.js at build time (a container has no git),
 * else `git rev-parse HEAD` in the project, else "unknown".
 */
function readCommit(): string {
  const file = join(sourceRoot, 'COMMIT');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim() || 'unknown';
  try {
    const output = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: projectRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2_000,
    });
    return /^[0-9a-f]{7,64}$/.test(output.trim()) ? output.trim() : 'unknown';
  } catch {
    return 'unknown';
  }
}

let cached: BuildInfo | undefined;

/** The running build, read once per process. */
export function buildInfo(): BuildInfo {
  if (!cached) {
    const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
      version?: string;
    };
    cached = { version: pkg.version ?? 'unknown', commit: readCommit() };
  }
  return cached;
}
