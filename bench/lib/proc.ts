/**
 * Child processes of the bench: the app (`node --import tsx src/main.ts`), the bare baseline
 * server and PostGraphile, all started by the test kit's spawnServer (test/testkit/process.ts),
 * and the load generator (bench/load.ts, driven over IPC). Everything listens on 127.0.0.1 only.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  root,
  type ServerProcess,
  type SpawnOptions,
  spawnServer,
  startServer,
  stopProcess,
} from '../../test/testkit/process.js';

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
});

/** A server process of the bench (test/testkit/process.ts), with its memory. */
export interface Server extends ServerProcess {
  /** Resident set size of the process now, in bytes (Linux /proc). */
  rss(): number;
}

/**
 * Starts a server as the test kit does, tracked (killed when the bench exits), quieter (LOG_LEVEL
 * warn), with a minute to get ready and the last 20,000 characters of output kept.
 */
async function benchServer(
  start: (
    options: Pick<SpawnOptions, 'timeoutMs' | 'outputLimit' | 'onSpawn'>,
  ) => Promise<ServerProcess>,
): Promise<Server> {
  const server = await start({ timeoutMs: 60_000, outputLimit: 20_000, onSpawn: track });
  return { ...server, rss: () => rssOf(server.process.pid!) };
}

/** RSS of a process in bytes, from /proc/<pid>/status. */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kb ?? 0) * 1024;
}

export interface AppOptions {
  env?: Record<string, string>;
  /**
   * Write CPU profiles into this (fresh) directory when the process exits: one per thread
   * (tsx's loader hooks run in a worker); mainThreadProfile(dir) picks the app's.
   */
  cpuProfileDir?: string;
  name?: string;
}

/** Starts threadstore as `npm start` does (node --import tsx src/main.ts). */
export function startApp(databaseUrl: string, options: AppOptions = {}): Promise<Server> {
  const nodeArgs = options.cpuProfileDir
    ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir]
    : [];
  return benchServer((spawn) =>
    startServer(
      { LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl, ...options.env },
      { ...spawn, nodeArgs, name: options.name ?? 'threadstore' },
    ),
  );
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
  return benchServer((spawn) =>
    spawnServer({
      ...spawn,
      name: 'baseline',
      nodeArgs: ['--import', 'tsx', join(root, 'bench', 'baseline-server.ts')],
      env: { LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl },
    }),
  );
}

/** Starts PostGraphile v5 (amber preset) on the same PostgreSQL tables. */
export function startPostGraphile(databaseUrl: string): Promise<Server> {
  return benchServer((spawn) =>
    spawnServer({
      ...spawn,
      name: 'postgraphile',
      nodeArgs: [join(root, 'bench', 'postgraphile-server.mjs')],
      env: { LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl, GRAPHILE_ENV: 'production' },
      // PostGraphile has no /healthz: ready once it answers a query.
      health: {
        path: '/graphql',
        init: {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"query":"{__typename}"}',
        },
      },
    }),
  );
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
