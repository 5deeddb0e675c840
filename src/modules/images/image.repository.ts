import type { Db, ImageRow } from '../../db/database.js';
import { allocatePostId } from '../../db/post-ids.js';
import { prepared } from '../../db/prepared.js';

/** Image records: a URL with its extension (and size when known), sharing the posts' id sequence. */

export async function exists(db: Db, id: number): Promise<boolean> {
  return (await db.selectFrom('images').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export async function findIdByUrl(trx: Db, url: string): Promise<number | undefined> {
  return (await trx.selectFrom('images').select('id').where('url', '=', url).executeTakeFirst())?.id;
}

/**
 * Creates an image record with a new id from the posts' shared sequence (recorded there as an
 * image, as WordPress records an attachment); returns the id.
 */
export async function create(trx: Db, image: Pick<ImageRow, 'url' | 'extension'>): Promise<number> {
  const id = await allocatePostId(trx, 'image');
  await trx
    .insertInto('images')
    .values({ id, ...image, width: null, height: null })
    .execute();
  return id;
}

/** One query for every image of a page. */
export const findByIds = prepared((db, args: { ids: number[] }) =>
  db.selectFrom('images').select(['id', 'url', 'extension', 'width', 'height']).where('id', 'in', args.ids),
);
