/**
 * Entry point: parse the environment, build the app, listen, stop cleanly on SIGTERM/SIGINT.
 */
import { buildApp } from './server/app.js';
import { parseEnv } from './env.js';

let env;
try {
  env = parseEnv();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const app = await buildApp(env);
const port = await app.start();
const shown = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST;
app.logger.info(`threadstore on http://${shown}:${port}/graphql (GraphiQL in a browser), database ${env.DATABASE_URL}`);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    app.logger.info({ signal }, 'stopping');
    app.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        app.logger.error({ err: error }, 'stop failed');
        process.exit(1);
      },
    );
  });
}
