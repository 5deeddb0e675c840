import { writeFile } from 'node:fs/promises';
import cliProgress from 'cli-progress';
import { buildApp } from '../../app.js';
import type { Config } from '../../config.js';
import type { Storage } from '../../db/connect.js';
import { isRole } from '../../auth/roles.js';
import * as users from '../users/user.service.js';
import type { Kind } from './import.types.js';
import { reportTable } from './import.report.js';
import { ImportStopped, runImport, type ProgressSink } from './import.service.js';
import { SourceError } from './import.source-http.js';
import type { ImportRequest } from './import.usage.js';

/**
 * `cal-events import`: the importer on a terminal. Progress is a bar per kind on a TTY, else one
 * JSON line per 100 records (for logs); the report is a table on stdout, and JSON with --report.
 * Ctrl-C stops after the record being written; the next run resumes (the import map).
 */

/** A bar per kind on a terminal; JSON lines otherwise. */
function progressSink(): { sink: ProgressSink; stop(): void } {
  const totals = new Map<Kind, Map<string, number>>();
  const done = new Map<Kind, number>();
  const sum = (kind: Kind) => [...(totals.get(kind)?.values() ?? [])].reduce((a, b) => a + b, 0);
  if (!process.stderr.isTTY) {
    return {
      sink: {
        total: (kind, lang, total) =>
          void (totals.get(kind) ?? totals.set(kind, new Map()).get(kind)!).set(lang, total),
        tick: (kind) => {
          const n = (done.get(kind) ?? 0) + 1;
          done.set(kind, n);
          if (n % 100 === 0 || n === sum(kind))
            process.stderr.write(`${JSON.stringify({ kind, done: n, total: sum(kind) })}\n`);
        },
      },
      stop: () => undefined,
    };
  }
  const bars = new cliProgress.MultiBar(
    {
      format: '{kind} [{bar}] {value}/{total} {rate}/s ETA {eta_formatted}',
      hideCursor: true,
      clearOnComplete: false,
      stream: process.stderr,
    },
    cliProgress.Presets.shades_classic,
  );
  const byKind = new Map<Kind, cliProgress.SingleBar>();
  const started = new Map<Kind, number>();
  const bar = (kind: Kind) => {
    let b = byKind.get(kind);
    if (!b) {
      b = bars.create(0, 0, { kind: kind.padEnd(9), rate: 0 });
      byKind.set(kind, b);
      started.set(kind, performance.now());
    }
    return b;
  };
  return {
    sink: {
      total: (kind, lang, total) => {
        (totals.get(kind) ?? totals.set(kind, new Map()).get(kind)!).set(lang, total);
        bar(kind).setTotal(sum(kind));
      },
      tick: (kind) => {
        const n = (done.get(kind) ?? 0) + 1;
        done.set(kind, n);
        const seconds = (performance.now() - started.get(kind)!) / 1000;
        bar(kind).update(n, { rate: seconds > 0 ? Math.round(n / seconds) : n });
      },
    },
    stop: () => bars.stop(),
  };
}

/** Exit status of an import that went to its end but skipped records: the report says which and why. */
export const FINISHED_WITH_SKIPS = 3;

/** Runs `cal-events import …` on an open, migrated database; returns the exit status. */
export async function importCommand(
  { options, author, report }: ImportRequest,
  config: Config,
  storage: Storage,
): Promise<number> {
  const admin = await users.firstAdministrator(storage.db);
  if (!admin || !isRole(admin.role))
    throw new SourceError(
      'No administrator to import as: create one first (cal-events user add admin --role administrator).',
    );
  let authorId: number | null = null;
  if (author !== undefined) {
    const user = await users.findUserByName(storage.db, author);
    if (!user) throw new SourceError(`--author: no user named "${author}".`);
    authorId = user.id;
  }
  // Writes go through the routes in-process: no port, no request logs, no overload guard.
  const app = await buildApp({ ...config, maxEventLoopDelayMs: 0 }, { storage, logger: false });
  await app.ready();
  let stopping = false;
  const onSignal = () => {
    if (stopping) process.exit(130);
    stopping = true;
    process.stderr.write('\nStopping after the current record (Ctrl-C again to quit now); the next run resumes.\n');
  };
  process.on('SIGINT', onSignal);
  const progress = progressSink();
  try {
    const result = await runImport(
      {
        app,
        actor: { id: admin.id, username: admin.username, role: admin.role },
        author: authorId,
        progress: progress.sink,
        stopped: () => stopping,
      },
      options,
    );
    progress.stop();
    process.stdout.write(`${reportTable(result)}\n`);
    if (report !== undefined) await writeFile(report, `${JSON.stringify(result, null, 2)}\n`);
    // A script can tell "all in" from "in, but some records were not" without reading the table.
    const skipped = Object.values(result.counts)
      .flatMap((byLang) => Object.values(byLang))
      .reduce((n, c) => n + c.skipped, 0);
    return skipped > 0 ? FINISHED_WITH_SKIPS : 0;
  } catch (error) {
    progress.stop();
    if (error instanceof ImportStopped) {
      process.stderr.write('Stopped. Run the same command again to resume.\n');
      return 130;
    }
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    await app.close();
  }
}
