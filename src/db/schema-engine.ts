/**
 * Prisma's schema engine as WebAssembly (`@prisma/schema-engine-wasm`), so migrations run with
 * no native binary download (see ../shared/notes/prisma-offline.md).
 *
 * The package's entry imports the `.wasm` as an ES module, which Node 20 cannot load, so we
 * compile it ourselves and wire the wasm-bindgen glue by hand.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type {
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm/schema_engine_bg';

type Glue = typeof import('@prisma/schema-engine-wasm/schema_engine_bg');

let gluePromise: Promise<Glue> | undefined;

/** Loads and instantiates the wasm module once per process. */
function loadGlue(): Promise<Glue> {
  gluePromise ??= (async () => {
    const glue: Glue = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const require = createRequire(import.meta.url);
    const pkgDir = dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
    const module = await WebAssembly.compile(await readFile(join(pkgDir, 'schema_engine_bg.wasm')));
    // Every import the wasm module declares comes from the glue file under the same name.
    const imports: WebAssembly.Imports = {};
    for (const { module: mod, name } of WebAssembly.Module.imports(module)) {
      imports[mod] ??= {};
      (imports[mod] as Record<string, unknown>)[name] = (glue as Record<string, unknown>)[name];
    }
    const instance = await WebAssembly.instantiate(module, imports);
    const exports = instance.exports as Record<string, unknown> & { __wbindgen_start?: () => void };
    glue.__wbg_set_wasm(exports);
    exports.__wbindgen_start?.();
    return glue;
  })();
  return gluePromise;
}

/**
 * The engine replays a whole migration file on a shadow database through executeRaw, which
 * better-sqlite3 refuses ("contains more than one statement"); such a call is run as a script.
 */
function withScriptFallback(adapter: SqlDriverAdapter): SqlDriverAdapter {
  return new Proxy(adapter, {
    get(target, property, receiver) {
      if (property === 'dispose') {
        // The PostgreSQL adapter drops its shadow database before closing its own pool, which
        // fails; callers clean leftover shadow databases up (scripts/migrate-create.ts).
        return () => target.dispose().catch(() => {});
      }
      if (property !== 'executeRaw') return Reflect.get(target, property, receiver);
      return async (query: Parameters<SqlDriverAdapter['executeRaw']>[0]) => {
        try {
          return await target.executeRaw(query);
        } catch (error) {
          if (query.args.length > 0 || !String(error).includes('more than one statement'))
            throw error;
          await target.executeScript(query.sql);
          return 0;
        }
      };
    },
  });
}

/**
 * Runs `work` with a schema engine for one datamodel on one database, then frees the engine
 * and closes every connection it opened.
 * @param schemaText the Prisma schema's text (provider must match the adapter)
 * @param adapterFactory an unconnected driver adapter factory (PrismaBetterSqlite3 or PrismaPg)
 * @param log receives the engine's log lines
 */
export async function withSchemaEngine<T>(
  schemaText: string,
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  work: (engine: SchemaEngine) => Promise<T>,
  log: (line: string) => void = () => {},
): Promise<T> {
  const glue = await loadGlue();
  // The engine connects through the factory but never disposes those connections; we track
  // them so a SQLite file is not left locked by a migration.
  const opened: SqlDriverAdapter[] = [];
  const track = (adapter: SqlDriverAdapter): SqlDriverAdapter => {
    opened.push(adapter);
    return withScriptFallback(adapter);
  };
  const tracking: SqlMigrationAwareDriverAdapterFactory = {
    provider: adapterFactory.provider,
    adapterName: adapterFactory.adapterName,
    connect: async () => track(await adapterFactory.connect()),
    connectToShadowDb: async () => track(await adapterFactory.connectToShadowDb()),
  };
  const engine = await glue.SchemaEngine.new(
    { datamodels: [['schema.prisma', schemaText]] },
    log,
    bindMigrationAwareSqlAdapterFactory(tracking),
  );
  try {
    return await work(engine);
  } finally {
    engine.free();
    await Promise.allSettled(opened.map((a) => a.dispose()));
  }
}
