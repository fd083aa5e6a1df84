/**
 * Real server processes (`tsx src/main.ts`) for tests that need several instances, signals or
 * a database that goes away. Each listens on a free loopback port. The bench starts its
 * servers (the app, its baselines) here too. Also runs the entry points (server, migrate,
 * import) to their exit, for start-up failures.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { type GraphQLResponse, graphqlClient, type VariablesArg } from './graphql.js';

/** The repository root (server processes run there). */
export const root = join(import.meta.dirname, '..', '..');

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  /** Name used in messages ("threadstore", "baseline", ...). */
  name: string;
  port: number;
  url: string;
  process: ChildProcess;
  /** Everything the process printed (the last `outputLimit` characters). */
  output(): string;
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>;
  /** POSTs a GraphQL operation to /graphql; returns the parsed body. */
  graphql<R, V>(
    document: TypedDocumentNode<R, V>,
    ...variables: VariablesArg<V>
  ): Promise<GraphQLResponse<R>>;
  // biome-ignore lint/suspicious/noExplicitAny: string documents are untyped (older tests); typed documents give typed results
  graphql<T = any>(query: string, variables?: Record<string, unknown>): Promise<GraphQLResponse<T>>;
  /** Sends SIGKILL if still running. */
  kill(): void;
  /** SIGTERM, then SIGKILL after 10 s; resolves once the process exited. */
  stop(): Promise<void>;
}

/** The last `limit` characters of a file ('' when it is gone). */
function tailOf(file: string, limit: number): string {
  try {
    const size = statSync(file).size;
    const fd = openSync(file, 'r');
    try {
      const length = Math.min(size, limit);
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, size - length);
      return buffer.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
}

export interface SpawnOptions {
  /** Name used in messages. */
  name: string;
  /** Arguments to node: flags, then the script. */
  nodeArgs: string[];
  /** Environment on top of this process's; PORT and HOST are set. */
  env?: Record<string, string>;
  /** `env` is the child's whole environment, not added to this process's (PORT, HOST set). */
  ownEnv?: boolean;
  /**
   * Send stdout and stderr to this file instead of a pipe (a sink that never slows the
   * child, for the bench); output() then reads the file's end.
   */
  logFile?: string;
  /** The request that answers 200 once the server is ready (default GET /healthz). */
  health?: { path: string; init?: RequestInit };
  /** How long the server may take to be ready (default 30 s). */
  timeoutMs?: number;
  /** Keep only the last this many characters of output (default: all of it). */
  outputLimit?: number;
  /** Sees the child as soon as it is spawned (the bench kills its children when it exits). */
  onSpawn?: (child: ChildProcess) => void;
  /** Listen on this port (a restart on the port a browser page uses); default a free one. */
  port?: number;
}

/**
 * Spawns node with `nodeArgs` on a free port; resolves once the health request answers 200.
 * @throws Error with the process output when it exits or is not ready within `timeoutMs`
 */
export async function spawnServer(options: SpawnOptions): Promise<ServerProcess> {
  const {
    name,
    health = { path: '/healthz' },
    timeoutMs = 30_000,
    outputLimit = Number.POSITIVE_INFINITY,
  } = options;
  const port = options.port ?? (await freePort());
  let out = '';
  const fd = options.logFile ? openSync(options.logFile, 'w') : null;
  const child = spawn(process.execPath, options.nodeArgs, {
    cwd: root,
    env: {
      ...(options.ownEnv ? {} : process.env),
      ...options.env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: fd === null ? ['ignore', 'pipe', 'pipe'] : ['ignore', fd, fd],
  });
  if (fd !== null) closeSync(fd);
  options.onSpawn?.(child);
  const collect = (d: Buffer) => {
    out += d.toString();
    if (out.length > outputLimit) out = out.slice(-outputLimit);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const output = () => (options.logFile ? tailOf(options.logFile, outputLimit) : out);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${name} exited (${child.exitCode}):\n${output()}`);
    try {
      const res = await fetch(`${url}${health.path}`, health.init);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} not healthy after ${timeoutMs / 1000} s:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const client = graphqlClient((body) =>
    fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }),
  );
  return {
    name,
    port,
    url,
    process: child,
    output,
    exited,
    graphql: client.request as ServerProcess['graphql'],
    kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
    stop: () => stopProcess(child),
  };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once `child` exited (at once if it had). */
export async function stopProcess(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts threadstore as `npm start` does (node --import tsx src/main.ts) with `env` on a free
 * port (LOG_LEVEL info unless set; the per-tenant rate limit lifted unless set, as the bench
 * and the load tests send far more than 100 requests a second); resolves once /healthz
 * answers 200. `options.nodeArgs` adds node flags (--cpu-prof ...).
 * @throws Error with the process output when it exits or is not healthy in time (30 s)
 */
export function startServer(
  env: Record<string, string>,
  options: Partial<Omit<SpawnOptions, 'env' | 'health'>> = {},
): Promise<ServerProcess> {
  return spawnServer({
    name: 'threadstore',
    ...options,
    nodeArgs: [...(options.nodeArgs ?? []), '--import', 'tsx', join(root, 'src', 'main.ts')],
    env: { LOG_LEVEL: 'info', RATE_LIMIT_RPS: '1000000', RATE_LIMIT_BURST: '1000000', ...env },
  });
}

export interface Exited {
  /** Exit code (null when killed). */
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs an entry point under tsx (`src/main.ts` by default) with `env` over this process's
 * environment (minus DATABASE_URL, REDIS_URL, PORT, HOST and LOG_* unless given) until it
 * exits; SIGKILLs it after `timeoutMs`.
 */
export function runToExit(
  env: Record<string, string>,
  options: { script?: string; args?: string[]; timeoutMs?: number } = {},
): Promise<Exited> {
  const base = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'PORT', 'HOST', 'LOG_LEVEL', 'LOG_FORMAT'])
    delete base[name];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, options.script ?? 'src/main.ts'), ...(options.args ?? [])],
    { cwd: root, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}
