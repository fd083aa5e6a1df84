/**
 * Splits long key lists across statements: Prisma caps the bound parameters of one SQLite
 * statement at 999, so a batch of keys (a 500-thread page, a long `nodes` list) is read in
 * chunks that stay under it, and the results are concatenated in chunk order.
 */

/** Bound parameters we allow one statement, leaving room for the rest of the query. */
export const MAX_PARAMETERS = 900;

/**
 * Runs `read` once per chunk of `keys` (each chunk at most MAX_PARAMETERS / paramsPerKey
 * keys) and concatenates the results. No statement for an empty list.
 */
export async function readInChunks<K, R>(
  keys: readonly K[],
  paramsPerKey: number,
  read: (chunk: K[]) => Promise<R[]>,
): Promise<R[]> {
  const size = Math.max(1, Math.floor(MAX_PARAMETERS / paramsPerKey));
  const out: R[] = [];
  for (let start = 0; start < keys.length; start += size) {
    out.push(...(await read(keys.slice(start, start + size))));
  }
  return out;
}
