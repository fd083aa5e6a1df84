-- The agent filter ordered by createdAt, and a covering index for a selected totalCount
-- (both modeled in schema.prisma).
CREATE INDEX "Thread_tenantId_agentId_createdAt_id_idx" ON "Thread"("tenantId", "agentId", "createdAt", "id");
CREATE INDEX "Thread_tenantId_archived_agentId_idx" ON "Thread"("tenantId", "archived", "agentId");

-- Thread name search (nameContains) through a trigram index, in raw SQL: Prisma's schema
-- cannot model an index on an expression. The schema snapshot beside this file does not hold it,
-- so `npm run migrate:create` (a diff of datamodels) never sees or drops this index.
-- pg_trgm is a trusted extension (PostgreSQL 13 and later): the database owner, or any role
-- with CREATE on the database, may create it, superuser is not needed.
-- No semicolon may appear but at the end of a statement: @prisma/adapter-pg splits the
-- script on every one.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- The expression the list query matches (thread.store.ts, threadLister): rows folded before
-- final sigma was folded may still hold ς.
CREATE INDEX "Thread_nameFolded_trgm_idx" ON "Thread" USING gin ((replace("nameFolded", 'ς', 'σ')) gin_trgm_ops);
