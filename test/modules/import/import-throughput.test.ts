import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';
import { runImport } from '../../../src/modules/import/import.service.js';
import { reportTable, type ImportReport } from '../../../src/modules/import/import.report.js';

/**
 * The importer's work grows with the feed, not faster: the statements an import runs per event
 * stay the same from a small feed to a feed four times larger (a lookup that walked what earlier
 * records wrote would grow with it), a second run of an unchanged feed runs none per record, and
 * the report counts what it skipped. Feeds come from scripts/generate-ics.mjs, the generator of
 * the 50,000-event measurement, run as a process.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const generated = (events: number): string =>
  execFileSync(process.execPath, ['scripts/generate-ics.mjs', String(events)], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });

/** A VEVENT the reader must skip (no DTSTART), before the calendar's end. */
const withBrokenEvent = (feed: string): string =>
  feed.replace(
    /END:VCALENDAR\r\n$/,
    'BEGIN:VEVENT\r\nUID:broken@test\r\nSUMMARY:No start\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
  );

const eventsOf = (report: ImportReport): number =>
  Object.values(report.counts['event'] ?? {}).reduce((n, c) => n + c.created + c.updated + c.unchanged, 0);

for (const backend of backends()) {
  describe(`import throughput by counts [${backend}]`, () => {
    const apps: TestApp[] = [];
    const fresh = async () => {
      const t = await createTestApp(backend);
      apps.push(t);
      const admin = await t.asUser('administrator', 'bulk-importer');
      const run = (icsText: string, icsName: string) =>
        runImport(
          { app: t.app, actor: { id: admin.id, username: 'bulk-importer', role: 'administrator' }, author: null },
          { icsText, icsName },
        );
      return { t, run };
    };
    let small: string;
    let large: string;

    before(() => {
      small = generated(40);
      large = generated(160);
    });
    after(async () => {
      for (const t of apps) await t.close();
    });

    it('should run as many statements per event for 160 events as for 40, and none per event on a second run', async () => {
      const perEvent: number[] = [];
      let second: { report: ImportReport; statements: number } | undefined;
      for (const feed of [small, large]) {
        const { t, run } = await fresh();
        const { value: report, texts } = await t.queries.during(() => run(feed, 'bulk.ics'));
        const statements = texts.length;
        assert.equal(report.totals.skipped, 0, JSON.stringify(report.skipped.slice(0, 3)));
        perEvent.push(statements / eventsOf(report));
        if (feed === large) {
          const rerun = await t.queries.during(() => run(feed, 'bulk.ics'));
          second = { report: rerun.value, statements: rerun.texts.length };
        }
      }
      const [forSmall, forLarge] = perEvent as [number, number];
      assert.ok(
        forLarge <= forSmall * 1.25,
        `statements per event: ${forSmall.toFixed(1)} for 40, ${forLarge.toFixed(1)} for 160`,
      );
      assert.ok(second);
      assert.equal(
        second.report.totals.created + second.report.totals.updated,
        0,
        JSON.stringify(second.report.totals),
      );
      const unchangedEvents = Object.values(second.report.counts['event'] ?? {}).reduce((n, c) => n + c.unchanged, 0);
      assert.equal(unchangedEvents, eventsOf(second.report));
      // The map is read once and each kind's records checked once: a handful, whatever the feed's size.
      assert.ok(second.statements < 40, `a second run ran ${second.statements} statements`);
    });

    it('should report what it skipped in its totals, and say so in its table', async () => {
      const { run } = await fresh();
      const report = await run(withBrokenEvent(small), 'broken.ics');
      assert.equal(report.totals.skipped, 1, JSON.stringify(report.skipped));
      assert.equal(report.totals.skipped, report.skipped.length);
      assert.ok(report.totals.created > 40, JSON.stringify(report.totals));
      assert.match(reportTable(report), /Finished with 1 record\(s\) skipped/);
      assert.equal(new Set(report.warnings).size, report.warnings.length, 'each warning once');
    });
  });
}
