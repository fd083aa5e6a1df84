// PostGraphile v5 (amber preset) over the same PostgreSQL tables as threadstore, for S5.
// Env: DATABASE_URL, PORT, HOST (127.0.0.1), DB_POOL_SIZE (10, like the app).
// PostGraphile 5.1 declares node >= 22; on Node 20 it only lacks Promise.withResolvers, so it is
// polyfilled before PostGraphile loads (hence the dynamic imports).
import { createServer } from 'node:http';

if (!Promise.withResolvers) {
  Promise.withResolvers = function withResolvers() {
    let resolve;
    let reject;
    const promise = new this((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}
const { postgraphile } = await import('postgraphile');
const { makePgService } = await import('postgraphile/adaptors/pg');
const { grafserv } = await import('postgraphile/grafserv/node');
const { PostGraphileAmberPreset } = await import('postgraphile/presets/amber');

const port = Number(process.env.PORT ?? 5678);
const host = process.env.HOST ?? '127.0.0.1';

const preset = {
  extends: [PostGraphileAmberPreset],
  pgServices: [
    makePgService({
      connectionString: process.env.DATABASE_URL,
      schemas: ['public'],
      poolConfig: { max: Number(process.env.DB_POOL_SIZE ?? 10) },
    }),
  ],
  grafserv: { port, host, graphiql: false, watch: false },
  grafast: { explain: false },
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const server = createServer();
server.on('error', (error) => {
  console.error(error);
  process.exit(1);
});
await serv.addTo(server);
server.listen(port, host, () => console.log(`postgraphile listening on ${port}`));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
