import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { withCommitStep } from '../../db/transaction.js';
import type { Actor } from '../../auth/roles.js';
import { injectWithTicket } from '../../http/in-process.js';
import { cleanHtml } from '../posts/post.service.js';
import type { Kind, OccurrenceOf, SourceRecord } from './import.types.js';
import { KIND_ROUTES } from './import.types.js';
import { nowUtc } from '../../lib/clock.js';
import * as importMap from './import.repository.js';

/**
 * Writes imported records through this service's own routes, in-process (`app.inject`, acting as
 * the importing administrator): the same validation, sanitizing, de-duplication, slugs,
 * transactions and data version as any client's write. The import map row of a record is written
 * in the very transaction that writes the record (withCommitStep), so a run stopped at any point
 * (Ctrl-C, `kill -9`) has imported a record and remembered it, or neither.
 */

const TABLES: Record<Kind, 'terms' | 'venues' | 'organizers' | 'events'> = {
  category: 'terms',
  tag: 'terms',
  venue: 'venues',
  organizer: 'organizers',
  event: 'events',
};
/** Which kind each link of a record points at. */
const LINK_KINDS = {
  venue: 'venue',
  organizers: 'organizer',
  categories: 'category',
  tags: 'tag',
  parent: 'category',
} as const;
/** Our own answers that a new attempt can change (an overloaded instance, a lost race). */
const RETRY_STATUSES = new Set([409, 429, 500, 503]);

export type Outcome = 'created' | 'updated' | 'unchanged';

/** A record this service refused, with its reason (reported; the import goes on). */
export class RecordRefused extends Error {}

interface Mapped {
  localId: number;
  modified: string | null;
  hash: string;
}

export interface WriteResult {
  outcome: Outcome;
  localId: number | null;
  /** Links of the record whose target was not imported (dropped from the write). */
  missing: string[];
}

/** How records are written beyond their own fields. */
export interface WriterOptions {
  /** A day, YYYY-MM-DD: a series' occurrences before it are not made (`recurrence.since`). */
  since?: string | undefined;
}

export class ImportWriter {
  /** `kind:sourceId` → what was imported: read once, kept current as records are written. */
  private readonly map = new Map<string, Mapped>();

  constructor(
    private readonly app: FastifyInstance,
    readonly source: string,
    private readonly actor: Actor,
    private readonly author: number | null,
    private readonly dryRun: boolean,
    private readonly options: WriterOptions = {},
  ) {}

  async load(): Promise<void> {
    const rows = await importMap.mapRows(this.app.services.storage.db, this.source);
    for (const row of rows)
      this.map.set(`${row.kind}:${row.source_id}`, {
        localId: row.local_id,
        modified: row.source_modified,
        hash: row.hash,
      });
  }

  /** Source ids of a kind and language imported by an earlier run (to find what the source no longer has). */
  mappedIds(kind: Kind, lang: string): Promise<Map<string, number>> {
    return importMap.mappedIds(this.app.services.storage.db, this.source, kind, lang);
  }

  localIdOf(kind: Kind, sourceId: string): number | null {
    return this.map.get(`${kind}:${sourceId}`)?.localId ?? null;
  }

  /**
   * The request body: the record's payload with its links as local ids, its language and author.
   * The import writes as an administrator, whose HTML is stored as sent; what a source sends is
   * not an administrator's, so its HTML is cleaned as an untrusted author's would be.
   */
  private body(record: SourceRecord, missing: string[]): Record<string, unknown> {
    const body: Record<string, unknown> = { ...record.payload };
    for (const field of ['description', 'excerpt'])
      if (typeof body[field] === 'string') body[field] = cleanHtml(body[field]);
    const local = (name: keyof typeof LINK_KINDS, sourceId: string): number | null => {
      const id = this.localIdOf(LINK_KINDS[name], sourceId);
      if (id === null) missing.push(`${LINK_KINDS[name]} ${sourceId}`);
      return id;
    };
    const links = record.links ?? {};
    if (links.venue !== undefined) {
      const id = local('venue', links.venue);
      if (id !== null) body['venue'] = id;
    }
    for (const [name, field] of [
      ['organizers', 'organizer'],
      ['categories', 'categories'],
      ['tags', 'tags'],
    ] as const) {
      const list = links[name];
      if (list !== undefined) body[field] = list.map((s) => local(name, s)).filter((id): id is number => id !== null);
    }
    if (links.parent !== undefined) body['parent'] = local('parent', links.parent) ?? 0;
    if (this.author !== null && record.kind !== 'category' && record.kind !== 'tag') body['author'] = this.author;
    return body;
  }

  /** A translation of the record already imported (in another language), to link the new one to. */
  private translationOf(record: SourceRecord): number | null {
    for (const sourceId of record.translations ?? []) {
      const id = this.localIdOf(record.kind, sourceId);
      if (id !== null) return id;
    }
    return null;
  }

  /** The step that writes the record's map row, in the transaction of its write (or one of its own). */
  private rememberStep(record: SourceRecord, hash: string, localId: number) {
    return (trx: Transaction<Database>): Promise<void> =>
      importMap.remember(trx, {
        source: this.source,
        kind: record.kind,
        source_id: record.sourceId,
        lang: record.lang,
        local_id: localId,
        source_modified: record.modified,
        hash,
        imported_at: nowUtc(),
      });
  }

  async write(record: SourceRecord): Promise<WriteResult> {
    if (record.occurrence) return this.writeOccurrence(record, record.occurrence);
    const missing: string[] = [];
    const body = this.body(record, missing);
    // A series' since is left out of the hash: a default since moves with the day (and the most
    // history the cap allows with it), and a series is no different for it: a re-run another day
    // finds it unchanged.
    const hashed = withoutSince(body);
    const hash = createHash('sha256').update(JSON.stringify(hashed)).digest('base64url');
    const key = `${record.kind}:${record.sourceId}`;
    const known = this.map.get(key);
    if (known && known.hash === hash && known.modified === record.modified)
      return { outcome: 'unchanged', localId: known.localId, missing };
    if (this.dryRun) return { outcome: known ? 'updated' : 'created', localId: known?.localId ?? null, missing };
    // A series the reader keeps from a later day (the most history CAL_RECURRENCE_MAX allows) keeps it.
    const recurrence = body['recurrence'];
    if (this.options.since !== undefined && recurrence !== null && typeof recurrence === 'object') {
      const own = (recurrence as { since?: unknown }).since;
      const later = typeof own === 'string' && own.slice(0, 10) > this.options.since ? own.slice(0, 10) : undefined;
      body['recurrence'] = { ...recurrence, since: later ?? this.options.since };
    }

    const route = `/cal/events/v1/${KIND_ROUTES[record.kind]}`;
    const remember = (localId: number) => this.rememberStep(record, hash, localId);
    const mapped = (localId: number) => this.map.set(key, { localId, modified: record.modified, hash });

    if (known) {
      const response = await this.send('PUT', `${route}/${known.localId}`, record.lang, body, async (trx) => {
        await remember(known.localId)(trx);
        return true;
      });
      // Deleted here since the last run: made again.
      if (response.status !== 404) {
        this.expectOk(response);
        mapped(known.localId);
        return { outcome: 'updated', localId: known.localId, missing };
      }
    }

    const translationOf = this.translationOf(record);
    if (translationOf !== null) body['translation_of'] = translationOf;
    const table = TABLES[record.kind];
    const response = await this.send('POST', route, record.lang, body, async (trx, result) => {
      const id =
        typeof result === 'number'
          ? result
          : ((result as { id?: number; row?: { id?: number } } | null)?.id ??
            (result as { row?: { id?: number } } | null)?.row?.id);
      // The record's own transaction (an image made on the way has an id of another table).
      if (typeof id !== 'number' || !(await importMap.recordExists(trx, table, id))) return false;
      await remember(id)(trx);
      return true;
    });
    let localId: number;
    const data = response.json as { id?: number; code?: string; data?: { term_id?: number } } | undefined;
    if (response.status === 400 && data?.code === 'term_exists' && typeof data.data?.term_id === 'number') {
      // The same term made by hand, or by another source: this record is that term.
      localId = data.data.term_id;
    } else {
      this.expectOk(response);
      localId = Number(data?.id);
    }
    // A duplicate venue or organizer, or an existing term, was found rather than written: no
    // transaction took the step, so the map row is written here (there is no new record to lose).
    if (!response.mappedInTransaction) await this.app.services.storage.db.transaction().execute(remember(localId));
    mapped(localId);
    return { outcome: 'created', localId, missing };
  }

  /**
   * An override of one occurrence of a series imported earlier in the run: found by its series and
   * recurrence id, then PATCHed (which makes it an exception of the series) or, for a cancelled
   * one, deleted (which adds its EXDATE; the series' own EXDATEs already hold it, so usually there
   * is nothing left to delete). Its map row names the occurrence; its hash also covers the series'
   * local id, so a series made anew brings its overrides again.
   */
  private async writeOccurrence(record: SourceRecord, of: OccurrenceOf): Promise<WriteResult> {
    const seriesId = this.localIdOf('event', of.series);
    if (seriesId === null) throw new RecordRefused(`its series ${of.series} was not imported`);
    const missing: string[] = [];
    const body = of.cancelled ? {} : this.body(record, missing);
    const hash = createHash('sha256')
      .update(JSON.stringify({ series: seriesId, occurrence: of, body }))
      .digest('base64url');
    const key = `${record.kind}:${record.sourceId}`;
    const known = this.map.get(key);
    if (known && known.hash === hash && known.modified === record.modified)
      return { outcome: 'unchanged', localId: known.localId, missing };
    if (this.dryRun) return { outcome: known ? 'updated' : 'created', localId: known?.localId ?? null, missing };

    const outcome: Outcome = known ? 'updated' : 'created';
    const occurrenceId = await this.findOccurrence(seriesId, of.recurrenceId, record.lang, known?.localId);
    if (occurrenceId === seriesId)
      throw new RecordRefused(
        `the occurrence at ${of.recurrenceId} is the series itself, which cannot be edited or deleted alone`,
      );
    if (of.cancelled) {
      if (occurrenceId === null) return { outcome: 'unchanged', localId: null, missing };
      const response = await this.send('DELETE', `/cal/events/v1/events/${occurrenceId}`, record.lang, undefined, null);
      if (response.status !== 404 && response.status !== 410) this.expectOk(response);
      await this.app.services.storage.db.transaction().execute(this.rememberStep(record, hash, occurrenceId));
      this.map.set(key, { localId: occurrenceId, modified: record.modified, hash });
      return { outcome: 'updated', localId: occurrenceId, missing };
    }
    if (occurrenceId === null) throw new RecordRefused(`series ${seriesId} has no occurrence at ${of.recurrenceId}`);
    const response = await this.send(
      'PATCH',
      `/cal/events/v1/events/${occurrenceId}`,
      record.lang,
      body,
      async (trx) => {
        await this.rememberStep(record, hash, occurrenceId)(trx);
        return true;
      },
    );
    this.expectOk(response);
    if (!response.mappedInTransaction)
      await this.app.services.storage.db.transaction().execute(this.rememberStep(record, hash, occurrenceId));
    this.map.set(key, { localId: occurrenceId, modified: record.modified, hash });
    return { outcome, localId: occurrenceId, missing };
  }

  /**
   * The live occurrence of series `seriesId` whose recurrence id is `recurrenceId`: the one an
   * earlier run edited (`known`) if it still is, else the series' own list of exceptions (an
   * occurrence moved far away), else the series' occurrences around that date. Null: none.
   */
  private async findOccurrence(
    seriesId: number,
    recurrenceId: string,
    lang: string,
    known: number | undefined,
  ): Promise<number | null> {
    type Found = {
      id: number;
      series_id?: number;
      recurrence_id?: string;
      status?: string;
      recurrence?: { exceptions?: { id: number; recurrence_id: string }[] };
    };
    const isIt = (e: Found | undefined) =>
      e !== undefined && e.series_id === seriesId && e.recurrence_id === recurrenceId && e.status !== 'trash';
    if (known !== undefined) {
      const response = await this.send('GET', `/cal/events/v1/events/${known}`, lang, undefined, null);
      if (response.status === 200 && isIt(response.json as Found)) return known;
    }
    const series = await this.send('GET', `/cal/events/v1/events/${seriesId}`, lang, undefined, null);
    this.expectOk(series);
    const head = series.json as Found;
    if (head.recurrence_id === recurrenceId) return seriesId;
    const exception = head.recurrence?.exceptions?.find((e) => e.recurrence_id === recurrenceId);
    if (exception) return exception.id;
    const day = recurrenceId.slice(0, 10);
    const around = (days: number) =>
      new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    const query = `post_parent=${seriesId}&start_date=${around(-2)}&end_date=${around(2)}&status=publish,future,draft,pending,private&include_hidden=1&per_page=50`;
    const list = await this.send('GET', `/cal/events/v1/events?${query}`, lang, undefined, null);
    this.expectOk(list);
    return ((list.json as { events?: Found[] }).events ?? []).find(isIt)?.id ?? null;
  }

  /**
   * An override the source no longer has: its occurrence stays as it was edited (there is no
   * going back to the series' own fields), and the map forgets it so it is reported once.
   */
  async forget(kind: Kind, sourceId: string): Promise<void> {
    if (this.dryRun) return;
    await importMap.forget(this.app.services.storage.db, this.source, kind, sourceId);
    this.map.delete(`${kind}:${sourceId}`);
  }

  /** Moves a record the source no longer has to the trash (`--prune`) and forgets it. */
  async trash(kind: Kind, sourceId: string, localId: number, lang: string): Promise<void> {
    if (this.dryRun) return;
    const response = await this.send(
      'DELETE',
      `/cal/events/v1/${KIND_ROUTES[kind]}/${localId}${kind === 'category' || kind === 'tag' ? '?force=true' : ''}`,
      lang,
      undefined,
      null,
    );
    if (response.status >= 400 && response.status !== 404 && response.status !== 410)
      throw new RecordRefused(`${kind} ${localId}: ${response.status}`);
    // Pruned once: a later run does not report it again, and makes it anew if the source has it back.
    await importMap.forget(this.app.services.storage.db, this.source, kind, sourceId);
    this.map.delete(`${kind}:${sourceId}`);
  }

  private expectOk(response: { status: number; json: unknown }): void {
    if (response.status < 300) return;
    const body = response.json as
      { code?: string; message?: string; data?: { params?: Record<string, string> } } | undefined;
    const params = body?.data?.params ? Object.values(body.data.params).join(' ') : '';
    throw new RecordRefused(`${response.status} ${body?.code ?? ''}: ${params || body?.message || 'refused'}`.trim());
  }

  /** One request as the importing user, retried when this instance was momentarily busy. */
  private async send(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    lang: string,
    body: Record<string, unknown> | undefined,
    step: ((trx: Transaction<Database>, result: unknown) => Promise<boolean>) | null,
  ): Promise<{ status: number; json: unknown; mappedInTransaction: boolean }> {
    for (let attempt = 1; ; attempt += 1) {
      let took = false;
      const around = step
        ? <T>(handler: () => Promise<T>) =>
            withCommitStep(async (trx, result) => (took = await step(trx, result)), handler)
        : undefined;
      const response = await injectWithTicket(
        this.app,
        { actor: this.actor, ...(around ? { around } : {}) },
        {
          method,
          url: `${url}${url.includes('?') ? '&' : '?'}i18n_language=${lang}`,
          ...(body ? { payload: body } : {}),
          headers: { 'x-request-id': `import-${attempt}` },
        },
      );
      if (RETRY_STATUSES.has(response.statusCode) && attempt < 3) {
        await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
        continue;
      }
      let json: unknown;
      try {
        json = response.body === '' ? undefined : JSON.parse(response.body);
      } catch {
        json = undefined;
      }
      return { status: response.statusCode, json, mappedInTransaction: took };
    }
  }
}

/** `body` without its recurrence's `since`, for the hash of what a record says. */
function withoutSince(body: Record<string, unknown>): Record<string, unknown> {
  const recurrence = body['recurrence'];
  if (recurrence === null || typeof recurrence !== 'object' || !('since' in recurrence)) return body;
  const { since: _since, ...rest } = recurrence as Record<string, unknown>;
  return { ...body, recurrence: rest };
}
