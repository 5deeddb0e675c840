import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';
import { random } from '../../helpers/random.js';
import { windowCountQuery, type CountKey } from '../../../src/modules/events/event-counts.repository.js';

const EVENTS = '/cal/events/v1/events';

const day = (n: number) => `2032-01-${String(1 + n).padStart(2, '0')}`;

for (const backend of backends()) {
  describe(`list totals from per-day counts [${backend}]`, () => {
    let t: TestApp;
    let editor: string;
    before(async () => {
      t = await createTestApp(backend);
      editor = (await t.asUser('editor')).authorization;
    });
    after(() => t.close());

    /** count(*) of the public list of a window of whole days, the plain way, for the events of `key`. */
    async function plainCount(
      lang: string,
      from: string,
      to: string,
      key: CountKey = { kind: 'all' },
    ): Promise<number> {
      const featured = key.kind === 'facet' && key.facet.startsWith('featured');
      const ids = key.kind === 'facet' ? key.ids : [0];
      const row = await t.storage.db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .$if(featured, (qb) => qb.where('featured', '=', 1))
        .$if(key.kind === 'facet' && key.facet.endsWith('venue'), (qb) => qb.where('venue_id', 'in', ids))
        .$if(key.kind === 'facet' && key.facet.endsWith('organizer'), (qb) =>
          qb.where(({ exists, selectFrom }) =>
            exists(
              selectFrom('event_organizers')
                .select('event_id')
                .whereRef('event_id', '=', 'events.id')
                .where('organizer_id', 'in', ids),
            ),
          ),
        )
        .$if(key.kind === 'facet' && key.facet === 'featured_term', (qb) =>
          qb.where(({ exists, selectFrom }) =>
            exists(
              selectFrom('event_terms')
                .select('event_id')
                .whereRef('event_id', '=', 'events.id')
                .where('term_id', 'in', ids),
            ),
          ),
        )
        .where('lang', '=', lang)
        .where('status', '=', 'publish')
        .where('hide_from_listings', '=', 0)
        .where('start_local', '>=', `${from} 00:00:00`)
        .where('end_local', '<=', `${to} 23:59:59`)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    }

    async function summed(lang: string, from: string, to: string, key: CountKey = { kind: 'all' }): Promise<number> {
      return Number((await windowCountQuery(t.storage.db, lang, { from, to }, key).executeTakeFirstOrThrow()).n);
    }

    /** The same count for the events linked to one term. */
    async function plainTermCount(lang: string, from: string, to: string, term: number): Promise<number> {
      const row = await t.storage.db
        .selectFrom('events')
        .innerJoin('event_terms', 'event_terms.event_id', 'events.id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('event_terms.term_id', '=', term)
        .where('lang', '=', lang)
        .where('status', '=', 'publish')
        .where('hide_from_listings', '=', 0)
        .where('start_local', '>=', `${from} 00:00:00`)
        .where('end_local', '<=', `${to} 23:59:59`)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    }

    it('should stay exact after random concurrent creates, moves, status and visibility changes, trashes and deletes', async () => {
      const next = random(backend === 'sqlite' ? 7 : 11);
      const ids: number[] = [];
      const terms: { id: number; path: string; lang: string }[] = [];
      for (const [path, name, lang] of [
        ['categories', 'Rock', ''],
        ['categories', 'Folk', ''],
        ['tags', 'loud', ''],
        ['categories', 'Rock FR', '/fr'],
        ['tags', 'fort', '/fr'],
      ] as const) {
        const res = await t.request({
          method: 'POST',
          url: `${lang}/cal/events/v1/${path}`,
          auth: editor,
          payload: { name },
        });
        assert.equal(res.statusCode, 201, res.body);
        terms.push({ id: res.data.id, path, lang: lang === '' ? 'en' : 'fr' });
      }
      const venues: number[] = [];
      const organizers: number[] = [];
      for (const [path, list] of [
        ['venues', venues],
        ['organizers', organizers],
      ] as const) {
        for (const name of ['One', 'Two', 'Three']) {
          const payload = path === 'venues' ? { venue: `${name} hall` } : { organizer: `${name} org` };
          const res = await t.request({ method: 'POST', url: `/cal/events/v1/${path}`, auth: editor, payload });
          assert.equal(res.statusCode, 201, res.body);
          list.push(res.data.id);
        }
      }
      /** A random choice of terms, venue, organizers and featured flag, as the API takes them. */
      const someTerms = () => {
        const chosen = terms.filter(() => next() < 0.4);
        const links =
          next() < 0.5
            ? {}
            : {
                venue: next() < 0.2 ? 0 : venues[Math.floor(next() * 3)]!,
                organizer: organizers.filter(() => next() < 0.4),
                featured: next() < 0.5,
              };
        return {
          categories: chosen.filter((x) => x.path === 'categories').map((x) => x.id),
          tags: chosen.filter((x) => x.path === 'tags').map((x) => x.id),
          ...links,
        };
      };
      const write = async (): Promise<void> => {
        const r = next();
        const target = ids[Math.floor(next() * ids.length)];
        const start = Math.floor(next() * 26);
        const length = Math.floor(next() * 3);
        const lang = next() < 0.7 ? '' : '/fr';
        if (r < 0.4 || target === undefined) {
          const res = await t.request({
            method: 'POST',
            url: `${lang}${EVENTS}`,
            auth: editor,
            payload: {
              title: `Count ${ids.length}`,
              status: next() < 0.8 ? 'publish' : 'draft',
              start_date: `${day(start)} 10:00:00`,
              end_date: `${day(start + length)} 11:00:00`,
              hide_from_listings: next() < 0.1,
              ...someTerms(),
            },
          });
          assert.equal(res.statusCode, 201, res.body);
          ids.push(res.data.id);
        } else if (r < 0.5) {
          await t.request({
            method: 'PATCH',
            url: `${EVENTS}/${target}`,
            auth: editor,
            payload: { start_date: `${day(start)} 09:00:00`, end_date: `${day(start + length)} 23:00:00` },
          });
        } else if (r < 0.6) {
          // New links, with or without other changes in the same write.
          await t.request({
            method: 'PATCH',
            url: `${EVENTS}/${target}`,
            auth: editor,
            payload: {
              ...someTerms(),
              ...(next() < 0.5
                ? {
                    status: 'publish',
                    start_date: `${day(start)} 08:00:00`,
                    end_date: `${day(start + length)} 20:00:00`,
                  }
                : {}),
            },
          });
        } else if (r < 0.75) {
          await t.request({
            method: 'PATCH',
            url: `${EVENTS}/${target}`,
            auth: editor,
            payload:
              next() < 0.5 ? { status: next() < 0.5 ? 'draft' : 'publish' } : { hide_from_listings: next() < 0.5 },
          });
        } else if (r < 0.9) {
          await t.request({ method: 'DELETE', url: `${EVENTS}/${target}`, auth: editor });
        } else {
          // A row removed for good, as a purge would: the triggers see every path, not only the API's.
          await t.storage.db.deleteFrom('events').where('id', '=', target).execute();
        }
      };
      for (let round = 0; round < 12; round++) await Promise.all(Array.from({ length: 8 }, write));

      for (const lang of ['en', 'fr']) {
        for (const [from, to] of [
          [day(0), day(27)],
          [day(3), day(9)],
          [day(10), day(10)],
          ['2031-12-31', day(5)],
          [day(20), '2032-03-01'],
        ] as const) {
          assert.equal(await summed(lang, from, to), await plainCount(lang, from, to), `${lang} ${from}..${to}`);
          for (const term of terms)
            assert.equal(
              await summed(lang, from, to, { kind: 'term', id: term.id }),
              await plainTermCount(lang, from, to, term.id),
              `${lang} ${from}..${to} term ${term.id}`,
            );
          const facets: CountKey[] = [
            { kind: 'facet', facet: 'featured', ids: [0] },
            ...venues.flatMap((id): CountKey[] => [
              { kind: 'facet', facet: 'venue', ids: [id] },
              { kind: 'facet', facet: 'featured_venue', ids: [id] },
            ]),
            { kind: 'facet', facet: 'venue', ids: venues.slice(0, 2) },
            ...organizers.flatMap((id): CountKey[] => [
              { kind: 'facet', facet: 'organizer', ids: [id] },
              { kind: 'facet', facet: 'featured_organizer', ids: [id] },
            ]),
            ...terms.map((term): CountKey => ({ kind: 'facet', facet: 'featured_term', ids: [term.id] })),
          ];
          for (const key of facets)
            assert.equal(
              await summed(lang, from, to, key),
              await plainCount(lang, from, to, key),
              `${lang} ${from}..${to} ${JSON.stringify(key)}`,
            );
        }
      }
      // A list by one term is counted from its sums (and compared under CAL_VERIFY_COUNTS).
      const folk = await t.request({
        method: 'GET',
        url: `${EVENTS}?start_date=${day(0)}&end_date=${day(27)}&categories=${terms[1]!.id}`,
      });
      assert.equal(
        folk.statusCode === 404 ? 0 : folk.data.total,
        await plainTermCount('en', day(0), day(27), terms[1]!.id),
      );
      // Lists by facet are counted from their sums too.
      const byFacet: [string, CountKey][] = [
        [`venue=${venues[0]}`, { kind: 'facet', facet: 'venue', ids: [venues[0]!] }],
        [`organizer=${organizers[1]}`, { kind: 'facet', facet: 'organizer', ids: [organizers[1]!] }],
        ['featured=1', { kind: 'facet', facet: 'featured', ids: [0] }],
        [`featured=true&venue=${venues[2]}`, { kind: 'facet', facet: 'featured_venue', ids: [venues[2]!] }],
        [
          `featured=1&organizer=${organizers[0]}`,
          { kind: 'facet', facet: 'featured_organizer', ids: [organizers[0]!] },
        ],
        [`featured=1&categories=${terms[0]!.id}`, { kind: 'facet', facet: 'featured_term', ids: [terms[0]!.id] }],
      ];
      for (const [query, key] of byFacet) {
        const res = await t.request({
          method: 'GET',
          url: `${EVENTS}?start_date=${day(0)}&end_date=${day(27)}&${query}`,
        });
        assert.equal(res.statusCode === 404 ? 0 : res.data.total, await plainCount('en', day(0), day(27), key), query);
      }
      // Through the API too (the list compares both ways itself under CAL_VERIFY_COUNTS).
      const list = await t.request({ method: 'GET', url: `${EVENTS}?start_date=${day(0)}&end_date=${day(27)}` });
      assert.equal(list.statusCode, 200);
      assert.equal(list.data.total, await plainCount('en', day(0), day(27)));
    });
  });
}
