import type { Database, Db } from './database.js';
import { prepared } from './prepared.js';

// The id sequence events, venues, organizers and images share (the posts module and the images
// module both draw from it, so it lives beside the schema, not in either module).

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
