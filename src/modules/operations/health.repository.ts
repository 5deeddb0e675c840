import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** The cheapest statement the database can answer: it is up and takes queries. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
