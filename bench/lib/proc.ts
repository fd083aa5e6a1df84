/**
 * Child processes of the bench: the app (`node --import tsx src/main.ts`, exactly as `npm start`
 * runs it: appEnv, APP_COMMAND), the bare baseline server and PostGraphile, each with its output
 * in a file, and the load generator (bench/load.ts, driven over IPC). Everything listens on
 * 127.0.0.1 only.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from '../../src/env.js';
import { root, type ServerProcess, spawnServer, stopProcess } from '../../test/testkit/process.js';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every child this process started, killed when it exits however it exits. */
const children = new Set<ChildProcess>();
function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}
process.once('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  // Servers that stopped deleted their logs; a crashed one's log stays (and so the directory).
  try {
    rmdirSync(logDir);
  } catch {
    // not empty, or never made
  }
});

/** A server process of the bench (test/testkit/process.ts), with its memory. */
export interface Server extends ServerProcess {
  /** Resident set size of the process now, in bytes (Linux /proc). */
  rss(): number;
  /** The file the process's stdout and stderr go to (deleted when it is stopped). */
  logFile: string;
}

/** Where the servers' output goes: one file per process, deleted when it is stopped. */
export const logDir = join(tmpdir(), `threadstore-bench-${process.pid}`);

interface BenchSpawn {
  name: string;
  /** node flags, then the script. */
  nodeArgs: string[];
  /** The whole environment of the child (PORT is added). */
  env: Record<string, string>;
  /** The request that answers 200 once the server is ready (default GET /healthz). */
  health?: { path: string; init?: RequestInit };
}

/**
 * Spawns a server of the bench on a free loopback port with stdout and stderr going to a file
 * (a sink that never slows it: an unread pipe would block pino's synchronous writes, and a pipe
 * read by the orchestrator costs the orchestrator CPU on the same 2 cores); resolves once the
 * health request answers 200 (at most 60 s), tracked so it dies with the bench.
 * @throws Error with the end of its output when it exits or is not ready in time
 */
async function spawnBenchServer(options: BenchSpawn): Promise<Server> {
  mkdirSync(logDir, { recursive: true });
  const slug = options.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
  const logFile = join(logDir, `${slug}-${++spawned}.log`);
  const server = await spawnServer({
    ...options,
    ownEnv: true,
    logFile,
    outputLimit: 20_000,
    timeoutMs: 60_000,
    onSpawn: track,
  });
  return {
    ...server,
    logFile,
    rss: () => rssOf(server.process.pid!),
    async stop() {
      await server.stop();
      rmSync(logFile, { force: true });
    },
  };
}
let spawned = 0;

/** RSS of a process in bytes, from /proc/<pid>/status. */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kb ?? 0) * 1024;
}

/**
 * What the bench sets on top of the shipped defaults, and why. Only thresholds a single
 * anonymous bench client trips on purpose-built load: the checks themselves still run on
 * every request (the rate-limit plugin takes a token, the socket count is kept).
 */
export const BENCH_APP_ENV: Record<string, string> = {
  // The default 100 requests/s (burst 500) per tenant: the bench's one tenant sends thousands.
  RATE_LIMIT_RPS: '1000000',
  RATE_LIMIT_BURST: '1000000',
  // The default 100 sockets per identity: S6 opens 1,000 anonymous followers, S9 500.
  WS_MAX_CONNECTIONS: '100000',
};

/**
 * Settings read by the app (src/env.ts) and NODE_ENV: removed from the bench's own environment
 * before a server starts, so a variable in the shell running the bench (REDIS_URL, LOG_LEVEL,
 * NODE_ENV=production, AUTH ...) never changes what is measured.
 */
function shippedBase(): Record<string, string> {
  const appSettings = new Set([
    ...Object.keys(parseEnv({})),
    'AUTH',
    'AUTH_JWT_SECRET',
    'AUTH_JWKS_URL',
    'AUTH_JWKS_FILE',
    'AUTH_JWT_ISSUER',
    'AUTH_JWT_AUDIENCE',
    'REDIS_URL',
    'NODE_ENV',
  ]);
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !appSettings.has(k)) base[k] = v;
  return base;
}

/**
 * The environment the app runs with in the bench, as `npm start` in a clean shell: every
 * setting at its default (LOG_LEVEL info, one line per request; AUTH optional on 127.0.0.1;
 * GraphiQL, introspection and /metrics on; NODE_ENV unset, which src/main.ts makes production
 * as npm start does; SQLite synchronous FULL; pool 10)
 * except DATABASE_URL, BENCH_APP_ENV and `extra` (REDIS_URL for S7).
 */
export function appEnv(databaseUrl: string, extra: Record<string, string> = {}) {
  return {
    ...shippedBase(),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    ...BENCH_APP_ENV,
    ...extra,
  };
}

/** The app's command line and the settings the bench gives it, for the report header. */
export const APP_COMMAND = `node --import tsx src/main.ts (as npm start) with DATABASE_URL=<bench database>, HOST=127.0.0.1, PORT=<free port>, ${Object.entries(
  BENCH_APP_ENV,
)
  .map(([k, v]) => `${k}=${v}`)
  .join(
    ', ',
  )}; every other setting at its default (LOG_LEVEL=info: one log line per request; AUTH=optional; GRAPHIQL, INTROSPECTION and /metrics on; SQLITE_SYNCHRONOUS=FULL; DB_POOL_SIZE=10; NODE_ENV unset, so production as npm start sets it), settings in the bench's own environment removed; stdout and stderr to a file`;

export interface AppOptions {
  env?: Record<string, string>;
  /**
   * Write CPU profiles into this (fresh) directory when the process exits: one per thread
   * (tsx's loader hooks run in a worker); mainThreadProfile(dir) picks the app's.
   */
  cpuProfileDir?: string;
  name?: string;
}

/** Starts threadstore as `npm start` does (node --import tsx src/main.ts), env from appEnv. */
export function startApp(databaseUrl: string, options: AppOptions = {}): Promise<Server> {
  const profile = options.cpuProfileDir
    ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir]
    : [];
  return spawnBenchServer({
    name: options.name ?? 'threadstore',
    nodeArgs: [...profile, '--import', 'tsx', join(root, 'src', 'main.ts')],
    env: appEnv(databaseUrl, options.env),
  });
}

/** The main thread's profile in a --cpu-prof-dir (CPU.<date>.<time>.<pid>.<tid 0>.<n>.cpuprofile). */
export function mainThreadProfile(dir: string): string {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  const main = files.find((f) => f.split('.').at(-3) === '0') ?? files[0];
  if (!main) throw new Error(`no .cpuprofile in ${dir}`);
  return join(dir, main);
}

/** Starts bench/baseline-server.ts on the same database. */
export function startBaseline(databaseUrl: string): Promise<Server> {
  return spawnBenchServer({
    name: 'baseline',
    nodeArgs: ['--import', 'tsx', join(root, 'bench', 'baseline-server.ts')],
    env: { ...shippedBase(), HOST: '127.0.0.1', DATABASE_URL: databaseUrl },
  });
}

/** Starts PostGraphile v5 (amber preset) on the same PostgreSQL tables. */
export function startPostGraphile(databaseUrl: string): Promise<Server> {
  return spawnBenchServer({
    name: 'postgraphile',
    nodeArgs: [join(root, 'bench', 'postgraphile-server.mjs')],
    env: {
      ...shippedBase(),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      // Its documented production settings, as the app runs in production (src/production-mode.ts).
      GRAPHILE_ENV: 'production',
      NODE_ENV: 'production',
    },
    // PostGraphile has no /healthz: ready once it answers a query.
    health: {
      path: '/graphql',
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query":"{__typename}"}',
      },
    },
  });
}

/** A request/response channel to a forked child (bench/load.ts, bench/mem-server.ts). */
export interface Rpc {
  child: ChildProcess;
  call<T = unknown>(command: Record<string, unknown>, timeoutMs?: number): Promise<T>;
  /** Resolves on the next message of this `type` the child sends on its own. */
  next<T = unknown>(type: string, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

let rpcIds = 0;

/** Forks a TypeScript module with tsx and an IPC channel. */
export function forkRpc(
  module: string,
  options: { execArgv?: string[]; env?: Record<string, string> } = {},
): Rpc {
  const child = track(
    fork(join(root, 'bench', module), [], {
      cwd: root,
      env: { ...process.env, ...options.env },
      execArgv: [...(options.execArgv ?? []), '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const waiters = new Map<
    string,
    { resolve: (v: unknown) => void; reject: (e: Error) => void }[]
  >();
  child.on('error', (error) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  });
  child.on('message', (raw) => {
    const msg = raw as {
      rpc?: number;
      ok?: boolean;
      result?: unknown;
      error?: string;
      type?: string;
    };
    if (msg.rpc !== undefined) {
      const p = pending.get(msg.rpc);
      pending.delete(msg.rpc);
      if (msg.ok) p?.resolve(msg.result);
      else p?.reject(new Error(`${module}: ${msg.error}`));
    } else if (msg.type) {
      const list = waiters.get(msg.type) ?? [];
      waiters.delete(msg.type);
      for (const w of list) w.resolve(msg);
    }
  });
  child.on('exit', (code) => {
    const error = new Error(`${module} exited (${code})`);
    for (const p of pending.values()) p.reject(error);
    pending.clear();
    for (const list of waiters.values()) for (const w of list) w.reject(error);
    waiters.clear();
  });
  return {
    child,
    call(command, timeoutMs = 300_000) {
      const id = ++rpcIds;
      return new Promise((resolve, reject) => {
        if (!child.connected) {
          reject(new Error(`${module} is not running (exit ${child.exitCode})`));
          return;
        }
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${module}: ${String(command.cmd)} timed out after ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, {
          resolve: (v) => {
            clearTimeout(timer);
            resolve(v as never);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        });
        child.send({ ...command, rpc: id });
      });
    },
    next(type, timeoutMs = 300_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${module}: no ${type} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        if (child.exitCode !== null) {
          clearTimeout(timer);
          reject(new Error(`${module} exited (${child.exitCode})`));
          return;
        }
        const list = waiters.get(type) ?? [];
        list.push({
          resolve: (v) => {
            clearTimeout(timer);
            resolve(v as never);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        });
        waiters.set(type, list);
      });
    },
    close: () => stopProcess(child, 5_000),
  };
}

/** Serves RPC calls in a forked child: `handlers[cmd](command)` answers each. */
export function serveRpc(
  handlers: Record<string, (command: Record<string, unknown>) => Promise<unknown>>,
): void {
  process.on('message', (raw) => {
    const command = raw as Record<string, unknown> & { rpc: number; cmd: string };
    const handler = handlers[command.cmd];
    const reply = (msg: Record<string, unknown>) => process.send?.({ rpc: command.rpc, ...msg });
    if (!handler) {
      reply({ ok: false, error: `unknown command ${command.cmd}` });
      return;
    }
    handler(command).then(
      (result) => reply({ ok: true, result }),
      (error: unknown) => reply({ ok: false, error: (error as Error).stack ?? String(error) }),
    );
  });
  process.on('SIGTERM', () => process.exit(0));
  process.on('disconnect', () => process.exit(0));
}
