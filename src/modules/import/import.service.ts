import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Actor } from '../../auth/roles.js';
import type { Config } from '../../config.js';
import { excerpt, redactUrl } from '../../lib/redact.js';
import { KINDS, OVERRIDE_PREFIX, type Kind, type SourceRecord } from './import.types.js';
import { ReportBuilder, type ImportReport } from './import.report.js';
import { ImportWriter, RecordRefused } from './import-writer.service.js';
import { getText, SourceError, type HttpOptions } from './import.source-http.js';
import { RestSource } from './import.source-rest.js';

/**
 * One import, from a REST source or an iCalendar feed: reads records kind by kind (categories,
 * tags, venues, organizers, events: linked records before those that link to them), language by
 * language (the site's default first, so translations find what they translate), and writes each
 * through ImportWriter. A record refused is skipped and reported; only a source that cannot be
 * read at all stops the import.
 */

export interface ImportOptions {
  /** REST root of a site running the original plugin or this service. */
  from?: string | undefined;
  /** iCalendar file path or http(s) URL. */
  ics?: string | undefined;
  /** The text of an iCalendar file a client sent (the admin route's upload), instead of `ics`. */
  icsText?: string | undefined;
  /** The uploaded file's name: with `icsText`, the source's identity in the import map. */
  icsName?: string | undefined;
  user?: string | undefined;
  password?: string | undefined;
  languages?: string[] | undefined;
  /**
   * A day, YYYY-MM-DD. REST: events that ended before it are not read. Both: a series' occurrences
   * before it are not made (its rule is kept whole, so its export is still one RRULE). iCalendar
   * default: CAL_RECURRENCE_HORIZON_DAYS before today (see icsSince).
   */
  since?: string | undefined;
  dryRun?: boolean | undefined;
  prune?: boolean | undefined;
  /** iCalendar: the calendar's name in the report (default: the feed's own). */
  calendarName?: string | undefined;
  /** iCalendar: a category every imported event gets. */
  category?: string | undefined;
  /** iCalendar: the language of its events (default: the site's). */
  language?: string | undefined;
}

export interface ProgressSink {
  /** A kind's total in a language became known (or grew). */
  total(kind: Kind, lang: string, total: number): void;
  /** One more record of the kind handled. */
  tick(kind: Kind, lang: string): void;
}

export interface ImportContext {
  app: FastifyInstance;
  /** Who writes (an administrator). */
  actor: Actor;
  /** Who the imported posts belong to (default: the actor). */
  author: number | null;
  progress?: ProgressSink;
  /** Checked between records: true stops the import (Ctrl-C, a cancelled admin import). */
  stopped?: () => boolean;
}

export class ImportStopped extends Error {}

/**
 * Records of one kind and language written side by side: none links to another of its kind and
 * language (categories wait for their parents, so they go one by one), and PostgreSQL spends
 * most of a write waiting for round trips.
 */
const CONCURRENCY = 8;

/** How sources are read over HTTP: the address guard and the byte cap of one answer. */
function httpOptions(config: Config, kind: 'page' | 'ics'): HttpOptions {
  const policy = { allowPrivate: config.importAllowPrivate };
  return kind === 'page'
    ? { policy, maxBytes: config.importMaxPageBytes, maxBytesSetting: 'CAL_IMPORT_MAX_PAGE_BYTES' }
    : { policy, maxBytes: config.importMaxIcsBytes, maxBytesSetting: 'CAL_IMPORT_MAX_ICS_BYTES' };
}

/** A source as reports, messages and stored options name it: without credentials or tokens. */
export function shownSource(location: string): string {
  return /^https?:\/\//i.test(location) ? redactUrl(location) : location;
}

/** Runs `work` on every item, at most `limit` at a time; the first error stops and is thrown. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Categories with their parents first (a parent of the same source, same language). */
function parentsFirst(records: SourceRecord[]): SourceRecord[] {
  const byId = new Map(records.map((r) => [r.sourceId, r]));
  const out: SourceRecord[] = [];
  const placed = new Set<string>();
  const place = (record: SourceRecord, path: Set<string>) => {
    if (placed.has(record.sourceId) || path.has(record.sourceId)) return;
    path.add(record.sourceId);
    const parent = record.links?.parent === undefined ? undefined : byId.get(record.links.parent);
    if (parent) place(parent, path);
    placed.add(record.sourceId);
    out.push(record);
  };
  for (const record of records) place(record, new Set());
  return out;
}

class Run {
  readonly report: ReportBuilder;

  constructor(
    private readonly context: ImportContext,
    private readonly writer: ImportWriter,
    private readonly options: ImportOptions,
  ) {
    // The writer's key is the source's identity in the import map (kept as it was, so that runs
    // resume); the report names it as it may be shown.
    this.report = new ReportBuilder(shownSource(writer.source.replace(/^(rest|ics):/, '')), options.dryRun === true);
  }

  async write(record: SourceRecord): Promise<void> {
    if (this.context.stopped?.()) throw new ImportStopped('stopped');
    const counts = this.report.counts(record.kind, record.lang);
    try {
      const result = await this.writer.write(record);
      counts[result.outcome] += 1;
      if (result.missing.length > 0)
        this.report.report.missing_links.push({
          kind: record.kind,
          sourceId: record.sourceId,
          lang: record.lang,
          links: result.missing,
        });
    } catch (error) {
      if (!(error instanceof RecordRefused)) throw error;
      this.report.skip({
        kind: record.kind,
        sourceId: record.sourceId,
        lang: record.lang,
        reason: excerpt(error.message, 300),
      });
    }
    this.context.progress?.tick(record.kind, record.lang);
  }

  /**
   * Records an earlier run imported that this run did not see: reported, trashed with --prune. An
   * override of an occurrence (`override:…`, iCalendar) is reported and forgotten, never trashed:
   * the occurrence is still in its series (trashing the series takes it with it).
   */
  async gone(kind: Kind, lang: string, seen: Set<string>): Promise<void> {
    for (const [sourceId, localId] of await this.writer.mappedIds(kind, lang)) {
      if (seen.has(sourceId)) continue;
      if (kind === 'event' && sourceId.startsWith(OVERRIDE_PREFIX)) {
        await this.writer.forget(kind, sourceId);
        this.report.counts(kind, lang).gone += 1;
        this.report.report.gone.push({ kind, sourceId, lang, localId, pruned: false });
        continue;
      }
      const pruned = this.options.prune === true && !this.options.dryRun;
      if (pruned) await this.writer.trash(kind, sourceId, localId, lang);
      this.report.counts(kind, lang).gone += 1;
      this.report.report.gone.push({ kind, sourceId, lang, localId, pruned });
    }
  }
}

async function importRest(context: ImportContext, options: ImportOptions): Promise<ImportReport> {
  const { config } = context.app.services;
  const source = await RestSource.open({
    url: options.from!,
    user: options.user,
    password: options.password,
    languages: options.languages,
    since: options.since,
    siteLanguages: config.languages,
    defaultLanguage: config.defaultLanguage,
    http: httpOptions(config, 'page'),
  });
  const writer = new ImportWriter(context.app, source.key, context.actor, context.author, options.dryRun === true, {
    since: options.since,
  });
  await writer.load();
  const run = new Run(context, writer, options);
  if (source.languages.length === 0)
    throw new SourceError('The source has none of the languages asked for (or of this site).');
  const languages = [...source.languages].sort((a, b) =>
    a === config.defaultLanguage ? -1 : b === config.defaultLanguage ? 1 : 0,
  );
  for (const kind of KINDS) {
    for (const lang of languages) {
      const seen = new Set<string>();
      let buffered: SourceRecord[] = [];
      const pages = async function* () {
        yield* source.pages(kind, lang);
        if (kind === 'event') yield* source.unlisted(lang, seen);
      };
      for await (const page of pages()) {
        context.progress?.total(kind, lang, page.total);
        for (const skipped of page.skipped) {
          run.report.skip(skipped);
          context.progress?.tick(kind, lang);
        }
        for (const record of page.records) seen.add(record.sourceId);
        // Categories wait for their parents, which may come on a later page.
        if (kind === 'category') buffered.push(...page.records);
        else await eachLimited(page.records, CONCURRENCY, (record) => run.write(record));
      }
      for (const record of parentsFirst(buffered)) await run.write(record);
      buffered = [];
      // With --since, older events were not read: they are not gone.
      if (!(kind === 'event' && options.since)) await run.gone(kind, lang, seen);
    }
  }
  for (const warning of source.warnings) run.report.warn(warning);
  if (source.flavour === 'original' && source.languages.length > 1) {
    run.report.warn(
      `Languages read from the source: ${source.languages.join(', ')} (roots ${[...source.roots.values()].join(', ')}).`,
    );
  }
  return run.report.finish();
}

/** The text of the iCalendar source and its key in the import map: an upload, a URL, or a local file. */
async function icsSource(config: Config, options: ImportOptions): Promise<{ text: string; key: string }> {
  // An upload is keyed by its file name: sending the same file again updates what the first created.
  if (options.icsText !== undefined) return { text: options.icsText, key: `ics:upload:${options.icsName ?? ''}` };
  const location = options.ics!;
  const isUrl = /^https?:\/\//i.test(location);
  try {
    const text = isUrl
      ? await getText(location, httpOptions(config, 'ics'))
      : await readLocal(location, config.importMaxIcsBytes);
    return { text, key: `ics:${isUrl ? location : resolve(location)}` };
  } catch (error) {
    if (error instanceof SourceError) throw error;
    throw new SourceError(`Cannot read ${location}: ${(error as Error).message}`);
  }
}

/**
 * Where an imported feed's series begin to be made unless --since says: as far back as the horizon
 * reaches ahead (CAL_RECURRENCE_HORIZON_DAYS, two years by default). A weekly meeting that has run
 * for ten years keeps its last two years in lists and pages, and its rule whole (the export is one
 * RRULE from its first date); its whole history would count against CAL_RECURRENCE_MAX and have
 * it refused, and a window as wide behind as ahead is what a calendar is browsed over. A day
 * (not an instant) so that runs on one day send the same writes.
 */
export function icsSince(horizonDays: number, now: Date = new Date()): string {
  return new Date(now.getTime() - horizonDays * 86_400_000).toISOString().slice(0, 10);
}

async function importIcs(context: ImportContext, options: ImportOptions): Promise<ImportReport> {
  const { config } = context.app.services;
  const source = await icsSource(config, options);
  const key = source.key;
  const lang = options.language ?? config.defaultLanguage;
  if (!config.languages.includes(lang))
    throw new SourceError(`--language ${lang} is not a site language (${config.languages.join(', ')}).`);
  // Loaded for iCalendar imports only (ical.js is not needed otherwise).
  const { streamIcs } = await import('./import.ics.js');
  const since = options.since ?? icsSince(config.recurrenceHorizonDays);
  // The reader checks each series against the policy the writes will meet, `since` included.
  const recurrence = { max: config.recurrenceMax, horizonDays: config.recurrenceHorizonDays, since };
  // Scanned now (a file that is not a calendar is refused before anything is written), then read
  // a chunk at a time, each chunk written before the next is read: what is held is the feed's
  // text and one chunk's records, however many events the feed has.
  const stream = streamIcs(source.text, {
    lang,
    category: options.category,
    calendarName: options.calendarName,
    recurrence,
  });
  const writer = new ImportWriter(context.app, key, context.actor, context.author, options.dryRun === true, {
    since,
  });
  await writer.load();
  const run = new Run(context, writer, options);
  const seen = new Map<Kind, Set<string>>(KINDS.map((k) => [k, new Set()]));
  const chunks = stream.chunks();
  let step = chunks.next();
  while (!step.done) {
    for (const skipped of step.value.skipped) run.report.skip(skipped);
    for (const kind of KINDS) {
      const records = step.value.records.filter((r) => r.kind === kind);
      if (records.length === 0) continue;
      const ids = seen.get(kind)!;
      for (const record of records) ids.add(record.sourceId);
      // A VEVENT may make several events (a series expanded): the total grows past the VEVENTs.
      context.progress?.total(kind, lang, kind === 'event' ? Math.max(stream.vevents, ids.size) : ids.size);
      if (kind === 'category') for (const record of records) await run.write(record);
      else {
        // Overrides of occurrences after the series they edit (in the same chunk as it).
        await eachLimited(
          records.filter((r) => !r.occurrence),
          CONCURRENCY,
          (record) => run.write(record),
        );
        await eachLimited(
          records.filter((r) => r.occurrence),
          CONCURRENCY,
          (record) => run.write(record),
        );
      }
    }
    step = chunks.next();
  }
  for (const kind of KINDS) await run.gone(kind, lang, seen.get(kind)!);
  for (const warning of step.value.warnings) run.report.warn(warning);
  if (step.value.calendarName) run.report.warn(`Calendar: ${step.value.calendarName}`);
  return run.report.finish();
}

/** A local .ics file (the command line only), under the same cap as one fetched. */
async function readLocal(path: string, maxBytes: number): Promise<string> {
  const size = (await stat(path)).size;
  if (size > maxBytes)
    throw new SourceError(
      `${path} has ${size} bytes, more than the ${maxBytes} allowed: raise CAL_IMPORT_MAX_ICS_BYTES if the feed is that large.`,
    );
  return readFile(path, 'utf8');
}

/** Runs one import; throws SourceError (one line, what to do) when the source cannot be read. */
export async function runImport(context: ImportContext, options: ImportOptions): Promise<ImportReport> {
  const sources = [options.from, options.ics, options.icsText].filter((s) => s !== undefined).length;
  if (sources !== 1) throw new SourceError('Give either --from <REST root URL> or --ics <file or URL>.');
  // Thousands of writes in a row: the storage's memory for them (a steady rate on SQLite).
  return context.app.services.storage.bulkWrites(() =>
    options.from !== undefined ? importRest(context, options) : importIcs(context, options),
  );
}
