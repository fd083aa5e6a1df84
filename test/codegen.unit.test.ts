/**
 * The committed output of GraphQL Code Generator (codegen.yml: test/generated/ and
 * examples/generated/) is what the current schema.graphql and documents generate. It runs
 * codegen in memory (nothing written) and compares file by file; schema.test.ts checks that
 * schema.graphql itself is current.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generate, loadCodegenConfig } from '@graphql-codegen/cli';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

it('test/generated and examples/generated are current (run npm run codegen)', async () => {
  const { config } = await loadCodegenConfig({ configFilePath: join(root, 'codegen.yml') });
  // generate()'s declared result is loose (it also serves watch mode): these are FileOutputs.
  const outputs: { filename: string; content: string }[] = await generate(
    { ...config, cwd: root, silent: true },
    false,
  );
  const generated = new Map(outputs.map((o) => [o.filename, o.content]));
  expect(generated.size).toBeGreaterThan(0);

  // Every file codegen writes is committed as it would write it...
  for (const [filename, content] of generated) {
    const committed = readFileSync(join(root, filename), 'utf8');
    expect(committed, `${filename} is stale: run npm run codegen`).toBe(content);
  }
  // ...and the output folders hold nothing else.
  for (const folder of new Set([...generated.keys()].map((f) => dirname(f)))) {
    const files = readdirSync(join(root, folder)).map((f) => join(folder, f));
    expect(files.sort(), `${folder} has files codegen no longer writes`).toEqual(
      [...generated.keys()].filter((f) => dirname(f) === folder).sort(),
    );
  }
}, 60_000);
