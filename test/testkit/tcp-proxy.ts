/**
 * A TCP proxy between a server and its database, to cut the connection mid-run (a database
 * restart or a network fault as the server sees it) without touching the shared PostgreSQL.
 * `cut()` drops every open connection and refuses new ones; `restore()` accepts again on the
 * same port.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { freePort } from './process.js';

export interface TcpProxy {
  /** The loopback port the proxy listens on. */
  port: number;
  /** `url` (a database URL) with its host and port replaced by the proxy's. */
  via(url: string): string;
  /** Drops every open connection and stops listening (new connections are refused). */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  /** Connections currently open through the proxy. */
  open(): number;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port forwarding to `host:port`. */
export async function startTcpProxy(host: string, port: number): Promise<TcpProxy> {
  const proxyPort = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | null = null;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(port, host);
        sockets.add(client).add(upstream);
        client.pipe(upstream).pipe(client);
        const close = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', close).on('close', close);
        upstream.on('error', close).on('close', close);
      });
      s.once('error', reject);
      s.listen(proxyPort, '127.0.0.1', () => {
        server = s;
        resolve();
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      const s = server;
      server = null;
      if (s) s.close(() => resolve());
      else resolve();
    });

  await listen();
  return {
    port: proxyPort,
    via(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(proxyPort);
      return u.toString();
    },
    cut: stop,
    restore: listen,
    open: () => sockets.size / 2,
    close: stop,
  };
}
