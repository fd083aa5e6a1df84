-- AlterTable
ALTER TABLE "Thread" ADD COLUMN "forkedFromId" TEXT;
ALTER TABLE "Thread" ADD COLUMN "forkedFromSeq" INTEGER;

-- CreateIndex
CREATE INDEX "Thread_tenantId_forkedFromId_createdAt_id_idx" ON "Thread"("tenantId", "forkedFromId", "createdAt", "id");
