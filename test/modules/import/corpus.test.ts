import { after, before, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';
import { expandCalendar, type Expansion, type Occurrence } from '../../helpers/ical-occurrences.js';
import { runImport } from '../../../src/modules/import/import.service.js';
import type { ImportReport } from '../../../src/modules/import/import.report.js';
import { SourceError } from '../../../src/modules/import/import.source-http.js';

/**
 * Real calendar files nobody here wrote (test/fixtures/ics/corpus/, from the test data of other
 * iCalendar libraries; SOURCES.md says where each comes from), each imported through the
 * importer the command line runs, imported again, and exported as the `?format=ical` feed. The
 * original and the export are both expanded by ical.js's own recurrence expander over one window,
 * and their occurrences compared. Every file's outcome must be the clean one (accepted whole,
 * idempotent, same occurrences, same titles) or the one known-differences.json lists with its
 * reason; a listed difference that no longer happens fails too, so the list stays true.
 *
 * The files share one service per database kind (a fresh one per file would cost most of the
 * run): each file's events get a category of their own, and its feed is asked for that category.
 */

const NS = '/cal/events/v1';
const CORPUS = fileURLToPath(new URL('../../fixtures/ics/corpus/', import.meta.url));
const KNOWN = fileURLToPath(new URL('../../fixtures/ics/known-differences.json', import.meta.url));
/**
 * The service's clock during the imports: what it keeps of a series depends on today (the history
 * it keeps, the horizon it materializes to), and the outcomes listed must not drift with the years.
 */
const NOW = new Date('2026-11-27T12:00:00Z');
const WINDOW = { from: '2000-01-01', to: '2035-01-01', maxPerSeries: 10_000, floatingZone: 'UTC' };

type Accepted = 'whole' | 'partial' | 'refused' | 'error';
interface Outcome {
  accepted: Accepted;
  idempotent: boolean;
  matching: boolean;
  titles: boolean;
  /** ical.js, the reference, reads every VEVENT of the original (else the comparison leaves some out). */
  reference: boolean;
}
type Known = Partial<Outcome> & { reason: string };
const CLEAN: Outcome = { accepted: 'whole', idempotent: true, matching: true, titles: true, reference: true };

function corpusFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return corpusFiles(full, `${prefix}${name}/`);
      return name.endsWith('.ics') ? [`${prefix}${name}`] : [];
    });
}

const eventCount = (report: ImportReport, field: 'created' | 'updated' | 'skipped' | 'gone') =>
  Object.values(report.counts['event'] ?? {}).reduce((n, c) => n + c[field], 0);

/** Occurrences in `a` and not in `b` (as multisets), for the failure message. */
function missing(a: string[], b: string[]): string[] {
  const left = new Map<string, number>();
  for (const x of b) left.set(x, (left.get(x) ?? 0) + 1);
  return a.filter((x) => {
    const n = left.get(x) ?? 0;
    if (n > 0) left.set(x, n - 1);
    return n === 0;
  });
}

const starts = (list: Occurrence[]) => list.map((o) => o.start);
/** Occurrences with their titles; at the times where the original has no SUMMARY, any title the service gives. */
const titled = (list: Occurrence[], untitled: Set<string>) =>
  list.map((o) => (untitled.has(o.start) ? o.start : `${o.start} ${o.summary}`));

const files = corpusFiles(CORPUS);
const known = JSON.parse(readFileSync(KNOWN, 'utf8')) as Record<string, Known>;

describe('iCalendar corpus: its lists', () => {
  it('names the origin and licence of every file (SOURCES.md), each licence text in licenses/', () => {
    const sources = readFileSync(new URL('../../fixtures/ics/SOURCES.md', import.meta.url), 'utf8');
    for (const file of files) assert.ok(sources.includes(`\`corpus/${file}\``), `SOURCES.md does not list ${file}`);
    for (const [, name] of sources.matchAll(/licenses\/([\w.-]+\.txt)/g))
      assert.ok(statSync(new URL(`../../fixtures/ics/licenses/${name}`, import.meta.url)).size > 500, name);
  });

  it('has no known difference for a file that is not there, and each gives a reason', () => {
    for (const [file, entry] of Object.entries(known)) {
      assert.ok(files.includes(file), `known-differences.json lists ${file}, which is not in the corpus`);
      assert.ok(entry.reason.length > 10, `${file}: say why`);
    }
  });
});

/** The reference's own reading, checked by hand on a few files, so that a wrong reference cannot pass as agreement. */
describe('iCalendar corpus: the reference expansion (ical.js) reads files as calendar programs do', () => {
  const expand = (file: string) =>
    expandCalendar(readFileSync(path.join(CORPUS, file), 'utf8'), WINDOW).occurrences.map((o) =>
      o.summary ? `${o.start} ${o.summary}` : o.start,
    );

  it('applies COUNT and EXDATE in the zone of the series, across a DST change', () => {
    assert.deepEqual(expand('recurring-ical-events/each_week_but_one_deleted.ics'), [
      '2019-03-03T23:30:00Z test6',
      '2019-03-17T23:30:00Z test6',
      '2019-03-24T23:30:00Z test6',
      '2019-03-31T22:30:00Z test6',
      '2019-04-07T22:30:00Z test6',
      '2019-04-14T22:30:00Z test6',
      '2019-04-21T22:30:00Z test6',
    ]);
  });

  it('puts each override in place of the instance it names, drops a cancelled one, keeps UNTIL inclusive', () => {
    assert.deepEqual(expand('recurring-ical-events/recurring_events_moved.ics'), [
      '2019-03-07T01:00:00Z New Event',
      '2019-03-08T00:00:00Z New Event',
      '2019-03-09T02:00:00Z New Event',
      '2019-03-10T01:00:00Z New Event',
      '2019-03-18T03:00:00Z test7',
      '2019-03-19T03:00:00Z test7 - edited',
      '2019-03-20T03:00:00Z test7',
    ]);
    assert.deepEqual(expand('recurring-ical-events/issue_18_cancel_status.ics'), [
      '2020-01-28T21:00:00Z one is cancelled',
      '2020-01-30T21:00:00Z one is cancelled',
    ]);
  });

  it('reads vendor-prefixed IANA TZIDs, a custom VTIMEZONE by its rules, and dates without VALUE=DATE', () => {
    assert.deepEqual(expand('python-icalendar/issue_313_globally_unique_tzid.ics'), [
      '2020-04-26T12:00:00Z libical / Evolution globally unique TZID',
      '2020-04-26T17:00:00Z vendor prefix in front of a multi-part Olson name',
      '2020-04-26T18:00:00Z Mozilla Lightning globally unique TZID',
    ]);
    const custom = expand('python-icalendar/issue_466_respect_unique_timezone.ics');
    assert.deepEqual(custom.slice(0, 3), [
      '2022-10-21T18:00:00Z Just chatting',
      '2022-10-28T18:00:00Z Just chatting',
      '2022-11-04T19:00:00Z Just chatting',
    ]);
    assert.deepEqual(expand('recurring-ical-events/Germany_Holidays.ics').slice(0, 2), [
      "D:2019-01-01 New Year's Day",
      'D:2019-01-06 Epiphany',
    ]);
  });
});

/**
 * The files each database imports: every file on SQLite; on PostgreSQL every fourth (all of them
 * with CAL_CORPUS_ALL=1). What a file exercises is the reader, which is the same on both; the
 * writes behind it are the importer's, which the import suites run on both databases, and the
 * whole corpus on PostgreSQL took the longest file of CI's suite.
 */
const filesOn = (backend: string): string[] =>
  backend === 'postgres' && process.env['CAL_CORPUS_ALL'] !== '1' ? files.filter((_, i) => i % 4 === 0) : files;

for (const backend of backends()) {
  describe(`iCalendar corpus [${backend}]`, () => {
    let t: TestApp;
    let admin: { id: number; authorization: string };
    const totals = { files: 0, vevents: 0, whole: 0, partial: 0, refused: 0, error: 0, idempotent: 0, matching: 0 };
    // Every file's outcome with its detail: CAL_CORPUS_REPORT=FILE writes them, to update the list.
    const outcomes: Record<string, Outcome & { detail: string }> = {};

    before(async () => {
      t = await createTestApp(backend, { CAL_FEED_MAX_EVENTS: '100000' });
      admin = await t.asUser('administrator', 'importer');
      mock.timers.enable({ apis: ['Date'], now: NOW });
    });
    after(async () => {
      mock.timers.reset();
      await t.close();
    });

    const run = (file: string, category: string) =>
      runImport(
        { app: t.app, actor: { id: admin.id, username: 'importer', role: 'administrator' }, author: null },
        { ics: path.join(CORPUS, file), category },
      );

    /** The feed of one file's events, without the stamp every answer renews. */
    const feed = async (category: string): Promise<string> => {
      const res = await t.request({
        method: 'GET',
        url: `${NS}/events?format=ical&categories=${category}&start_date=${WINDOW.from}&end_date=2034-12-31`,
        auth: admin.authorization,
      });
      // A file of which nothing was imported has no category: its feed is an empty calendar.
      if (res.statusCode === 400 && /categor/i.test(res.body)) return 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n';
      assert.equal(res.statusCode, 200, res.body);
      return res.body.replace(/^DTSTAMP:.*\r\n/gm, '');
    };

    filesOn(backend).forEach((file, index) => {
      it(file, async () => {
        const category = `corpus-${index}`;
        const text = readFileSync(path.join(CORPUS, file), 'utf8');
        let reference: Expansion;
        let detail = '';
        try {
          reference = expandCalendar(text, WINDOW);
        } catch (error) {
          const vevents = text.match(/^BEGIN:VEVENT/gm)?.length ?? 0;
          reference = {
            occurrences: [],
            vevents,
            problems: [`ical.js cannot read the file: ${(error as Error).message}`],
          };
        }
        if (reference.problems.length > 0) detail += `reference: ${reference.problems.join('; ')}\n`;
        totals.files += 1;
        totals.vevents += reference.vevents;

        let accepted: Accepted;
        let first: ImportReport | null = null;
        try {
          first = await run(file, category);
          const created = eventCount(first, 'created');
          const skipped = eventCount(first, 'skipped');
          accepted = skipped === 0 ? 'whole' : created > 0 ? 'partial' : 'refused';
          if (skipped > 0) detail += `skipped: ${first.skipped.map((s) => s.reason).join('; ')}\n`;
          if (first.warnings.length > 0) detail += `warnings: ${first.warnings.join('; ')}\n`;
        } catch (error) {
          // A file the importer cannot read at all is a SourceError with a reason; anything else is a bug.
          accepted = error instanceof SourceError ? 'refused' : 'error';
          detail += `${(error as Error).name}: ${(error as Error).message}\n`;
        }
        totals[accepted] += 1;

        const exported = await feed(category);
        let idempotent = accepted === 'refused' || accepted === 'error';
        if (first) {
          const second = await run(file, category);
          const changed = eventCount(second, 'created') + eventCount(second, 'updated') + eventCount(second, 'gone');
          const again = await feed(category);
          idempotent = changed === 0 && again === exported;
          if (!idempotent)
            detail += `second run: ${changed} events created, updated or gone; feed changed: ${again !== exported}\n`;
        }
        if (idempotent) totals.idempotent += 1;

        const ours = expandCalendar(exported, WINDOW).occurrences;
        const lost = missing(starts(reference.occurrences), starts(ours));
        const added = missing(starts(ours), starts(reference.occurrences));
        const matching = lost.length === 0 && added.length === 0;
        if (matching) totals.matching += 1;
        else
          detail += `occurrences: ${reference.occurrences.length} in the file, ${ours.length} exported; missing ${lost.slice(0, 5).join(' ')}${lost.length > 5 ? ` …(${lost.length})` : ''}; extra ${added.slice(0, 5).join(' ')}${added.length > 5 ? ` …(${added.length})` : ''}\n`;
        const untitled = new Set(reference.occurrences.filter((o) => !o.summary).map((o) => o.start));
        const [theirs, mine] = [titled(reference.occurrences, untitled), titled(ours, untitled)];
        const titles = !matching || missing(theirs, mine).length === 0;
        if (!titles)
          detail += `titles: ${missing(theirs, mine).slice(0, 3).join(' | ')} became ${missing(mine, theirs).slice(0, 3).join(' | ')}\n`;

        const outcome: Outcome = { accepted, idempotent, matching, titles, reference: reference.problems.length === 0 };
        const { reason, ...listed } = known[file] ?? { reason: '' };
        const expected = { ...CLEAN, ...listed };
        outcomes[file] = { ...outcome, detail };
        assert.deepEqual(
          outcome,
          expected,
          `${file}: ${reason ? `listed as ${JSON.stringify(listed)} (${reason})` : 'not listed in known-differences.json'}, got ${JSON.stringify(outcome)}\n${detail}`,
        );
      });
    });

    it('prints the totals', (c) => {
      const table = [
        `corpus on ${backend}: ${totals.files} files, ${totals.vevents} VEVENTs`,
        `accepted whole ${totals.whole}, partly ${totals.partial}, refused ${totals.refused}, internal error ${totals.error}`,
        `idempotent ${totals.idempotent}, matching ${totals.matching}, known differences ${Object.keys(known).length}`,
      ];
      c.diagnostic(table.join('\n'));
      console.log(table.join('\n'));
      const out = process.env['CAL_CORPUS_REPORT'];
      if (out) writeFileSync(`${out}.${backend}.json`, JSON.stringify(outcomes, null, 2));
      assert.equal(totals.files, filesOn(backend).length, 'every file was tried');
    });
  });
}
