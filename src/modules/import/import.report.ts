import type { Kind, Skipped } from './import.types.js';
import { KINDS, OVERRIDE_PREFIX } from './import.types.js';

/**
 * The counts an import ends with, per kind and language, the reasons of every skip, the records
 * the source no longer has, warnings, and the rate. Printed as a table by the CLI, stored as
 * JSON for the admin route and `--report FILE`. Never holds a credential.
 */

export interface Counts {
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  gone: number;
}

export interface ImportReport {
  source: string;
  dry_run: boolean;
  started: string;
  finished: string | null;
  seconds: number;
  /** Records read from the source per second (written or found unchanged). */
  rate: number;
  counts: Record<string, Record<string, Counts>>;
  /** The counts summed over kinds and languages: `totals.skipped > 0` is "finished with skips". */
  totals: Counts;
  skipped: Skipped[];
  /** Records an earlier run imported that the source no longer has; trashed with --prune. */
  gone: { kind: Kind; sourceId: string; lang: string; localId: number; pruned: boolean }[];
  /** Links dropped because their target was not imported. */
  missing_links: { kind: Kind; sourceId: string; lang: string; links: string[] }[];
  warnings: string[];
}

const zero = (): Counts => ({ created: 0, updated: 0, unchanged: 0, skipped: 0, gone: 0 });

export class ReportBuilder {
  readonly report: ImportReport;
  private readonly startedAt = performance.now();
  /** The warnings given, for saying each once: a feed may give one per event (a list's `includes` is quadratic). */
  private readonly warned = new Set<string>();

  constructor(source: string, dryRun: boolean) {
    this.report = {
      source,
      dry_run: dryRun,
      started: new Date().toISOString(),
      finished: null,
      seconds: 0,
      rate: 0,
      counts: {},
      totals: zero(),
      skipped: [],
      gone: [],
      missing_links: [],
      warnings: [],
    };
  }

  counts(kind: Kind, lang: string): Counts {
    const byKind = (this.report.counts[kind] ??= {});
    return (byKind[lang] ??= zero());
  }

  skip(skipped: Skipped): void {
    this.counts(skipped.kind, skipped.lang).skipped += 1;
    this.report.skipped.push(skipped);
  }

  warn(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.report.warnings.push(message);
  }

  finish(): ImportReport {
    const seconds = (performance.now() - this.startedAt) / 1000;
    const totals = zero();
    for (const c of Object.values(this.report.counts).flatMap((byLang) => Object.values(byLang)))
      for (const key of Object.keys(totals) as (keyof Counts)[]) totals[key] += c[key];
    const handled = totals.created + totals.updated + totals.unchanged + totals.skipped;
    Object.assign(this.report, {
      totals,
      finished: new Date().toISOString(),
      seconds: Math.round(seconds * 10) / 10,
      rate: seconds > 0 ? Math.round(handled / seconds) : handled,
    });
    return this.report;
  }
}

/** The report as a text table, for a terminal. */
export function reportTable(report: ImportReport): string {
  const rows: string[][] = [['kind', 'language', 'created', 'updated', 'unchanged', 'skipped', 'gone']];
  for (const kind of KINDS) {
    for (const [lang, c] of Object.entries(report.counts[kind] ?? {}))
      rows.push([kind, lang, ...[c.created, c.updated, c.unchanged, c.skipped, c.gone].map(String)]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const out = [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)];
  out.push('', `${report.dry_run ? 'Dry run (nothing written): ' : ''}${report.seconds} s, ${report.rate} records/s.`);
  if (report.totals.skipped > 0)
    out.push(`Finished with ${report.totals.skipped} record(s) skipped; each is named below with its reason.`);
  for (const s of report.skipped.slice(0, 50)) out.push(`skipped ${s.kind} ${s.sourceId} (${s.lang}): ${s.reason}`);
  if (report.skipped.length > 50) out.push(`… and ${report.skipped.length - 50} more skips (see --report FILE).`);
  const kept = (sourceId: string) =>
    sourceId.startsWith(OVERRIDE_PREFIX)
      ? ' (an occurrence of a series: kept, with its edits)'
      : ' (kept; --prune trashes it)';
  for (const g of report.gone.slice(0, 20))
    out.push(
      `gone from the source: ${g.kind} ${g.sourceId} (${g.lang}), here ${g.localId}${g.pruned ? ', moved to the trash' : kept(g.sourceId)}`,
    );
  for (const m of report.missing_links.slice(0, 20))
    out.push(`${m.kind} ${m.sourceId} (${m.lang}) imported without ${m.links.join(', ')} (not imported)`);
  for (const w of report.warnings) out.push(`warning: ${w}`);
  return out.join('\n');
}
