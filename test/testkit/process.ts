/**
 * Real server processes (`tsx src/main.ts`) for tests that need several instances, signals or
 * a database that goes away. Each listens on a free loopback port. Also runs the entry points
 * (server, migrate, import) to their exit, for start-up failures.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

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
  port: number;
  url: string;
  process: ChildProcess;
  /** Everything the process printed. */
  output(): string;
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>;
  /** POSTs a GraphQL operation; returns the parsed body. */
  graphql<T = any>(query: string, variables?: Record<string, unknown>): Promise<{ data?: T; errors?: any[] }>;
  /** Sends SIGKILL if still running. */
  kill(): void;
}

/**
 * Starts `npm start` equivalent with `env` on a free port; resolves once /healthz answers 200.
 * @throws Error with the process output when it exits or is not healthy within 30 s
 */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src', 'main.ts')], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'info', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not healthy after 30 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    url,
    process: child,
    output: () => out,
    exited,
    async graphql(query, variables) {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      return (await res.json()) as never;
    },
    kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
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
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'PORT', 'HOST', 'LOG_LEVEL', 'LOG_FORMAT']) delete base[name];
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
