-- DropIndex
DROP INDEX "Thread_tenantId_archived_agentId_idx";

-- AlterTable
ALTER TABLE "Thread" ADD COLUMN     "expiresAt" TIMESTAMPTZ(3),
ADD COLUMN     "inputTokens" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "messagesWithUsage" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "outputTokens" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "totalTokens" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Item" ADD COLUMN     "inputTokens" BIGINT,
ADD COLUMN     "outputTokens" BIGINT,
ADD COLUMN     "totalTokens" BIGINT;

-- CreateIndex
CREATE INDEX "Thread_tenantId_archived_agentId_expiresAt_idx" ON "Thread"("tenantId", "archived", "agentId", "expiresAt");

-- CreateIndex
CREATE INDEX "Thread_expiresAt_idx" ON "Thread"("expiresAt");

-- Backfill: the usage of message items stored before this migration (item.service.ts,
-- usageOf: totalTokens as reported, else input + output), then each thread's sums. Data that
-- holds the escape of U+0000 cannot be read as json here: its usage object is taken from the
-- end of the text instead (prepareItem writes usage as the last key of a message).
UPDATE "Item" SET
  "inputTokens" = (u ->> 'inputTokens')::bigint,
  "outputTokens" = (u ->> 'outputTokens')::bigint,
  "totalTokens" = COALESCE((u ->> 'totalTokens')::bigint,
    (u ->> 'inputTokens')::bigint + (u ->> 'outputTokens')::bigint,
    (u ->> 'inputTokens')::bigint, (u ->> 'outputTokens')::bigint)
FROM (
  SELECT "tenantId", "threadId", "seq", "dataJson"::json -> 'usage' AS u FROM "Item"
  WHERE "type" = 'message' AND "dataJson" LIKE '%"usage"%' AND "dataJson" NOT LIKE '%\\u0000%'
  UNION ALL
  SELECT "tenantId", "threadId", "seq",
    substring("dataJson" from '"usage":(\{[^{}]*\})\}$')::json AS u
  FROM "Item"
  WHERE "type" = 'message' AND "dataJson" LIKE '%"usage"%' AND "dataJson" LIKE '%\\u0000%') s
WHERE "Item"."tenantId" = s."tenantId" AND "Item"."threadId" = s."threadId"
  AND "Item"."seq" = s."seq" AND json_typeof(s.u) = 'object';

UPDATE "Thread" t SET
  "inputTokens" = s."inputTokens", "outputTokens" = s."outputTokens",
  "totalTokens" = s."totalTokens", "messagesWithUsage" = s."messages"
FROM (
  SELECT "tenantId", "threadId", COALESCE(SUM("inputTokens"), 0) AS "inputTokens",
    COALESCE(SUM("outputTokens"), 0) AS "outputTokens", SUM("totalTokens") AS "totalTokens",
    COUNT(*) AS "messages"
  FROM "Item" WHERE "totalTokens" IS NOT NULL GROUP BY "tenantId", "threadId") s
WHERE t."tenantId" = s."tenantId" AND t."id" = s."threadId";
