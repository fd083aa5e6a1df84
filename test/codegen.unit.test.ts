/**
 * The committed output of GraphQL Code Generator (codegen.yml: test/generated/,
 * examples/generated/, client/src/generated/ and ui/src/generated/) is what the current
 * schema.graphql and documents generate, for every target codegen.yml lists. It runs
 * codegen in memory (nothing written) and compares file by file; schema.test.ts checks that
 * schema.graphql itself is current.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generate, loadCodegenConfig } from '@graphql-codegen/cli';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

it('every generated folder of codegen.yml is current (run npm run codegen)', async () => {
  const { config } = await loadCodegenConfig({ configFilePath: join(root, 'codegen.yml') });
  // generate()'s declared result is loose (it also serves watch mode): these are FileOutputs.
  const outputs: { filename: string; content: string }[] = await generate(
    { ...config, cwd: root, silent: true },
    false,
  );
  const generated = new Map(outputs.map((o) => [o.filename, o.content]));
  // Every target writes its files (also one whose documents glob matches nothing yet).
  const targets = Object.keys(config.generates).map((t) => t.replace(/\/$/, ''));
  expect(targets).toEqual(
    expect.arrayContaining([
      'test/generated',
      'examples/generated',
      'client/src/generated',
      'ui/src/generated',
    ]),
  );
  for (const target of targets)
    expect(
      [...generated.keys()].filter((f) => dirname(f) === target),
      `${target}: codegen wrote nothing`,
    ).toEqual(
      expect.arrayContaining([`${target}/gql.ts`, `${target}/graphql.ts`, `${target}/index.ts`]),
    );

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
