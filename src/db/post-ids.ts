import type { Database, Db } from './database.js';
import { prepared } from './prepared.js';

// The id sequence events, venues, organizers and images share (the posts module and the images
// module both draw from it, so it lives beside the schema, not in either module).

/** Events, venues, organizers and images share one sequence of ids, as WordPress posts do. */
export type PostType = Database['posts']['type'];

/**
 * The statement that draws an id: a row of `posts` naming its kind. A caller adds its RETURNING
 * (the posts module returns a slug's look-up beside the id, in the same round trip).
 */
export function newPostRow(db: Db, type: PostType) {
  return db.insertInto('posts').values({ type });
}

const insertPost = prepared((db, args: { type: PostType }) => newPostRow(db, args.type).returning('id'));

/** A new id from the shared sequence, recorded with the kind of record it names. */
export async function allocatePostId(trx: Db, type: PostType): Promise<number> {
  const [row] = await insertPost(trx, { type });
  return row!.id;
}
