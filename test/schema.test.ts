import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type GraphQLObjectType, printSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../src/schema/index.js';

const root = join(import.meta.dirname, '..');

describe('schema.graphql', () => {
  it('is the printed, sorted schema of the current code (run npm run schema:print)', () => {
    expect(readFileSync(join(root, 'schema.graphql'), 'utf8')).toBe(`${printSchema(schema)}\n`);
  });

  it('covers the contract and the parts of landed issues (../shared/tools/contract-check.mjs)', () => {
    const out = execFileSync(
      process.execPath,
      [
        join(root, '..', 'shared', 'tools', 'contract-check.mjs'),
        'schema.graphql',
        '--part',
        'identity',
        '--part',
        'transcripts',
        '--part',
        'beyond',
      ],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(out).toContain('contract-check: schema covers the contract');
  });

  it('guards every root field with a scope, but viewer (contract part identity)', () => {
    const unguarded: string[] = [];
    for (const root of [
      schema.getQueryType(),
      schema.getMutationType(),
      schema.getSubscriptionType(),
    ]) {
      for (const field of Object.values((root as GraphQLObjectType).getFields())) {
        const options = field.extensions?.pothosOptions as { authScopes?: unknown } | undefined;
        if (!options?.authScopes) unguarded.push(`${root?.name}.${field.name}`);
      }
    }
    expect(unguarded).toEqual(['Query.viewer']);
  });
});
