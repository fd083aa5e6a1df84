-- CreateTable
CREATE TABLE "ImportKey" (
    "tenantId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "itemCount" INTEGER NOT NULL,
    "compactionCount" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ImportKey_pkey" PRIMARY KEY ("tenantId","key")
);

-- CreateIndex
CREATE INDEX "ImportKey_tenantId_threadId_idx" ON "ImportKey"("tenantId", "threadId");

-- AddForeignKey
ALTER TABLE "ImportKey" ADD CONSTRAINT "ImportKey_tenantId_threadId_fkey" FOREIGN KEY ("tenantId", "threadId") REFERENCES "Thread"("tenantId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
