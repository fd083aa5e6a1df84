-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Thread" (
    "tenantId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "name" TEXT,
    "nameFolded" TEXT,
    "archived" BOOLEAN NOT NULL DEFAULT false,
    "metadataJson" TEXT NOT NULL DEFAULT '{}',
    "metadataCanonical" TEXT NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "nextSeq" INTEGER NOT NULL DEFAULT 0,
    "itemCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Thread_pkey" PRIMARY KEY ("tenantId","id")
);

-- CreateTable
CREATE TABLE "Item" (
    "tenantId" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "responseId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "createdBy" TEXT,
    "callId" TEXT,
    "dataJson" TEXT NOT NULL,

    CONSTRAINT "Item_pkey" PRIMARY KEY ("tenantId","threadId","seq")
);

-- CreateTable
CREATE TABLE "Compaction" (
    "tenantId" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "startSeq" INTEGER NOT NULL,
    "endSeq" INTEGER NOT NULL,
    "summary" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "createdBy" TEXT,
    "markerSeq" INTEGER NOT NULL,

    CONSTRAINT "Compaction_pkey" PRIMARY KEY ("tenantId","threadId","startSeq")
);

-- CreateTable
CREATE TABLE "IdempotencyKey" (
    "tenantId" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "firstSeq" INTEGER NOT NULL,
    "itemCount" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "IdempotencyKey_pkey" PRIMARY KEY ("tenantId","threadId","key")
);

-- CreateIndex
CREATE INDEX "Thread_tenantId_updatedAt_id_idx" ON "Thread"("tenantId", "updatedAt", "id");

-- CreateIndex
CREATE INDEX "Thread_tenantId_createdAt_id_idx" ON "Thread"("tenantId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Thread_tenantId_agentId_updatedAt_id_idx" ON "Thread"("tenantId", "agentId", "updatedAt", "id");

-- CreateIndex
CREATE INDEX "Item_tenantId_threadId_type_seq_idx" ON "Item"("tenantId", "threadId", "type", "seq");

-- CreateIndex
CREATE INDEX "Item_tenantId_threadId_createdAt_idx" ON "Item"("tenantId", "threadId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Compaction_tenantId_threadId_markerSeq_key" ON "Compaction"("tenantId", "threadId", "markerSeq");

-- CreateIndex
CREATE INDEX "IdempotencyKey_createdAt_idx" ON "IdempotencyKey"("createdAt");

-- AddForeignKey
ALTER TABLE "Item" ADD CONSTRAINT "Item_tenantId_threadId_fkey" FOREIGN KEY ("tenantId", "threadId") REFERENCES "Thread"("tenantId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Compaction" ADD CONSTRAINT "Compaction_tenantId_threadId_fkey" FOREIGN KEY ("tenantId", "threadId") REFERENCES "Thread"("tenantId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IdempotencyKey" ADD CONSTRAINT "IdempotencyKey_tenantId_threadId_fkey" FOREIGN KEY ("tenantId", "threadId") REFERENCES "Thread"("tenantId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
