import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

/**
 * One suite, two databases: every integration test file runs once on SQLite and once on
 * PostgreSQL (TEST_PROVIDER), each file on a database of its own. Unit tests run once.
 */
export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS build for Pothos and yoga; our code must get the same
    // instance, not the .mjs build Vite would pick ("Cannot use GraphQLObjectType from another realm").
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    pool: 'forks',
    // A worker runs one file after another (of one project) without re-importing src/ (Prisma,
    // Pothos, yoga) for each: 0.4x the wall time of the same ten files isolated, one worker
    // (issue 13). Files share the process, not state: each builds its apps on databases of its
    // own and closes them (and its servers, sockets, timers) in afterAll.
    // Workers: vitest's default, cores - 1 (one file at a time on 2 cores); VITEST_MAX_WORKERS
    // overrides it (`--maxWorkers` does not reach the projects). At 4 on 2 loaded cores, server
    // processes took over 30 s to start and hooks passed 60 s; at 2, no gain over 1.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.unit.test.ts', 'test/schema.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['test/**/*.test.ts'],
          // *.pg.test.ts: several instances on one PostgreSQL, which SQLite does not offer.
          exclude: ['test/**/*.unit.test.ts', 'test/schema.test.ts', 'test/**/*.pg.test.ts'],
          env: { TEST_PROVIDER: 'sqlite' },
        },
      },
      {
        extends: true,
        test: {
          name: 'postgresql',
          include: ['test/**/*.test.ts'],
          // ui.test.ts, ui-forks.test.ts, ui-search.test.ts: Chromium on the thread browser, which
          // reaches the database only through the API that the other files test on PostgreSQL;
          // once (on SQLite) is enough (search itself: search.test.ts, on both).
          exclude: [
            'test/**/*.unit.test.ts',
            'test/schema.test.ts',
            'test/ui.test.ts',
            'test/ui-forks.test.ts',
            'test/ui-search.test.ts',
          ],
          env: { TEST_PROVIDER: 'postgresql' },
        },
      },
    ],
  },
});
