/**
 * Recognising Prisma's known request errors without leaking Prisma types into services.
 */
import { Prisma } from '../generated/prisma/client.js';

/** True when `error` is a unique-constraint violation (P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}

/** True when an update or delete found no row to act on (P2025). */
export function isRecordNotFound(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2025';
}
