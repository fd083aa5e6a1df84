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
-- usageOf: totalTokens as reported, else input + output), then each thread's sums. json, not
-- jsonb: data may hold the escape of U+0000, which jsonb refuses.
UPDATE "Item" SET
  "inputTokens" = ("dataJson"::json -> 'usage' ->> 'inputTokens')::bigint,
  "outputTokens" = ("dataJson"::json -> 'usage' ->> 'outputTokens')::bigint,
  "totalTokens" = COALESCE(("dataJson"::json -> 'usage' ->> 'totalTokens')::bigint,
    ("dataJson"::json -> 'usage' ->> 'inputTokens')::bigint + ("dataJson"::json -> 'usage' ->> 'outputTokens')::bigint,
    ("dataJson"::json -> 'usage' ->> 'inputTokens')::bigint, ("dataJson"::json -> 'usage' ->> 'outputTokens')::bigint)
WHERE "type" = 'message' AND "dataJson" LIKE '%"usage"%' AND json_typeof("dataJson"::json -> 'usage') = 'object';

UPDATE "Thread" t SET
  "inputTokens" = s."inputTokens", "outputTokens" = s."outputTokens",
  "totalTokens" = s."totalTokens", "messagesWithUsage" = s."messages"
FROM (
  SELECT "tenantId", "threadId", COALESCE(SUM("inputTokens"), 0) AS "inputTokens",
    COALESCE(SUM("outputTokens"), 0) AS "outputTokens", SUM("totalTokens") AS "totalTokens",
    COUNT(*) AS "messages"
  FROM "Item" WHERE "totalTokens" IS NOT NULL GROUP BY "tenantId", "threadId") s
WHERE t."tenantId" = s."tenantId" AND t."id" = s."threadId";
