/**
 * The test kit: a real app on a fresh SQLite file per test file, queried through yoga.fetch
 * (HTTP semantics, no socket), with helpers that fail loudly and seeders that go through the API.
 */
import pino from 'pino';
import { type App, type BuildOptions, buildApp } from '../../src/server/app.js';
import { parseEnv } from '../../src/env.js';
import { createTestDatabase, type TestProvider, testProvider } from './database.js';

export interface GraphQLResponse<T = Record<string, unknown>> {
  data?: T | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
}

export interface TestApp {
  app: App;
  /** Database URL of this test app. */
  url: string;
  provider: TestProvider;
  /** Runs an operation and returns the whole response (data and errors). */
  request<T = Record<string, any>>(query: string, variables?: Record<string, unknown>): Promise<GraphQLResponse<T>>;
  /** Runs an operation that must succeed; throws with the GraphQL errors printed otherwise. */
  execute<T = Record<string, any>>(query: string, variables?: Record<string, unknown>): Promise<T>;
  /** Runs an operation that must fail; returns its first error's code and message. */
  expectError(query: string, variables?: Record<string, unknown>): Promise<{ code: string; message: string }>;
  /** SQL statements sent while `work` runs. */
  countStatements(work: () => Promise<unknown>): Promise<{ count: number; log: string[] }>;
  close(): Promise<void>;
}

/**
 * Builds an app on a fresh database of the run's provider (TEST_PROVIDER: sqlite, the default,
 * or postgresql). `env` overrides configuration (limits, ...).
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  options: BuildOptions = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const url = database.url;
  const app = await buildApp(parseEnv({ LOG_LEVEL: 'silent', ...env, DATABASE_URL: url }), {
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    ...options,
  });

  const request: TestApp['request'] = async (query, variables) => {
    const response = await app.yoga.fetch('http://threadstore.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as GraphQLResponse<never>;
  };

  return {
    app,
    url,
    provider: testProvider,
    request,
    async execute(query, variables) {
      const result = await request(query, variables);
      if (result.errors?.length || !result.data) {
        throw new Error(`GraphQL errors: ${JSON.stringify(result.errors, null, 2)}`);
      }
      return result.data as never;
    },
    async expectError(query, variables) {
      const result = await request(query, variables);
      const first = result.errors?.[0];
      if (!first) throw new Error(`Expected an error, got data: ${JSON.stringify(result.data)}`);
      return { code: String(first.extensions?.code), message: first.message };
    },
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
      await database.drop();
    },
  };
}
