-- AlterTable
ALTER TABLE "Item" ADD COLUMN     "rawFormat" TEXT,
ADD COLUMN     "rawJson" TEXT;
