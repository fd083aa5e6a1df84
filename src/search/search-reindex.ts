/**
 * `npm run search:reindex`: fills Item.searchText (and with it the search indexes) for items
 * stored before search existed, or by a writer that left it out. Walks every tenant's items
 * without searchText of the types that have text (search-text.ts, itemText) in key order, in
 * batches of BATCH, each batch one transaction; safe to run while the server runs and to run
 * again (what it did stays done; an interrupted run resumes from the start, skipping the items
 * already indexed).
 *
 * `--database <url>` overrides DATABASE_URL. Prints how many items it indexed.
 */
import { parseArgs } from 'node:util';
import { runCommand } from '../cli.js';
import { type Database, openDatabase } from '../db/client.js';
import { parseEnv } from '../env.js';
import { selectUnindexedItems, updateSearchTexts } from './search.store.js';
import { itemSearchText, TEXT_TYPES } from './search-text.js';

const BATCH = 500;

/**
 * Indexes every item without searchText that has text; returns how many were indexed and how
 * many were read (items of text types whose text is empty stay without searchText).
 */
export async function reindexItems(
  db: Database,
  onBatch: (done: { read: number; indexed: number }) => void = () => {},
): Promise<{ read: number; indexed: number }> {
  const done = { read: 0, indexed: 0 };
  let after: { tenantId: string; threadId: string; seq: number } | null = null;
  for (;;) {
    const rows = await selectUnindexedItems(db, TEXT_TYPES, after, BATCH);
    if (rows.length === 0) return done;
    const updates = rows.flatMap((r) => {
      const searchText = itemSearchText(r.type, JSON.parse(r.dataJson) as unknown);
      return searchText === null ? [] : [{ ...r, searchText }];
    });
    if (updates.length) await updateSearchTexts(db, updates);
    done.read += rows.length;
    done.indexed += updates.length;
    onBatch(done);
    const last = rows.at(-1)!;
    after = { tenantId: last.tenantId, threadId: last.threadId, seq: last.seq };
  }
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { database: { type: 'string' } } });
  const env = parseEnv();
  const db = await openDatabase(values.database ?? env.DATABASE_URL, {
    setting: values.database === undefined ? 'DATABASE_URL' : '--database',
  });
  try {
    const done = await reindexItems(db);
    process.stdout.write(`indexed ${done.indexed} items (read ${done.read})\n`);
    return 0;
  } finally {
    await db.close();
  }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) runCommand(main);
