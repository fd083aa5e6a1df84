/**
 * Recognising Prisma's known request errors without leaking Prisma types into services.
 */
import { Prisma } from '../generated/prisma/client.js';

/**
 * True when `error` is a unique-constraint violation: P2002 from the model API, or a raw
 * statement's P2010 whose driver error is one (what @prisma/client 7.10 reports for raw SQL).
 */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === 'P2002') return true;
  const cause = (error.meta?.driverAdapterError as { cause?: { kind?: unknown } } | undefined)
    ?.cause;
  return error.code === 'P2010' && cause?.kind === 'UniqueConstraintViolation';
}

/** True when an update or delete found no row to act on (P2025). */
export function isRecordNotFound(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2025';
}
