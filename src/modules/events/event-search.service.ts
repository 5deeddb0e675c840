import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import { runInBackground } from '../../lib/background.js';
import { indexQueued, searchQueueWaits } from './event-search.repository.js';

/**
 * SQLite: the background that moves written events from the search index's queue into the index
 * (migration 033), a batch a second. A batch is one segment of the index and one transaction on
 * the writer, which better-sqlite3 runs on the event loop: 512 events of the bench's took about
 * 17 ms at 100,000 events. A longer queue (an import, a burst of creates) is taken a batch at a
 * time, the loop free in between. Until then the search reads the queue with the index, so what
 * it finds never waits for this. A queue left at shutdown is indexed after the next start.
 */
export const searchIndexing = { batch: 500, everyMs: 1_000 };

export function startSearchIndexing(app: FastifyInstance, db: Db): void {
  if (dialectOf(db) !== 'sqlite') return;
  runInBackground(
    app,
    'indexing events for search',
    async () => {
      // Read first, outside a transaction: an idle service opens no write transaction every second.
      if (!(await searchQueueWaits(db))) return 0;
      const indexed = await indexQueued(db, searchIndexing.batch);
      if (indexed < searchIndexing.batch) return 0;
      await new Promise((resolve) => setImmediate(resolve));
      return indexed;
    },
    searchIndexing.everyMs,
  );
}
