import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.js';
import { transactionLock } from '../../db/dialect.js';
import { ApiError, conflict, invalidParam } from '../../http/errors.js';
import type { Actor } from '../../auth/roles.js';
import type { Kind, Progress } from './import.types.js';
import { excerpt } from '../../lib/redact.js';
import { resolvedProblem } from '../../lib/outbound.js';
import * as users from '../users/user.service.js';
import type { ImportRequest } from './import.schema.js';
import { runImport, shownSource, ImportStopped, type ImportOptions } from './import.service.js';
import { SourceError } from './import.source-http.js';
import * as imports from './import.repository.js';

/**
 * Imports started through the admin route: one at a time across every instance on the database,
 * run in the background by the instance that took the request, with progress and report in the
 * `imports` table so that any instance answers GET. A running import refreshes its heartbeat;
 * one whose heartbeat stopped (its instance died) is reported as failed, and the next import of
 * the same source resumes from the import map.
 */

const HEARTBEAT_MS = 2_000;
/** A heartbeat older than this: the instance that ran the import is gone. */
const STALE_MS = 30_000;

const iso = (ms = Date.now()) => new Date(ms).toISOString();

/** Most characters of a stored error: messages quote their source in excerpts, and this bounds the rest. */
const ERROR_CHARS = 1000;

export interface ImportJob {
  id: number;
  status: 'running' | 'done' | 'failed';
  options: Record<string, unknown>;
  progress: Progress;
  report: unknown;
  error: string | null;
  user_id: number;
  started: string;
  finished: string | null;
}

function toJob(row: imports.ImportRow): ImportJob {
  const stale = row.status === 'running' && Date.parse(row.heartbeat) < Date.now() - STALE_MS;
  return {
    id: row.id,
    status: stale ? 'failed' : (row.status as ImportJob['status']),
    options: JSON.parse(row.options) as Record<string, unknown>,
    progress: JSON.parse(row.progress) as Progress,
    report: row.report === null ? null : JSON.parse(row.report),
    error: stale ? 'The instance running this import stopped; start it again to resume.' : row.error,
    user_id: row.user_id,
    started: row.started,
    finished: stale ? row.heartbeat : row.finished,
  };
}

/** What is stored and shown of the options: never the source's password, nor credentials or tokens in its URL. */
function shownOptions(options: ImportOptions): Record<string, unknown> {
  // An upload's text is never stored with the options: its file name stands for it.
  const { password, from, ics, icsText, icsName, ...rest } = options;
  const shown = {
    ...rest,
    from: from === undefined ? undefined : shownSource(from),
    ics: ics === undefined ? undefined : shownSource(ics),
    icsUpload: icsText === undefined ? undefined : icsName,
    password: password === undefined ? undefined : '(set)',
  };
  return Object.fromEntries(Object.entries(shown).filter(([, v]) => v !== undefined));
}

/**
 * A source the importer would refuse to reach is a 400 now rather than a failed import later:
 * not an http(s) URL, or a loopback, private or metadata address (by the URL or, at this
 * moment, by DNS). The importer checks again at every connection and redirect.
 */
async function checkSource(name: 'from' | 'ics', raw: string, allowPrivate: boolean): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidParam(name, `${name} must be an http(s) URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidParam(name, `${name} must be an http(s) URL.`);
  const problem = await resolvedProblem(url, { allowPrivate });
  if (problem)
    throw invalidParam(
      name,
      `${name} must not point there: ${problem.message}${problem.kind === 'private' ? ' (CAL_IMPORT_ALLOW_PRIVATE=1 allows importing from a private network)' : ''}.`,
    );
}

export class ImportJobs {
  private readonly running = new Map<number, { stop: boolean }>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly db: Db,
  ) {
    app.addHook('onClose', async () => {
      for (const job of this.running.values()) job.stop = true;
    });
  }

  async get(id: number): Promise<ImportJob | null> {
    const row = await imports.findImport(this.db, id);
    return row ? toJob(row) : null;
  }

  async list(): Promise<ImportJob[]> {
    return (await imports.recentImports(this.db, 20)).map(toJob);
  }

  /** The import, or 404 `rest_import_not_found`. */
  async found(id: number): Promise<ImportJob> {
    const job = await this.get(id);
    if (!job) throw new ApiError(404, 'rest_import_not_found', 'No import with this id.');
    return job;
  }

  /**
   * An import a client asked for: one source (a REST root, an iCalendar URL, or the text of an
   * iCalendar file it sends: the server reads no files for a client), a source the importer may
   * reach, an author who exists; then started.
   */
  async startRequested(body: ImportRequest, actor: Actor): Promise<ImportJob> {
    const sources = [body.from, body.ics, body.ics_content].filter((s) => s !== undefined).length;
    if (sources !== 1)
      throw new ApiError(400, 'rest_missing_callback_param', 'Give one of from, ics or ics_content.', {
        params: ['from', 'ics', 'ics_content'],
      });
    if (body.filename !== undefined && body.ics_content === undefined)
      throw invalidParam('filename', 'filename names an uploaded file: it goes with ics_content.');
    if (body.ics !== undefined && !/^https?:\/\//i.test(body.ics))
      throw invalidParam('ics', 'ics must be an http(s) URL.');
    const { config } = this.app.services;
    if (body.ics_content === undefined)
      await checkSource(body.from === undefined ? 'ics' : 'from', (body.from ?? body.ics)!, config.importAllowPrivate);
    if (body.author !== undefined && !(await users.findUser(this.db, body.author)))
      throw invalidParam('author', 'author is not the id of a user.');
    return this.start(
      {
        from: body.from,
        ics: body.ics,
        icsText: body.ics_content,
        icsName: body.ics_content === undefined ? undefined : (body.filename ?? 'upload.ics'),
        user: body.user,
        password: body.password,
        languages: body.languages,
        since: body.since,
        dryRun: body.dry_run,
        prune: body.prune,
        calendarName: body.calendar_name,
        category: body.category,
        language: body.language,
      },
      actor,
      body.author ?? null,
    );
  }

  /** Records a new import, refusing while another is running anywhere; then runs it in the background. */
  async start(options: ImportOptions, actor: Actor, author: number | null): Promise<ImportJob> {
    const now = iso();
    const id = await this.db.transaction().execute(async (trx) => {
      // One starter at a time (SQLite's writers are serial already).
      await transactionLock(trx, 'imports');
      const busy = await imports.runningImport(trx, iso(Date.now() - STALE_MS));
      if (busy)
        throw conflict('rest_import_running', `Import ${busy.id} is running; one import runs at a time.`, {
          import_id: busy.id,
        });
      return imports.insertImport(trx, {
        status: 'running',
        options: JSON.stringify(shownOptions(options)),
        progress: '{}',
        report: null,
        error: null,
        user_id: actor.id,
        started: now,
        heartbeat: now,
        finished: null,
      });
    });
    void this.run(id, options, actor, author);
    return (await this.get(id))!;
  }

  private async run(id: number, options: ImportOptions, actor: Actor, author: number | null): Promise<void> {
    const progress: Progress = {};
    const totals = new Map<Kind, Map<string, number>>();
    const control = { stop: false };
    this.running.set(id, control);
    const beat = () =>
      imports
        .updateImport(this.db, id, { heartbeat: iso(), progress: JSON.stringify(progress) })
        .catch(() => undefined);
    const timer = setInterval(() => void beat(), HEARTBEAT_MS);
    try {
      const report = await runImport(
        {
          app: this.app,
          actor,
          author,
          stopped: () => control.stop,
          progress: {
            total: (kind, lang, total) => {
              const byLang = totals.get(kind) ?? new Map<string, number>();
              totals.set(kind, byLang.set(lang, total));
              progress[kind] = {
                done: progress[kind]?.done ?? 0,
                total: [...byLang.values()].reduce((a, b) => a + b, 0),
              };
            },
            tick: (kind) => {
              progress[kind] = { done: (progress[kind]?.done ?? 0) + 1, total: progress[kind]?.total ?? 0 };
            },
          },
        },
        options,
      );
      await this.finish(id, 'done', progress, report, null);
    } catch (error) {
      const message =
        error instanceof ImportStopped
          ? 'Stopped: the service shut down. Start the import again to resume.'
          : error instanceof SourceError
            ? error.message
            : 'The import failed; see the service log.';
      if (!(error instanceof SourceError) && !(error instanceof ImportStopped))
        this.app.log.error({ err: error, importId: id }, 'import failed');
      await this.finish(id, 'failed', progress, null, message);
    } finally {
      clearInterval(timer);
      this.running.delete(id);
    }
  }

  private async finish(
    id: number,
    status: 'done' | 'failed',
    progress: Progress,
    report: unknown,
    error: string | null,
  ): Promise<void> {
    const now = iso();
    await imports
      .updateImport(this.db, id, {
        status,
        progress: JSON.stringify(progress),
        report: report === null ? null : JSON.stringify(report),
        error: error === null ? null : excerpt(error, ERROR_CHARS),
        heartbeat: now,
        finished: now,
      })
      .catch((err: unknown) => this.app.log.error({ err, importId: id }, 'import result not stored'));
  }
}
