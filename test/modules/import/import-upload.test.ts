import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';

const IMPORTS = '/cal/admin/v1/imports';
const fixture = (name: string) => fs.readFileSync(new URL(`../../fixtures/ics/${name}`, import.meta.url), 'utf8');

/** Created, updated, unchanged… of one kind, summed over the report's languages. */
const total = (report: any, kind: string, field: string): number =>
  Object.values((report?.counts?.[kind] ?? {}) as Record<string, Record<string, number>>).reduce(
    (n, c) => n + (c[field] ?? 0),
    0,
  );

for (const backend of backends()) {
  describe(`POST ${IMPORTS} with an uploaded iCalendar file [${backend}]`, () => {
    let t: TestApp;
    let admin: string;

    before(async () => {
      t = await createTestApp(backend);
      admin = (await t.asUser('administrator', 'uploader')).authorization;
    });
    after(() => t.close());

    async function finished(id: number): Promise<any> {
      for (let i = 0; i < 400; i += 1) {
        const job = (await t.request({ method: 'GET', url: `${IMPORTS}/${id}`, auth: admin })).data;
        if (job.status !== 'running') return job;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      assert.fail(`import ${id} still running`);
    }

    const start = (payload: Record<string, unknown>, auth = admin) =>
      t.request({ method: 'POST', url: IMPORTS, payload, auth });

    it('should import the text of the file, name the source by its file name and keep no copy of the text', async () => {
      const content = fixture('outlook-export.ics');
      const started = await start({ ics_content: content, filename: 'office.ics', category: 'Office' });
      assert.equal(started.statusCode, 202, started.body);
      const job = await finished(started.data.id);
      assert.equal(job.status, 'done', JSON.stringify(job));
      assert.equal(total(job.report, 'event', 'created'), 2);
      assert.equal(job.options.icsUpload, 'office.ics');
      assert.equal(job.options.icsText, undefined);
      const listed = await t.request({ method: 'GET', url: IMPORTS, auth: admin });
      assert.ok(!listed.body.includes('BEGIN:VCALENDAR'), 'the uploaded text is not stored with the options');

      const again = await finished(
        (await start({ ics_content: content, filename: 'office.ics', category: 'Office' })).data.id,
      );
      assert.equal(total(again.report, 'event', 'unchanged'), 2, 'the same file name is the same source');
      assert.equal(total(again.report, 'event', 'created'), 0);
      const events = await t.request({
        method: 'GET',
        url: '/cal/events/v1/events?start_date=2027-01-01',
        auth: admin,
      });
      assert.equal(events.data.total, 2);
    });

    it('should report a file that is not an iCalendar file as a failed import', async () => {
      const started = await start({ ics_content: '<html><body>not a calendar</body></html>', filename: 'page.html' });
      assert.equal(started.statusCode, 202, started.body);
      const job = await finished(started.data.id);
      assert.equal(job.status, 'failed');
      assert.match(job.error, /Not an iCalendar file/);
    });

    it('should refuse bad requests before starting anything', async () => {
      const before = (await t.request({ method: 'GET', url: IMPORTS, auth: admin })).data.length;
      const both = await start({ ics_content: fixture('outlook-export.ics'), ics: 'https://example.org/a.ics' });
      assert.equal(both.statusCode, 400);
      assert.equal(both.data.code, 'rest_missing_callback_param');
      const lonelyName = await start({ filename: 'a.ics', ics: 'https://example.org/a.ics' });
      assert.equal(lonelyName.statusCode, 400);
      assert.equal(lonelyName.data.code, 'rest_invalid_param');
      const longName = await start({ ics_content: 'BEGIN:VCALENDAR', calendar_name: 'x'.repeat(201) });
      assert.equal(longName.statusCode, 400);
      assert.equal(longName.data.code, 'rest_invalid_param');
      const tooLarge = await start({ ics_content: 'x'.repeat(1024 * 1024 + 1) });
      assert.equal(tooLarge.statusCode, 413);
      assert.equal(tooLarge.data.code, 'rest_request_too_large');
      const editor = await t.asUser('editor');
      assert.equal((await start({ ics_content: 'BEGIN:VCALENDAR' }, editor.authorization)).statusCode, 403);
      assert.equal((await t.request({ method: 'GET', url: IMPORTS, auth: admin })).data.length, before);
    });
  });
}
