/**
 * Prisma CLI configuration (used by `prisma generate`). The server itself never runs the
 * CLI: it applies committed migrations with Prisma's WebAssembly schema engine (src/db/migrations.ts).
 */
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations/sqlite' },
});
