import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.js';

/**
 * The submission form's choices (issue 29): the published venues and organizers and the event
 * categories of the page's language, by name, with their ids (what the form sends and the
 * submissions service checks: published, of the same language). Bounded: a longer list is no use
 * in a <select>; a record past it can still be named as a new one, for a moderator to merge.
 */

export interface SubmitChoice {
  id: number;
  name: string;
}

export interface SubmitChoices {
  venues: SubmitChoice[];
  organizers: SubmitChoice[];
  categories: SubmitChoice[];
}

function published(db: Db, table: 'venues' | 'organizers', lang: string, limit: number): Promise<SubmitChoice[]> {
  return db
    .selectFrom(table)
    .select(['id', 'title as name'])
    .where('lang', '=', lang)
    .where(sql<SqlBool>`status = 'publish'`)
    .orderBy('title')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function submitChoices(db: Db, lang: string, limit: number): Promise<SubmitChoices> {
  const [venues, organizers, categories] = await Promise.all([
    published(db, 'venues', lang, limit),
    published(db, 'organizers', lang, limit),
    db
      .selectFrom('terms')
      .select(['id', 'name'])
      .where('taxonomy', '=', 'cal_events_cat')
      .where('lang', '=', lang)
      .orderBy('name')
      .orderBy('id')
      .limit(limit)
      .execute(),
  ]);
  return { venues, organizers, categories };
}
