import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';

const EVENTS = '/cal/events/v1/events';

/**
 * Categories' counts under writers side by side (PostgreSQL runs them at once): series, whose
 * occurrences take many days' count rows, and plain events on those days with the same categories.
 * A category's count row used to be locked in the middle of a write, so a series holding it went
 * on to wait for a day row a plain event held while that event waited for the category: a deadlock,
 * a second's wait for PostgreSQL to find it and a write run again. Counts are now moved last, in
 * the order of their ids (atTransactionEnd).
 */
for (const backend of backends()) {
  describe(`category counts under concurrent writers [${backend}]`, () => {
    let t: TestApp;
    let auth: string;
    before(async () => {
      t = await createTestApp(backend, { CAL_METRICS: '1' });
      auth = (await t.asUser('administrator')).authorization;
    });
    after(() => t.close());

    const post = (body: Record<string, unknown>) =>
      t.request({ method: 'POST', url: EVENTS, auth, payload: { status: 'publish', ...body } });

    it('should keep every count exact with no write run again for a deadlock', async () => {
      const categories = ['Alpha', 'Beta', 'Gamma'];
      for (const name of categories)
        await post({
          title: `Seed ${name}`,
          start_date: '2031-01-01 09:00',
          end_date: '2031-01-01 10:00',
          categories: [name],
        });
      const writes = Array.from({ length: 48 }, (_, i) => {
        const day = `2031-01-${String(2 + (i % 20)).padStart(2, '0')}`;
        // Each write names the categories in another order; every fourth is a series over those days.
        const named = i % 2 === 0 ? categories : [...categories].reverse();
        return i % 4 === 0
          ? post({
              title: `Series ${i}`,
              start_date: `${day} 18:00`,
              end_date: `${day} 19:00`,
              categories: named,
              recurrence: { rrule: 'FREQ=DAILY;COUNT=20' },
            })
          : post({
              title: `Event ${i}`,
              start_date: `${day} 10:00`,
              end_date: `${day} 11:00`,
              categories: named.slice(i % 3),
            });
      });
      const answers = await Promise.all(writes);
      for (const answer of answers) assert.equal(answer.statusCode, 201, answer.body);

      const { rows } = await sql<{ name: string; count: number; linked: number }>`
        select t.name, t.count, (select count(*) from event_terms et join events e on e.id = et.event_id
          where et.term_id = t.id and e.status = 'publish') as linked
        from terms t where t.taxonomy = 'cal_events_cat' order by t.name`.execute(t.storage.db);
      assert.equal(rows.length, 3);
      for (const row of rows) assert.equal(Number(row.count), Number(row.linked), row.name);
      assert.ok(rows.every((row) => Number(row.count) > 20));

      const metrics = (await t.request({ method: 'GET', url: '/metrics' })).body;
      assert.deepEqual(metrics.match(/^cal_db_write_retries_total\{reason="deadlock"\} \d+$/m)?.[0].split(' ')[1], '0');
    });
  });
}
