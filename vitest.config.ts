import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS build for Pothos and yoga; our code must get the same
    // instance, not the .mjs build Vite would pick ("Cannot use GraphQLObjectType from another realm").
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // One database per test file; files run in parallel workers.
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
