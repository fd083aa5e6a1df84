-- AlterTable
ALTER TABLE "Item" ADD COLUMN "searchText" TEXT;

-- Full-text search over items (src/search/, Query.searchItems) through an FTS5 table kept by
-- triggers on "Item": appends, imports, purges, thread deletes (foreign key cascades fire
-- triggers) and forks (INSERT ... SELECT) keep it in the same transaction. Raw SQL because
-- Prisma's schema cannot model a virtual table; the schema snapshot beside this file does not
-- hold it, so `npm run migrate:create` never sees it.
--
-- "ItemSearchKey" gives each item with text a stable INTEGER PRIMARY KEY (VACUUM keeps those
-- and may renumber the implicit rowids of "Item"): the rowid of its row in "ItemSearch".
-- "searchText" holds tokens made by the application joined by single spaces, and tokens hold
-- no ASCII punctuation, so the ascii tokenizer sees exactly those tokens. Contentless: the text
-- is in "Item" already; contentless_delete (SQLite 3.43+) lets a row be deleted by rowid.
CREATE TABLE "ItemSearchKey" (
    "key" INTEGER NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL
);
CREATE UNIQUE INDEX "ItemSearchKey_tenantId_threadId_seq_key" ON "ItemSearchKey"("tenantId", "threadId", "seq");

CREATE VIRTUAL TABLE "ItemSearch" USING fts5("searchText", tokenize = 'ascii', content = '', contentless_delete = 1);

CREATE TRIGGER "Item_search_insert" AFTER INSERT ON "Item"
WHEN new."searchText" IS NOT NULL
BEGIN
    INSERT INTO "ItemSearchKey" ("tenantId", "threadId", "seq") VALUES (new."tenantId", new."threadId", new."seq");
    INSERT INTO "ItemSearch" ("rowid", "searchText") VALUES (last_insert_rowid(), new."searchText");
END;

CREATE TRIGGER "Item_search_update" AFTER UPDATE OF "searchText" ON "Item"
WHEN old."searchText" IS NOT new."searchText"
BEGIN
    DELETE FROM "ItemSearch" WHERE "rowid" IN (
        SELECT "key" FROM "ItemSearchKey" WHERE "tenantId" = old."tenantId" AND "threadId" = old."threadId" AND "seq" = old."seq");
    DELETE FROM "ItemSearchKey" WHERE "tenantId" = old."tenantId" AND "threadId" = old."threadId" AND "seq" = old."seq";
    INSERT INTO "ItemSearchKey" ("tenantId", "threadId", "seq")
        SELECT new."tenantId", new."threadId", new."seq" WHERE new."searchText" IS NOT NULL;
    INSERT INTO "ItemSearch" ("rowid", "searchText")
        SELECT last_insert_rowid(), new."searchText" WHERE new."searchText" IS NOT NULL;
END;

CREATE TRIGGER "Item_search_delete" AFTER DELETE ON "Item"
WHEN old."searchText" IS NOT NULL
BEGIN
    DELETE FROM "ItemSearch" WHERE "rowid" IN (
        SELECT "key" FROM "ItemSearchKey" WHERE "tenantId" = old."tenantId" AND "threadId" = old."threadId" AND "seq" = old."seq");
    DELETE FROM "ItemSearchKey" WHERE "tenantId" = old."tenantId" AND "threadId" = old."threadId" AND "seq" = old."seq";
END;
