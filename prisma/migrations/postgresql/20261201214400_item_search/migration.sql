-- AlterTable
ALTER TABLE "Item" ADD COLUMN     "searchText" TEXT;

-- Full-text search over items (src/search/, Query.searchItems): a GIN index on the tokens of
-- "searchText" (made by the application, joined by single spaces) as a tsvector of lexemes
-- taken verbatim (array_to_tsvector: no parser, no dictionary, no locale), so both databases
-- match the same tokens. An expression index: appends, imports, purges, deletes and forks keep
-- it in the same transaction with no trigger. Raw SQL because Prisma's schema cannot model an
-- index on an expression (the schema snapshot beside this file does not hold it).
--
-- The expression is a function of its own so that the planner knows what it costs: COST 100
-- (building the tsvector of a row takes about 10 us) makes it scan the index even for a word
-- in most items (its bitmap needs no recheck) rather than build every row's tsvector in a
-- sequential scan (5x slower at 100k items). Not more: the planner also charges it for the
-- bitmap's recheck, and at COST 1000 it planned parallel workers for a word found nowhere
-- (80-110 ms of worker start-up on a busy machine, for no row). SET search_path keeps it from
-- being inlined, which would lose the cost, and pins the names it uses.
-- No semicolon may appear but at the end of a statement: @prisma/adapter-pg splits the
-- script on every one.
CREATE FUNCTION "item_search_vector"(text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 100
    SET search_path = pg_catalog
    AS $$ SELECT array_to_tsvector(string_to_array($1, ' ')) $$;

CREATE INDEX "Item_searchText_idx" ON "Item" USING gin ("item_search_vector"("searchText"));
