import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { backends, createTestApp, injector, type TestApp } from '../../helpers/app.js';
import { buildApp } from '../../../src/app.js';
import { connect, type Storage } from '../../../src/db/connect.js';
import { pruneChanges } from '../../../src/modules/sync/sync.retention.js';

const API = '/cal/events/v1';
const COLLECTION = {
  event: 'events',
  venue: 'venues',
  organizer: 'organizers',
  category: 'categories',
  tag: 'tags',
} as const;
type Kind = keyof typeof COLLECTION;

interface Entry {
  kind: Kind;
  id: number;
  change: string;
  modified_utc: string;
  record?: Record<string, any>;
}

/** Every page of the feed after `since`, as a client reads it. */
async function readAll(
  t: Pick<TestApp, 'request'>,
  auth?: string,
  since?: string,
  lang = '',
): Promise<{ entries: Entry[]; token: string }> {
  const entries: Entry[] = [];
  let token = since;
  for (;;) {
    const res = await t.request({
      method: 'GET',
      url: `${lang}${API}/changes?per_page=7${token ? `&since=${token}` : ''}`,
      auth,
    });
    assert.equal(res.statusCode, 200, res.body);
    entries.push(...res.data.changes);
    token = res.data.next_token;
    if (!res.data.more) return { entries, token: token! };
  }
}

/** What a client keeps: live records by kind and id; trashed and deleted ones leave. */
function apply(state: Map<string, any>, entries: Entry[]): Map<string, any> {
  for (const entry of entries) {
    const key = `${entry.kind}:${entry.id}`;
    if (entry.record && entry.change !== 'trashed') state.set(key, entry.record);
    else state.delete(key);
  }
  return state;
}

/** Embedded term counts move with every event write of the term; the feed carries them on the term (README). */
function comparable(record: any): any {
  const copy = structuredClone(record);
  for (const list of [copy.categories, copy.tags]) if (Array.isArray(list)) for (const term of list) delete term.count;
  return copy;
}

/** What the lists show the caller, each record as its GET returns it. */
async function listed(t: TestApp, auth?: string, lang = ''): Promise<Map<string, any>> {
  const state = new Map<string, any>();
  for (const kind of Object.keys(COLLECTION) as Kind[]) {
    const collection = COLLECTION[kind];
    const window = kind === 'event' ? '&start_date=2000-01-01&end_date=2100-12-31' : '';
    for (let page = 1; ; page += 1) {
      const res = await t.request({
        method: 'GET',
        url: `${lang}${API}/${collection}?per_page=50&page=${page}${window}`,
        auth,
      });
      if (res.statusCode === 400 || (res.statusCode === 404 && page > 1)) break;
      assert.equal(res.statusCode, 200, res.body);
      const items = (res.data[collection] ?? []) as { id: number }[];
      for (const item of items) {
        const one = await t.request({ method: 'GET', url: `${lang}${API}/${collection}/${item.id}`, auth });
        state.set(`${kind}:${item.id}`, one.data);
      }
      if (page >= (res.data.total_pages ?? 1)) break;
    }
  }
  return state;
}

function assertSameState(actual: Map<string, any>, expected: Map<string, any>, label: string): void {
  assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort(), `${label}: the same records`);
  for (const [key, record] of expected)
    assert.deepEqual(comparable(actual.get(key)), comparable(record), `${label}: ${key}`);
}

for (const backend of backends()) {
  describe(`sync: the change feed [${backend}]`, () => {
    let t: TestApp;
    let editor: { id: number; authorization: string };
    let author: { id: number; authorization: string };

    before(async () => {
      t = await createTestApp(backend);
      editor = await t.asUser('editor');
      author = await t.asUser('author');
    });
    after(() => t.close());

    const write = (method: string, url: string, payload?: Record<string, unknown>, auth = editor.authorization) =>
      t.request({ method: method as 'POST', url, auth, ...(payload ? { payload } : {}) });

    it('should list changes in commit order with the record as GET returns it, and page with tokens', async () => {
      const start = await readAll(t);
      const event = await write('POST', `${API}/events`, {
        title: 'Sync one',
        status: 'publish',
        start_date: '2030-01-01 10:00:00',
        end_date: '2030-01-01 11:00:00',
        venue: { venue: 'Sync hall' },
        categories: ['Sync'],
      });
      assert.equal(event.statusCode, 201);
      await write('POST', `${API}/events/${event.data.id}`, { title: 'Sync one, renamed' });
      const { entries, token } = await readAll(t, undefined, start.token);
      const kinds = entries.map((e) => `${e.kind}:${e.change}`);
      assert.deepEqual(kinds.slice(0, 2), ['venue:created', 'event:created']);
      assert.ok(kinds.includes('category:created'));
      const last = entries.filter((e) => e.kind === 'event').at(-1)!;
      assert.equal(last.change, 'updated');
      const single = await t.request({ method: 'GET', url: `${API}/events/${event.data.id}` });
      assert.deepEqual(last.record, single.data);
      assert.match(last.modified_utc, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      // Nothing new: an empty page, the same token.
      const again = await t.request({ method: 'GET', url: `${API}/changes?since=${token}` });
      assert.deepEqual(again.data, { changes: [], next_token: token, more: false });
      const onlyVenues = await t.request({ method: 'GET', url: `${API}/changes?since=${start.token}&kinds=venues` });
      assert.deepEqual(
        onlyVenues.data.changes.map((e: Entry) => e.kind),
        ['venue'],
      );
    });

    it('should never show drafts to anonymous readers, and show an unpublished record as a tombstone', async () => {
      const start = await readAll(t);
      const draft = await write('POST', `${API}/events`, {
        title: 'Secret plan',
        status: 'draft',
        start_date: '2030-02-01 10:00:00',
        end_date: '2030-02-01 11:00:00',
      });
      let seen = await readAll(t, undefined, start.token);
      assert.ok(!seen.entries.some((e) => e.id === draft.data.id), 'a draft is not even named');
      const editorView = await readAll(t, editor.authorization, start.token);
      assert.equal(editorView.entries.find((e) => e.id === draft.data.id)?.record?.title, 'Secret plan');
      const authorView = await readAll(t, author.authorization, start.token);
      assert.ok(!authorView.entries.some((e) => e.id === draft.data.id), "another author's draft is not named");

      await write('POST', `${API}/events/${draft.data.id}`, { status: 'publish' });
      seen = await readAll(t, undefined, seen.token);
      assert.equal(seen.entries.find((e) => e.id === draft.data.id)?.record?.status, 'publish');
      await write('POST', `${API}/events/${draft.data.id}`, { status: 'private' });
      seen = await readAll(t, undefined, seen.token);
      const gone = seen.entries.find((e) => e.id === draft.data.id)!;
      assert.equal(gone.change, 'trashed');
      assert.equal(gone.record, undefined);
      await write('DELETE', `${API}/events/${draft.data.id}`);
      const trashed = (await readAll(t, editor.authorization, editorView.token)).entries
        .filter((e) => e.id === draft.data.id)
        .at(-1)!;
      assert.equal(trashed.change, 'trashed');
      assert.equal(trashed.record?.status, 'trash', 'editors still read the trash');
    });

    it('should tell an event changed when its venue or a category it shows is renamed, and a term deleted', async () => {
      const event = await write('POST', `${API}/events`, {
        title: 'Embedded',
        status: 'publish',
        start_date: '2030-03-01 10:00:00',
        end_date: '2030-03-01 11:00:00',
        venue: { venue: 'Old name hall' },
        tags: ['ephemeral'],
      });
      const start = await readAll(t);
      await write('POST', `${API}/venues/${event.data.venue.id}`, { venue: 'New name hall' });
      let { entries, token } = await readAll(t, undefined, start.token);
      const update = entries.find((e) => e.kind === 'event' && e.id === event.data.id)!;
      assert.equal(update.record?.venue.venue, 'New name hall');
      const tagId = event.data.tags[0].id;
      assert.equal((await write('DELETE', `${API}/tags/${tagId}?force=true`)).statusCode, 200);
      ({ entries, token } = await readAll(t, undefined, token));
      assert.deepEqual(
        entries.find((e) => e.kind === 'tag')!,
        {
          kind: 'tag',
          id: tagId,
          change: 'deleted',
          modified_utc: entries.find((e) => e.kind === 'tag')!.modified_utc,
        },
      );
      assert.deepEqual(entries.find((e) => e.kind === 'event' && e.id === event.data.id)?.record?.tags, []);
      assert.ok(token);
    });

    it('should keep each language to its own root', async () => {
      const start = await readAll(t, undefined, undefined, '/fr');
      const en = await write('POST', `${API}/events`, {
        title: 'English only',
        status: 'publish',
        start_date: '2030-04-01 10:00:00',
        end_date: '2030-04-01 11:00:00',
      });
      const fr = await write('POST', `/fr${API}/events`, {
        title: 'Seulement en français',
        status: 'publish',
        start_date: '2030-04-01 10:00:00',
        end_date: '2030-04-01 11:00:00',
        translation_of: en.data.id,
      });
      const { entries } = await readAll(t, undefined, start.token, '/fr');
      assert.deepEqual(
        entries.map((e) => e.id),
        [fr.data.id],
      );
      assert.deepEqual(entries[0]!.record?.translations, { en: en.data.id, fr: fr.data.id });
      // The English event's translations changed too: it is in the English feed again.
      const enFeed = await readAll(t);
      assert.deepEqual(
        enFeed.entries.filter((e) => e.id === en.data.id).map((e) => e.change),
        ['created', 'updated'],
      );
    });

    it('should refuse a token that is not one, and answer 410 to one older than the retained history', async () => {
      const bad = await t.request({ method: 'GET', url: `${API}/changes?since=not-a-token` });
      assert.equal(bad.statusCode, 400);
      assert.ok(bad.data.data.params.since);
      const badKinds = await t.request({ method: 'GET', url: `${API}/changes?kinds=events,parties` });
      assert.equal(badKinds.statusCode, 400);
      const old = (await t.request({ method: 'GET', url: `${API}/changes?per_page=1` })).data.next_token;
      const removed = await pruneChanges(t.storage.db, 30, new Date(Date.now() + 31 * 86_400_000));
      assert.ok(removed > 0);
      const expired = await t.request({ method: 'GET', url: `${API}/changes?since=${old}` });
      assert.equal(expired.statusCode, 410);
      assert.equal(expired.data.code, 'sync-token-expired');
      const fresh = await t.request({ method: 'GET', url: `${API}/changes` });
      assert.equal(fresh.statusCode, 200);
      assert.deepEqual(fresh.data.changes, []);
    });
  });

  describe(`sync: commit order [${backend}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend);
    });
    after(() => t.close());

    it(
      'should let writers commit side by side and read no change before an earlier position commits',
      { skip: backend !== 'postgres' && 'SQLite runs one writer at a time' },
      async () => {
        const db = t.storage.db;
        const now = '2030-01-01 00:00:00';
        const venue = (id: number) => ({
          id,
          lang: 'en',
          trid: id,
          author: 1,
          status: 'publish',
          password: '',
          slug: `order-${id}`,
          title: `Order ${id}`,
          description: '',
          excerpt: '',
          date: now,
          date_utc: now,
          modified: now,
          modified_utc: now,
          image_id: null,
          address: '',
          city: '',
          country: '',
          province: '',
          state: '',
          zip: '',
          phone: '',
          website: '',
          stateprovince: '',
          show_map: 0,
          show_map_link: 0,
          geo_lat: null,
          geo_lng: null,
        });
        const ids = await db
          .insertInto('posts')
          .values([{ type: 'venue' }, { type: 'venue' }])
          .returning('id')
          .execute();
        const feed = async (since: string) => {
          const res = await t.request({ method: 'GET', url: `${API}/changes?since=${since}` });
          assert.equal(res.statusCode, 200, res.body);
          return res.data as { changes: Entry[]; next_token: string };
        };
        const start = (await readAll(t)).token;
        let releaseFirst!: () => void;
        const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
        let firstWritten!: () => void;
        const firstHasWritten = new Promise<void>((resolve) => (firstWritten = resolve));
        // The first writer draws its position and waits before committing.
        const first = db.transaction().execute(async (trx) => {
          await trx.insertInto('venues').values(venue(ids[0]!.id)).execute();
          firstWritten();
          await firstMayCommit;
        });
        await firstHasWritten;
        // The second draws a later one and commits without waiting for the first.
        await db.transaction().execute(async (trx) => {
          await trx.insertInto('venues').values(venue(ids[1]!.id)).execute();
        });
        const [logged] = await db
          .selectFrom('change_log')
          .select('position')
          .where('record_id', '=', ids[1]!.id)
          .execute();
        assert.ok(logged, 'the second change is committed');
        // A reader now must not pass the first's position, or it would never see it.
        const early = await feed(start);
        assert.deepEqual(early.changes, [], 'nothing past a position still being written');
        assert.equal(early.next_token, start);
        releaseFirst();
        await first;
        const late = await feed(early.next_token);
        assert.deepEqual(
          late.changes.map((e) => e.id),
          [ids[0]!.id, ids[1]!.id],
          'both, in the order of their positions',
        );
      },
    );
  });

  describe(`sync: replaying the feed reproduces the lists, after concurrent writes [${backend}]`, () => {
    let t: TestApp;
    let editors: { authorization: string }[];
    /** PostgreSQL: a second instance on the same database, through which half the clients write. */
    let other: { app: FastifyInstance; storage: Storage } | null = null;
    let viaOther: Pick<TestApp, 'request'>;

    before(async () => {
      t = await createTestApp(backend);
      editors = await Promise.all([1, 2, 3, 4].map(() => t.asUser('editor')));
      viaOther = t;
      if (backend === 'postgres') {
        const storage = await connect({ dataDir: t.config.dataDir, databaseUrl: t.config.databaseUrl });
        other = { app: await buildApp(t.config, { storage, logger: false }), storage };
        await other.app.ready();
        viaOther = { request: injector(other.app) };
      }
    });
    after(async () => {
      await other?.app.close();
      await other?.storage.close();
      await t.close();
    });

    /** A seeded client's random writes: creates, updates, status moves, trashes, translations, linked records, terms. */
    async function client(seed: number, steps: number): Promise<void> {
      let state = seed;
      const next = (n: number) => {
        state = (state * 1103515245 + 12345) % 2147483648;
        return state % n;
      };
      const auth = editors[seed % editors.length]!.authorization;
      const request = seed % 2 === 0 ? viaOther.request : t.request;
      const mine: number[] = [];
      for (let i = 0; i < steps; i += 1) {
        const op = next(8);
        const target = mine.length > 0 ? mine[next(mine.length)]! : null;
        const day = `2031-0${1 + next(9)}-1${next(10)}`;
        if (op <= 1 || target === null) {
          const res = await request({
            method: 'POST',
            url: `${API}/events`,
            auth,
            payload: {
              title: `Client ${seed} event ${i}`,
              status: next(3) === 0 ? 'draft' : 'publish',
              start_date: `${day} 10:00:00`,
              end_date: `${day} 12:00:00`,
              venue: { venue: `Venue ${next(4)}` },
              organizer: [{ organizer: `Organizer ${next(3)}` }],
              categories: [`Cat ${next(3)}`],
              tags: [`tag-${next(4)}`],
            },
          });
          if (res.statusCode === 201) mine.push(res.data.id);
        } else if (op === 2) {
          await request({
            method: 'POST',
            url: `${API}/events/${target}`,
            auth,
            payload: { title: `Client ${seed} renamed ${i}` },
          });
        } else if (op === 3) {
          await request({
            method: 'POST',
            url: `${API}/events/${target}`,
            auth,
            payload: { status: next(2) === 0 ? 'draft' : 'publish' },
          });
        } else if (op === 4) {
          await request({ method: 'DELETE', url: `${API}/events/${target}`, auth });
        } else if (op === 5) {
          await request({
            method: 'POST',
            url: `/fr${API}/events`,
            auth,
            payload: {
              title: `Traduction ${i}`,
              status: 'publish',
              start_date: `${day} 10:00:00`,
              end_date: `${day} 12:00:00`,
              translation_of: target,
            },
          });
        } else if (op === 6) {
          const venues = await request({ method: 'GET', url: `${API}/venues?per_page=5`, auth });
          const venue = venues.data.venues?.[next(Math.max(1, venues.data.venues.length))];
          if (venue)
            await request({ method: 'POST', url: `${API}/venues/${venue.id}`, auth, payload: { city: `City ${i}` } });
        } else {
          const categories = await request({ method: 'GET', url: `${API}/categories?per_page=5`, auth });
          const category = categories.data.categories?.[next(Math.max(1, categories.data.categories.length))];
          if (category)
            await request({
              method: 'POST',
              url: `${API}/categories/${category.id}`,
              auth,
              payload: { description: `Described by ${seed} at ${i}` },
            });
        }
      }
    }

    it('should miss nothing for a reader polling while writers on two instances commit in any order', async () => {
      // The reader follows the feed (on the other instance, where there is one) from where it stands now,
      // as fast as it can, while eight clients write; then once more after the last commit.
      let { entries, token } = await readAll(viaOther);
      const state = apply(new Map(), entries);
      let writing = true;
      const writes = Promise.all([9, 10, 11, 12, 13, 14, 15, 16].map((seed) => client(seed, 5))).finally(
        () => (writing = false),
      );
      let polls = 0;
      while (writing) {
        ({ entries, token } = await readAll(viaOther, undefined, token));
        apply(state, entries);
        polls += 1;
        // SQLite answers an injected request without leaving the microtask queue: let the writers on.
        await new Promise((resolve) => setImmediate(resolve));
      }
      await writes;
      apply(state, (await readAll(viaOther, undefined, token)).entries);
      assert.ok(polls > 1, 'the reader read while the writes went on');
      assertSameState(state, await listed(t), 'polled while written');
    });

    it('should end, from the start or from the middle, with exactly what the lists show, for the public and for an editor', async () => {
      await Promise.all([1, 2, 3, 4].map((seed) => client(seed, 8)));
      // A reader syncs while the other half of the writes is under way.
      const [middle, middleEditor] = await Promise.all([
        readAll(t),
        readAll(t, editors[0]!.authorization),
        ...[5, 6, 7, 8].map((seed) => client(seed, 8)),
      ]);
      for (const [auth, mid] of [
        [undefined, middle],
        [editors[0]!.authorization, middleEditor],
      ] as const) {
        const label = auth ? 'editor' : 'public';
        const fromStart = apply(new Map(), (await readAll(t, auth)).entries);
        const resumed = apply(apply(new Map(), mid.entries), (await readAll(t, auth, mid.token)).entries);
        const lists = await listed(t, auth);
        assertSameState(fromStart, lists, `${label}, replayed from the start`);
        assertSameState(resumed, lists, `${label}, synced in the middle and again`);
        const frLists = await listed(t, auth, '/fr');
        assertSameState(
          apply(new Map(), (await readAll(t, auth, undefined, '/fr')).entries),
          frLists,
          `${label}, French root`,
        );
      }
    });
  });
}
