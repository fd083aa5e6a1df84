import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { printSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../src/schema/index.js';

const root = join(import.meta.dirname, '..');

describe('schema.graphql', () => {
  it('is the printed, sorted schema of the current code (run npm run schema:print)', () => {
    expect(readFileSync(join(root, 'schema.graphql'), 'utf8')).toBe(`${printSchema(schema)}\n`);
  });

  it('covers the contract (../shared/tools/contract-check.mjs)', () => {
    const out = execFileSync(
      process.execPath,
      [join(root, '..', 'shared', 'tools', 'contract-check.mjs'), 'schema.graphql'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(out).toContain('contract-check: schema covers the contract');
  });
});
