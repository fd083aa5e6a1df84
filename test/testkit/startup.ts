/**
 * Assertions on a process that failed to start: exit code 1, exactly one line reporting the
 * failure, no stack trace, no password.
 */
import { expect } from 'vitest';
import type { Exited } from './process.js';

/**
 * The lines that report a failure: every stderr line, and stdout's JSON log lines at error
 * level or above (their message). Info lines (applied migrations) are not failures.
 */
export function failureLines(result: Exited): string[] {
  const stderr = result.stderr.split('\n').filter((line) => line.trim());
  const logged = result.stdout.split('\n').flatMap((line) => {
    try {
      const log = JSON.parse(line) as { level?: number; msg?: string };
      return (log.level ?? 0) >= 50 ? [String(log.msg)] : [];
    } catch {
      return [];
    }
  });
  return [...stderr, ...logged];
}

/** Fails unless `result` is a clean start-up failure whose one line matches `pattern`. */
export function expectOneLine(result: Exited, pattern: RegExp, secret?: string): string {
  const all = `${result.stdout}\n${result.stderr}`;
  expect(result.code, all).toBe(1);
  const lines = failureLines(result);
  expect(lines, all).toHaveLength(1);
  expect(lines[0], all).toMatch(pattern);
  expect(all).not.toMatch(/^\s+at /m);
  if (secret) expect(all).not.toContain(secret);
  return lines[0]!;
}
