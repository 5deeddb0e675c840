import type { Database, Db } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';

/** Events, venues, organizers and images share one sequence of ids, as WordPress posts do. */
export type PostType = Database['posts']['type'];

const insertPost = prepared((db, args: { type: PostType }) =>
  db.insertInto('posts').values({ type: args.type }).returning('id'),
);

/** A new id from the shared sequence, recorded with the kind of record it names. */
export async function allocatePostId(trx: Db, type: PostType): Promise<number> {
  const [row] = await insertPost(trx, { type });
  return row!.id;
}
