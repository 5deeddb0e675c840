import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';
import { planOf, statementsOf } from '../../helpers/plans.js';
import { random } from '../../helpers/random.js';

const EVENTS = '/cal/events/v1/events';

const day = (n: number) => `2033-03-${String(1 + n).padStart(2, '0')}`;

for (const backend of backends()) {
  describe(`lists read from the link tables in order [${backend}]`, () => {
    let t: TestApp;
    let editor: string;
    before(async () => {
      t = await createTestApp(backend);
      editor = (await t.asUser('editor')).authorization;
    });
    after(() => t.close());

    /** Links whose copy of their event's key (migration 025) differs from the event's, by a join. */
    async function stale(table: 'event_terms' | 'event_organizers'): Promise<unknown[]> {
      const { rows } = await sql`select l.event_id from ${sql.table(table)} l join events e on e.id = l.event_id
        where l.event_lang <> e.lang or l.event_status <> e.status or l.event_hide_from_listings <> e.hide_from_listings
          or l.event_start_local <> e.start_local or l.event_end_local <> e.end_local
          or l.event_protected <> (case when e.password <> '' then 1 else 0 end)`.execute(t.storage.db);
      return rows;
    }

    /** The public list's ids the plain way: listed, published, unprotected events of the window, by start then id. */
    async function expected(
      links: { table: 'event_terms' | 'event_organizers'; ids: number[] }[],
      direction: 'asc' | 'desc',
      featured = false,
    ): Promise<number[]> {
      const linked = links.map(
        (link) =>
          sql`events.id in (select event_id from ${sql.table(link.table)} where ${sql.ref(link.table === 'event_terms' ? 'term_id' : 'organizer_id')} in (${sql.join(link.ids)}))`,
      );
      const { rows } = await sql<{ id: number }>`select events.id from events
        where events.lang = 'en' and events.status = 'publish' and events.hide_from_listings = 0 and events.password = ''
          and events.start_local >= ${`${day(0)} 00:00:00`} and events.end_local <= ${`${day(27)} 23:59:59`}
          and ${linked.length > 0 ? sql.join(linked, sql` and `) : sql`1 = 1`} and ${featured ? sql`events.featured = 1` : sql`1 = 1`}
        order by events.start_local ${sql.raw(direction)}, events.id ${sql.raw(direction)}`.execute(t.storage.db);
      return rows.map((r) => Number(r.id));
    }

    /** Every page of the list, 3 a page, and its total. */
    async function listed(query: string): Promise<{ ids: number[]; total: number }> {
      const ids: number[] = [];
      let total = 0;
      for (let page = 1; ; page++) {
        const res = await t.request({
          method: 'GET',
          url: `${EVENTS}?start_date=${day(0)}&end_date=${day(27)}&per_page=3&page=${page}&${query}`,
        });
        if (res.statusCode === 404 && page === 1) return { ids, total: 0 };
        assert.equal(res.statusCode, 200, res.body);
        ids.push(...(res.data.events as { id: number }[]).map((e) => e.id));
        total = res.data.total;
        if (page >= res.data.total_pages) return { ids, total };
      }
    }

    it('should keep each link’s copy of its event’s key exact and list from it as the plain query does', async () => {
      const next = random(backend === 'sqlite' ? 5 : 9);
      const made = async (path: string, payload: object): Promise<number> => {
        const res = await t.request({ method: 'POST', url: `/cal/events/v1/${path}`, auth: editor, payload });
        assert.equal(res.statusCode, 201, res.body);
        return res.data.id;
      };
      const parent = await made('categories', { name: 'Music' });
      const child = await made('categories', { name: 'Jazz', parent });
      const other = await made('categories', { name: 'Theatre' });
      const tag = await made('tags', { name: 'outdoor' });
      const organizers = [
        await made('organizers', { organizer: 'Alpha' }),
        await made('organizers', { organizer: 'Beta' }),
      ];
      const links = () => ({
        categories: [parent, child, other].filter(() => next() < 0.5),
        tags: next() < 0.5 ? [tag] : [],
        organizer: organizers.filter(() => next() < 0.6),
      });
      const ids: number[] = [];
      // Several events at the same start, so that the id breaks ties.
      const start = () => `${day(Math.floor(next() * 20))} ${next() < 0.5 ? '10' : '18'}:00:00`;
      for (let i = 0; i < 30; i++) {
        const from = start();
        const res = await t.request({
          method: 'POST',
          url: EVENTS,
          auth: editor,
          payload: {
            title: `Linked ${i}`,
            status: next() < 0.85 ? 'publish' : 'draft',
            start_date: from,
            end_date: `${from.slice(0, 10)} 23:00:00`,
            hide_from_listings: next() < 0.1,
            featured: next() < 0.5,
            ...(next() < 0.1 ? { password: 'open sesame' } : {}),
            ...links(),
          },
        });
        assert.equal(res.statusCode, 201, res.body);
        ids.push(res.data.id);
      }
      const pick = () => ids[Math.floor(next() * ids.length)]!;
      for (let i = 0; i < 30; i++) {
        const r = next();
        const target = pick();
        const from = start();
        const payload =
          r < 0.3
            ? { start_date: from, end_date: `${from.slice(0, 10)} 22:00:00` }
            : r < 0.5
              ? { status: next() < 0.3 ? 'draft' : 'publish' }
              : r < 0.6
                ? { hide_from_listings: next() < 0.5 }
                : r < 0.7
                  ? { password: next() < 0.5 ? '' : 'open sesame', featured: next() < 0.5 }
                  : { ...links(), ...(next() < 0.5 ? { start_date: from, end_date: `${day(27)} 09:00:00` } : {}) };
        const res = await t.request({ method: 'PATCH', url: `${EVENTS}/${target}`, auth: editor, payload });
        assert.ok(res.statusCode === 200 || res.statusCode === 410, res.body);
      }
      // A password given to a listed event of both kinds of links, and one taken away.
      const known = async (password: string) => {
        const id = await made('events', {
          title: 'Known',
          status: 'publish',
          start_date: `${day(6)} 12:00:00`,
          end_date: `${day(6)} 13:00:00`,
          categories: [parent],
          organizer: [organizers[0]],
          password,
        });
        const res = await t.request({
          method: 'PATCH',
          url: `${EVENTS}/${id}`,
          auth: editor,
          payload: { password: password === '' ? 'open sesame' : '' },
        });
        assert.equal(res.statusCode, 200, res.body);
      };
      await known('');
      await known('open sesame');
      // Other paths than the API's: a language changed, a trash, a row deleted outright.
      await t.storage.db.updateTable('events').set({ lang: 'fr' }).where('id', '=', ids[1]!).execute();
      assert.equal((await t.request({ method: 'DELETE', url: `${EVENTS}/${ids[2]}`, auth: editor })).statusCode, 200);
      await t.storage.db.deleteFrom('events').where('id', '=', ids[3]!).execute();

      for (const table of ['event_terms', 'event_organizers'] as const) assert.deepEqual(await stale(table), [], table);
      const count = async (table: 'event_terms' | 'event_organizers') =>
        Number(
          (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(t.storage.db)).rows[0]!.n,
        );
      assert.ok((await count('event_terms')) > 10 && (await count('event_organizers')) > 10, 'links were made');

      const terms = (ids: number[]) => ({ table: 'event_terms' as const, ids });
      const by = (ids: number[]) => ({ table: 'event_organizers' as const, ids });
      const cases: [string, Parameters<typeof expected>][] = [
        [`organizer=${organizers[0]}`, [[by([organizers[0]!])], 'asc']],
        [`organizer=${organizers.join(',')}&order=desc`, [[by(organizers)], 'desc']],
        // The parent category takes in its child: two ids, an event linked to both listed once.
        [`categories=${parent}`, [[terms([parent, child])], 'asc']],
        [`categories=${parent}&order=desc`, [[terms([parent, child])], 'desc']],
        [`tags=${tag}`, [[terms([tag])], 'asc']],
        [`categories=${other}&organizer=${organizers[1]}`, [[by([organizers[1]!]), terms([other])], 'asc']],
        // With a filter the links do not carry, each event is read and tested.
        [`categories=${parent}&featured=1`, [[terms([parent, child])], 'asc', true]],
        [`organizer=${organizers[0]}&featured=1&order=desc`, [[by([organizers[0]!])], 'desc', true]],
        // Featured alone: read from events_public_featured (below); on PostgreSQL a later page's
        // ids are walked first, then its rows read (pageRows).
        ['featured=1', [[], 'asc', true]],
        ['featured=1&order=desc', [[], 'desc', true]],
      ];
      for (const [query, args] of cases) {
        const want = await expected(...args);
        const got = await listed(query);
        assert.deepEqual(got.ids, want, query);
        assert.equal(got.total, want.length, query);
      }
    });

    it('should read a featured list’s page and its row-by-row total from the index of featured events', async () => {
      for (const hour of [10, 11]) {
        const payload = {
          title: `Featured ${hour}`,
          status: 'publish',
          featured: true,
          start_date: `${day(3)} ${hour}:00:00`,
          end_date: `${day(3)} 12:00:00`,
        };
        assert.equal((await t.request({ method: 'POST', url: EVENTS, auth: editor, payload })).statusCode, 201);
      }
      // A window of whole days (its total from the per-day counts) and one of hours (counted row by row).
      for (const window of [
        `start_date=${day(0)}&end_date=${day(27)}`,
        `start_date=${day(2)} 09:00&end_date=${day(20)} 15:00&strict_dates=1`,
      ]) {
        const url = `${EVENTS}?${window}&featured=1&per_page=3`;
        const statements = await statementsOf(t, async () => {
          const res = await t.request({ method: 'GET', url });
          assert.equal(res.statusCode, 200, res.body);
        });
        const reads = statements.filter((q) => /from "events"/.test(q.sql) && /featured = 1/.test(q.sql));
        assert.ok(
          reads.length >= (window.includes('strict') ? 2 : 1),
          `${url}: the page${window.includes('strict') ? ' and the count' : ''}`,
        );
        for (const query of reads) {
          const plan = await planOf(t, query);
          assert.match(plan, /events_public_featured/, `${query.sql}\n${plan}`);
          assert.doesNotMatch(plan, /TEMP B-TREE|Sort/, `read in order: ${plan}`);
        }
      }
    });

    it(
      'should walk a later page’s ids along the public lists’ index and read only the page’s rows',
      { skip: backend !== 'postgres' && 'SQLite reads its rows in the walk (migration 031)' },
      async () => {
        // The index-only scan needs the table's pages known all-visible, as autovacuum leaves them.
        await sql`vacuum events`.execute(t.storage.db);
        const statements = await statementsOf(t, async () => {
          const url = `${EVENTS}?start_date=${day(0)}&end_date=${day(27)}&per_page=2&page=3`;
          const res = await t.request({ method: 'GET', url });
          assert.equal(res.statusCode, 200, res.body);
        });
        const page = statements.find((q) => /"events"\."id" in \(select "events"\."id"/.test(q.sql));
        assert.ok(page, statements.map((q) => q.sql).join('\n'));
        const plan = await planOf(t, page);
        assert.match(plan, /Index Only Scan using events_public_start/, plan);
        assert.match(plan, /Index Cond: .*end_local/, `the window's end tested in the index: ${plan}`);
      },
    );

    it('should read a list filtered by a venue and a link from whichever holds fewer events of the window', async () => {
      const made = async (path: string, payload: object): Promise<number> => {
        const res = await t.request({ method: 'POST', url: `/cal/events/v1/${path}`, auth: editor, payload });
        assert.equal(res.statusCode, 201, res.body);
        return res.data.id;
      };
      const [big, rare] = [await made('tags', { name: 'everywhere' }), await made('tags', { name: 'seldom' })];
      const [hall, barn] = [
        await made('venues', { venue: 'Busy Hall' }),
        await made('venues', { venue: 'Quiet Barn' }),
      ];
      const host = await made('organizers', { organizer: 'Rare Host' });
      const event = (i: number, fields: object) =>
        made('events', {
          title: `Venue or link ${i}`,
          status: 'publish',
          start_date: `${day(i % 25)} 1${i % 10}:00:00`,
          end_date: `${day(i % 25)} 20:00:00`,
          ...fields,
        });
      // The hall: 10 listed events, 8 tagged `everywhere`, one `seldom` and with the organizer;
      // then one more of each that a public list never shows (a draft, a protected event).
      const atHall: number[] = [];
      for (let i = 0; i < 10; i++)
        atHall.push(
          await event(i, {
            venue: hall,
            tags: i < 8 ? [big] : i === 8 ? [rare] : [],
            organizer: i === 8 ? [host] : [],
          }),
        );
      await event(10, { venue: hall, tags: [rare], organizer: [host], status: 'draft' });
      await event(11, { venue: hall, tags: [rare], organizer: [host], password: 'open sesame' });
      // The barn: 2 events tagged `everywhere`, one with the organizer; 6 more of both elsewhere.
      const atBarn = [
        await event(12, { venue: barn, tags: [big] }),
        await event(13, { venue: barn, tags: [big], organizer: [host] }),
      ];
      for (let i = 14; i < 20; i++) await event(i, { tags: [big], organizer: [host] });

      const byStart = async (ids: number[]) =>
        (
          await t.storage.db
            .selectFrom('events')
            .select('id')
            .where('id', 'in', ids)
            .orderBy('start_local')
            .orderBy('id')
            .execute()
        ).map((r) => r.id);
      const fromLink = /from "event_(terms|organizers)" as "lk"/;
      const probed = /exists \(select 1 from event_(terms|organizers) \w+ where \w+\.event_id = events\.id/;
      const cases: [string, number[], RegExp][] = [
        // 1 `seldom` event (8 of the organizer's) against the hall's 10: the link's are read, each
        // event tested for the venue.
        [`venue=${hall}&tags=${rare}`, [atHall[8]!], fromLink],
        [`venue=${hall}&organizer=${host}`, [atHall[8]!], fromLink],
        // The barn's 2 events against 16 tagged (8 of the organizer's): the venue's, each probed.
        [`venue=${barn}&tags=${big}`, atBarn, probed],
        [`venue=${barn}&organizer=${host}`, [atBarn[1]!], probed],
        [`venue=${hall}&tags=${big}`, atHall.slice(0, 8), probed],
      ];
      for (const [query, ids, reads] of cases) {
        const got = await listed(query);
        assert.deepEqual(got.ids, await byStart(ids), query);
        assert.equal(got.total, ids.length, query);
        const { texts } = await t.queries.during(() =>
          t.request({ method: 'GET', url: `${EVENTS}?start_date=${day(0)}&end_date=${day(27)}&${query}` }),
        );
        assert.ok(
          texts.some((text) => reads.test(text)),
          `${query} reads ${reads}:\n${texts.join('\n')}`,
        );
      }
    });
  });
}
