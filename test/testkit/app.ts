/**
 * The test kit: a real app on a fresh SQLite file per test file, queried through yoga.fetch
 * (HTTP semantics, no socket), with typed helpers that fail loudly (test/testkit/graphql.ts)
 * and seeders that go through the API.
 */
import pino from 'pino';
import { parseEnv } from '../../src/env.js';
import { type App, type BuildOptions, buildApp } from '../../src/server/app.js';
import { createTestDatabase, type TestDatabase, type TestProvider } from './database.js';
import { type GraphQLClient, graphqlClient } from './graphql.js';

export interface TestApp extends GraphQLClient {
  app: App;
  /** Database URL of this test app. */
  url: string;
  provider: TestProvider;
  /** The same client, sending `authorization` as the Authorization header ("Bearer ..."). */
  as(authorization: string): GraphQLClient;
  /** SQL statements sent while `work` runs. */
  countStatements(work: () => Promise<unknown>): Promise<{ count: number; log: string[] }>;
  /** Stops the app and drops its database (one given to buildTestApp is kept). */
  close(): Promise<void>;
}

/**
 * Builds an app on a fresh database of the run's provider (TEST_PROVIDER: sqlite, the default,
 * or postgresql). `env` overrides configuration (limits, ...; the rate limit is lifted unless
 * set). `database`: an existing database
 * to use instead (the bench's), which close() leaves in place.
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  options: BuildOptions = {},
  database?: { url: string },
): Promise<TestApp> {
  const owned: TestDatabase | null = database ? null : await createTestDatabase();
  const url = (database ?? owned)!.url;
  // The per-tenant rate limit is lifted unless a test sets it (test/limits-identity.test.ts).
  const lifted = { RATE_LIMIT_RPS: '1000000', RATE_LIMIT_BURST: '1000000' };
  const app = await buildApp(
    parseEnv({ LOG_LEVEL: 'silent', ...lifted, ...env, DATABASE_URL: url }),
    {
      logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
      ...options,
    },
  );
  // A loopback Host: without credentials, only loopback names are served (AUTH=optional).
  const clientWith = (headers: Record<string, string>) =>
    graphqlClient((body) =>
      app.yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body,
      }),
    );
  const client = clientWith({});

  return {
    ...client,
    as: (authorization) => clientWith({ authorization }),
    app,
    url,
    provider: url.startsWith('file:') ? 'sqlite' : 'postgresql',
    async countStatements(work) {
      const counter = app.db.statements;
      const log: string[] = [];
      const before = counter.count;
      counter.log = log;
      try {
        await work();
      } finally {
        counter.log = null;
      }
      return { count: counter.count - before, log };
    },
    async close() {
      await app.stop();
      await owned?.drop();
    },
  };
}
