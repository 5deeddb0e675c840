import path from 'node:path';
import type { Db, ImageRow } from '../../db/database.js';
import { invalidParam } from '../../http/errors.js';
import { asId } from '../../http/params.js';
import * as images from './image.repository.js';

// Images are below posts: events, venues and organizers (posts/post.input.ts) check and apply
// an `image` input through this service, and images import nothing of posts (an image's id
// comes from the shared sequence in src/db/post-ids.ts, as a post's does).

export interface ImageObject {
  url: string;
  id: number;
  extension: string;
  width?: number;
  height?: number;
}

/** What a client sent as `image`, checked: remove it, an existing image id, or a URL. */
export type ImageInput = { kind: 'none' } | { kind: 'id'; id: number } | { kind: 'url'; url: string };

/**
 * Images are a URL (stored as given) or the id of an image record (SPEC items 10, 21).
 * Runs before the write transaction: an unknown id is a 400, nothing is created yet.
 */
export async function parseImageInput(db: Db, value: unknown): Promise<ImageInput> {
  if (value === null || value === false || value === 0 || value === '' || value === '0') return { kind: 'none' };
  const id = asId(value);
  if (id !== null) {
    if (!(await images.exists(db, id))) throw invalidParam('image', 'image is not the id of a known image.');
    return { kind: 'id', id };
  }
  if (typeof value === 'string' && value.length <= 2048) {
    try {
      const url = new URL(value);
      if (url.protocol === 'http:' || url.protocol === 'https:') return { kind: 'url', url: url.toString() };
    } catch {
      // fall through to the 400
    }
  }
  throw invalidParam('image', 'image must be an image id or an http(s) URL.');
}

/** Turns a checked input into an image id, creating the record for a new URL (inside the write transaction). */
export async function applyImageInput(trx: Db, input: ImageInput): Promise<number | null> {
  if (input.kind === 'none') return null;
  if (input.kind === 'id') return input.id;
  const existing = await images.findIdByUrl(trx, input.url);
  if (existing !== undefined) return existing;
  const extension = path.extname(new URL(input.url).pathname).slice(1).toLowerCase();
  return images.create(trx, { url: input.url, extension });
}

export async function loadImages(db: Db, ids: (number | null)[]): Promise<Map<number, ImageObject>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  return imageObjectsOf(await images.findByIds(db, { ids: wanted }));
}

/** The image objects of rows read already (with another record's read), by id. */
export function imageObjectsOf(rows: ImageRow[]): Map<number, ImageObject> {
  return new Map(rows.map((row) => [row.id, toImageObject(row)]));
}

function toImageObject(row: ImageRow): ImageObject {
  const image: ImageObject = { url: row.url, id: row.id, extension: row.extension };
  if (row.width) image.width = row.width;
  if (row.height) image.height = row.height;
  return image;
}
