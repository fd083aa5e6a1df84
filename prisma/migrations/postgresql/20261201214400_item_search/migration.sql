-- AlterTable
ALTER TABLE "Item" ADD COLUMN     "searchText" TEXT;

-- Full-text search over items (src/search/, Query.searchItems): a GIN index on the tokens of
-- "searchText" (made by the application, joined by single spaces) as a tsvector of lexemes
-- taken verbatim (array_to_tsvector: no parser, no dictionary, no locale), so both databases
-- match the same tokens. An expression index: appends, imports, purges, deletes and forks keep
-- it in the same transaction with no trigger. Raw SQL because Prisma's schema cannot model an
-- index on an expression (the schema snapshot beside this file does not hold it).
-- No semicolon may appear but at the end of a statement: @prisma/adapter-pg splits the
-- script on every one.
CREATE INDEX "Item_searchText_idx" ON "Item" USING gin ((array_to_tsvector(string_to_array("searchText", ' '))));
