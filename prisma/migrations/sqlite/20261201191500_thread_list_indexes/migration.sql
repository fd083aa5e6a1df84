-- The agent filter ordered by createdAt, and a covering index for a selected totalCount
-- (both modeled in schema.prisma).
CREATE INDEX "Thread_tenantId_agentId_createdAt_id_idx" ON "Thread"("tenantId", "agentId", "createdAt", "id");
CREATE INDEX "Thread_tenantId_archived_agentId_idx" ON "Thread"("tenantId", "archived", "agentId");

-- Thread name search (nameContains) through an FTS5 trigram index, kept by triggers; raw SQL
-- because Prisma's schema cannot model a virtual table. The schema snapshot beside this file
-- does not hold them, so `npm run migrate:create` (a diff of datamodels) never sees them.
--
-- "ThreadNameKey" gives each named thread a stable INTEGER PRIMARY KEY (VACUUM keeps those;
-- it may renumber the implicit rowids of "Thread"), which is the rowid of its row in
-- "ThreadNameSearch". The indexed text is the folded name with ς as σ, as the list query
-- matches it (thread.store.ts, threadLister); case_sensitive 1 because it is folded already.
CREATE TABLE "ThreadNameKey" (
    "key" INTEGER NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "id" TEXT NOT NULL
);
CREATE UNIQUE INDEX "ThreadNameKey_tenantId_id_key" ON "ThreadNameKey"("tenantId", "id");

CREATE VIRTUAL TABLE "ThreadNameSearch" USING fts5("name", tokenize = 'trigram case_sensitive 1');

INSERT INTO "ThreadNameKey" ("tenantId", "id")
    SELECT "tenantId", "id" FROM "Thread" WHERE "nameFolded" IS NOT NULL;
INSERT INTO "ThreadNameSearch" ("rowid", "name")
    SELECT k."key", replace(t."nameFolded", 'ς', 'σ')
    FROM "ThreadNameKey" k JOIN "Thread" t ON t."tenantId" = k."tenantId" AND t."id" = k."id";

CREATE TRIGGER "Thread_nameSearch_insert" AFTER INSERT ON "Thread"
WHEN new."nameFolded" IS NOT NULL
BEGIN
    INSERT INTO "ThreadNameKey" ("tenantId", "id") VALUES (new."tenantId", new."id");
    INSERT INTO "ThreadNameSearch" ("rowid", "name")
        SELECT "key", replace(new."nameFolded", 'ς', 'σ') FROM "ThreadNameKey"
        WHERE "tenantId" = new."tenantId" AND "id" = new."id";
END;

CREATE TRIGGER "Thread_nameSearch_update" AFTER UPDATE OF "nameFolded" ON "Thread"
WHEN old."nameFolded" IS NOT new."nameFolded"
BEGIN
    DELETE FROM "ThreadNameSearch" WHERE "rowid" IN (
        SELECT "key" FROM "ThreadNameKey" WHERE "tenantId" = old."tenantId" AND "id" = old."id");
    DELETE FROM "ThreadNameKey" WHERE "tenantId" = old."tenantId" AND "id" = old."id";
    INSERT INTO "ThreadNameKey" ("tenantId", "id")
        SELECT new."tenantId", new."id" WHERE new."nameFolded" IS NOT NULL;
    INSERT INTO "ThreadNameSearch" ("rowid", "name")
        SELECT "key", replace(new."nameFolded", 'ς', 'σ') FROM "ThreadNameKey"
        WHERE new."nameFolded" IS NOT NULL AND "tenantId" = new."tenantId" AND "id" = new."id";
END;

CREATE TRIGGER "Thread_nameSearch_delete" AFTER DELETE ON "Thread"
WHEN old."nameFolded" IS NOT NULL
BEGIN
    DELETE FROM "ThreadNameSearch" WHERE "rowid" IN (
        SELECT "key" FROM "ThreadNameKey" WHERE "tenantId" = old."tenantId" AND "id" = old."id");
    DELETE FROM "ThreadNameKey" WHERE "tenantId" = old."tenantId" AND "id" = old."id";
END;
