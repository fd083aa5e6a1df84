-- AlterTable
ALTER TABLE "Item" ADD COLUMN "rawFormat" TEXT;
ALTER TABLE "Item" ADD COLUMN "rawJson" TEXT;
