-- Usage totals and expiry (issue 14). Written by hand as additive changes: Prisma's
-- RedefineTables would rebuild "Thread" and drop the triggers that keep "ThreadNameSearch".

-- AlterTable
ALTER TABLE "Item" ADD COLUMN "inputTokens" BIGINT;
ALTER TABLE "Item" ADD COLUMN "outputTokens" BIGINT;
ALTER TABLE "Item" ADD COLUMN "totalTokens" BIGINT;

-- AlterTable
ALTER TABLE "Thread" ADD COLUMN "inputTokens" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "Thread" ADD COLUMN "outputTokens" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "Thread" ADD COLUMN "totalTokens" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "Thread" ADD COLUMN "messagesWithUsage" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Thread" ADD COLUMN "expiresAt" DATETIME;

-- DropIndex
DROP INDEX "Thread_tenantId_archived_agentId_idx";

-- CreateIndex
CREATE INDEX "Thread_tenantId_archived_agentId_expiresAt_idx" ON "Thread"("tenantId", "archived", "agentId", "expiresAt");

-- CreateIndex
CREATE INDEX "Thread_expiresAt_idx" ON "Thread"("expiresAt");

-- Backfill: the usage of message items stored before this migration (item.service.ts,
-- usageOf: totalTokens as reported, else input + output), then each thread's sums.
UPDATE "Item" SET
  "inputTokens" = json_extract("dataJson", '$.usage.inputTokens'),
  "outputTokens" = json_extract("dataJson", '$.usage.outputTokens'),
  "totalTokens" = COALESCE(json_extract("dataJson", '$.usage.totalTokens'),
    json_extract("dataJson", '$.usage.inputTokens') + json_extract("dataJson", '$.usage.outputTokens'),
    json_extract("dataJson", '$.usage.inputTokens'), json_extract("dataJson", '$.usage.outputTokens'))
WHERE "type" = 'message' AND json_type("dataJson", '$.usage') = 'object';
UPDATE "Thread" SET
  "inputTokens" = (SELECT COALESCE(SUM(i."inputTokens"), 0) FROM "Item" i WHERE i."tenantId" = "Thread"."tenantId" AND i."threadId" = "Thread"."id"),
  "outputTokens" = (SELECT COALESCE(SUM(i."outputTokens"), 0) FROM "Item" i WHERE i."tenantId" = "Thread"."tenantId" AND i."threadId" = "Thread"."id"),
  "totalTokens" = (SELECT COALESCE(SUM(i."totalTokens"), 0) FROM "Item" i WHERE i."tenantId" = "Thread"."tenantId" AND i."threadId" = "Thread"."id"),
  "messagesWithUsage" = (SELECT COUNT(*) FROM "Item" i WHERE i."tenantId" = "Thread"."tenantId" AND i."threadId" = "Thread"."id" AND i."totalTokens" IS NOT NULL)
WHERE EXISTS (SELECT 1 FROM "Item" i WHERE i."tenantId" = "Thread"."tenantId" AND i."threadId" = "Thread"."id" AND i."totalTokens" IS NOT NULL);
