import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { backends, createTestApp, type TestApp } from '../helpers/app.js';
import { backgroundContext } from '../../src/http/context.js';
import { deliverDue } from '../../src/modules/webhooks/webhook.worker.js';
import type { SubmissionFields } from '../../src/modules/submissions/submission.schema.js';
import { BLANK_SUBMISSION } from '../helpers/submission.js';

/**
 * Issue 29: a public submission waiting for a moderator is private. Nothing the public, a
 * subscriber or a contributor who does not own it can read (the REST API, the feeds, the pages,
 * the sitemap, the change feed, webhooks) shows the pending event, the venue and organizer it
 * created, or who sent it; once approved the event goes public, and the sender's name and e-mail
 * still appear nowhere public. A tag it names that did not exist is the sender's text as well, so
 * it too waits for the moderator.
 */

const NS = '/cal/events/v1';
const ADMIN = '/cal/admin/v1';
const DAY = '2031-06-05';
/** Wide enough for every event of the test, whatever today is. */
const EVERYTHING = 'start_date=2000-01-01&end_date=2100-12-31&per_page=100';

/** What only the pending submission carries: its title (and slug), its new venue and organizer. */
const PENDING =
  /hidden[\s-]*submission[\s-]*title|hidden[\s-]*venue[\s-]*hall|hidden[\s-]*organizer[\s-]*club|club\.hidden/i;
/** Who sent it: never public, not even once the event is. */
const SUBMITTER = /secretname|zed\.secret/i;
/** A tag the submission names that did not exist: it is the submitter's text too, unmoderated. */
const NEW_TAG = 'freshsubmittedtag';

const FIELDS: SubmissionFields = {
  ...BLANK_SUBMISSION,
  title: 'Hidden Submission Title',
  description: 'Secret plans for an evening.',
  start: `${DAY}T19:00`,
  end: `${DAY}T22:00`,
  timezone: 'Europe/Paris',
  venue_name: 'Hidden Venue Hall',
  venue_address: '9 rue Cachée',
  venue_city: 'Paris',
  venue_country: 'France',
  organizer_name: 'Hidden Organizer Club',
  organizer_email: 'club.hidden@example.org',
  cost: '5',
  name: 'Zed Secretname',
  email: 'zed.secret@example.org',
};

interface Received {
  body: string;
}

/** A real HTTP receiver for the webhook deliveries: keeps every body, answers 200. */
async function receiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8') });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** iCalendar folds long lines (RFC 5545 3.1): a title may be cut by CRLF and a space. */
const unfold = (body: string) => body.replace(/\r?\n[ \t]/g, '');

/**
 * Fails naming the output when `body`, raw or unfolded, matches `secret`. `echo` is what the caller
 * itself sent and the answer may repeat (a list's `rest_url` holds its query, a 404 page its own
 * address): taken out first, as knowing what one asked tells nothing.
 */
function assertMatches(body: string, secret: RegExp, where: string): void {
  assert.match(unfold(body), secret, `${where} should show it`);
}

function assertHidden(body: string, secret: RegExp, where: string, echo: string[] = []): void {
  const own = echo.reduce((text, sent) => text.split(sent).join(''), body);
  for (const text of [own, unfold(own)]) {
    const found = secret.exec(text);
    assert.equal(found, null, `${where} shows ${JSON.stringify(found?.[0])}`);
  }
}

for (const backend of backends()) {
  describe(`a pending submission never leaks [${backend}]`, () => {
    let t: TestApp;
    let hook: Awaited<ReturnType<typeof receiver>>;
    let hookId: number;
    const auth: Record<'admin' | 'editor' | 'author' | 'contributor' | 'subscriber', string> = {
      admin: '',
      editor: '',
      author: '',
      contributor: '',
      subscriber: '',
    };
    /** The submission and what it created, as an editor reads them. */
    const pending = {
      submissionId: 0,
      eventId: 0,
      slug: '',
      venueId: 0,
      venueSlug: '',
      organizerId: 0,
      organizerSlug: '',
    };
    /** A published event written after the submission: seen where it must be, it proves each output is current. */
    let canary: { id: number; slug: string };
    let category: { id: number; slug: string };
    let tag: { id: number; slug: string; name: string };
    let termsBefore: { categories: string; tags: string };

    const get = (url: string, as?: string) => t.request({ method: 'GET', url, auth: as });
    const create = async (url: string, payload: Record<string, unknown>) => {
      const res = await t.request({ method: 'POST', url, auth: auth.editor, payload });
      assert.equal(res.statusCode, 201, `${url}: ${res.body}`);
      return res.data;
    };
    const deps = () => ({ db: t.storage.db, config: t.config, settings: () => t.app.services.settings.get() });
    /** Webhook rounds until the receiver holds a body matching `seen` (the background worker runs too). */
    const deliveredUntil = async (seen: RegExp) => {
      const deadline = Date.now() + 10_000;
      while (!hook.received.some((r) => seen.test(r.body))) {
        if (Date.now() > deadline) throw new Error(`no webhook delivery matching ${seen}`);
        await deliverDue(deps());
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    /** The whole change feed from the beginning, page after page. */
    const changes = async (as?: string, root = '') => {
      const entries: { kind: string; id: number; change: string; record?: unknown }[] = [];
      const bodies: string[] = [];
      let since = '';
      for (let page = 0; page < 50; page += 1) {
        const res = await get(`${root}${NS}/changes?per_page=1000${since ? `&since=${since}` : ''}`, as);
        assert.equal(res.statusCode, 200, res.body);
        bodies.push(res.body);
        entries.push(...res.data.changes);
        if (!res.data.more) break;
        since = res.data.next_token;
      }
      return { entries, body: bodies.join('\n') };
    };
    /** Follows one redirect (a week view's date inside the week answers 301 to its first day). */
    const page = async (url: string) => {
      const res = await get(url);
      if (res.statusCode !== 301 && res.statusCode !== 302) return res;
      return get(new URL(String(res.headers.location), 'http://localhost').pathname);
    };
    /** The sitemap index and each of its files. */
    const sitemaps = async () => {
      const index = await get('/sitemap.xml');
      assert.equal(index.statusCode, 200);
      const files = [...index.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
      assert.ok(files.length > 0, 'the sitemap index lists its files');
      const out = [{ url: '/sitemap.xml', body: index.body }];
      for (const file of files) {
        const res = await get(file);
        assert.equal(res.statusCode, 200, file);
        out.push({ url: file, body: res.body });
      }
      return out;
    };
    /** Every view page; those marked `current` show the submission's date, so must show the canary. */
    const VIEWS = [
      { url: '/events/', current: false },
      { url: `/events/month/${DAY.slice(0, 7)}/`, current: true },
      { url: `/events/month/${DAY.slice(0, 7)}/?embed=1`, current: true },
      { url: `/events/week/${DAY}/`, current: true },
      { url: `/events/day/${DAY}/`, current: true },
      { url: '/events/list/', current: true },
      { url: '/events/photo/', current: true },
      { url: '/events/map/', current: true },
      { url: '/events/embed/', current: false },
    ];

    before(async () => {
      t = await createTestApp(backend, {
        CAL_WEBHOOKS_ALLOW_PRIVATE: '1',
        CAL_MAP_TILES: 'off',
        CAL_GEOLOC: '1',
      });
      for (const role of Object.keys(auth) as (keyof typeof auth)[])
        auth[role] = (
          await t.asUser(role === 'admin' ? 'administrator' : role, role === 'admin' ? 'boss' : role)
        ).authorization;
      const settings = await t.request({
        method: 'PATCH',
        url: `${ADMIN}/settings`,
        auth: auth.admin,
        payload: { submissions: 'anyone' },
      });
      assert.equal(settings.statusCode, 200, settings.body);

      hook = await receiver();
      const subscribed = await t.request({
        method: 'POST',
        url: `${ADMIN}/webhooks`,
        auth: auth.admin,
        payload: { url: hook.url, events: ['*'] },
      });
      assert.equal(subscribed.statusCode, 201, subscribed.body);
      hookId = subscribed.data.id;

      // A public calendar around it: a published venue, a category and a tag with a published event.
      const square = await create(`${NS}/venues`, {
        venue: 'Town Square',
        status: 'publish',
        city: 'Paris',
        geo_lat: 48.8566,
        geo_lng: 2.3522,
      });
      const fair = await create(`${NS}/events`, {
        title: 'Public Fair',
        status: 'publish',
        start_date: `${DAY} 10:00:00`,
        end_date: `${DAY} 12:00:00`,
        venue: square.id,
        categories: ['Concerts'],
        tags: ['outdoor'],
      });
      category = fair.categories[0];
      tag = fair.tags[0];
      termsBefore = {
        categories: (await get(`${NS}/categories?per_page=100`)).body,
        tags: (await get(`${NS}/tags?per_page=100`)).body,
      };

      const outcome = await t.app.services.submissions.submit(
        { ...FIELDS, category_id: String(category.id), tags: `${tag.name}, ${NEW_TAG}` },
        { ip: '198.51.100.29', lang: 'en', actor: null, userAgent: 'test' },
        backgroundContext(t.config, 'en', await t.app.services.settings.get()),
      );
      assert.ok(outcome.ok, JSON.stringify(outcome));
      assert.equal(outcome.state, 'pending');
      pending.submissionId = outcome.submissionId;
      pending.eventId = outcome.eventId;
      const submission = await get(`${ADMIN}/submissions/${outcome.submissionId}`, auth.editor);
      assert.equal(submission.statusCode, 200, submission.body);
      assert.equal(submission.data.submitter.email, 'zed.secret@example.org');
      assert.equal(submission.data.new_organizers.length, 1);
      // The patterns do find what an editor may read: a miss elsewhere means hidden, not misspelt.
      assertMatches(submission.body, SUBMITTER, 'the submission');
      pending.venueId = submission.data.new_venue;
      pending.organizerId = submission.data.new_organizers[0];
      const event = await get(`${NS}/events/${pending.eventId}`, auth.editor);
      assert.equal(event.data.status, 'pending');
      assertMatches(event.body, PENDING, 'the pending event as an editor reads it');
      // A tag named anew waits on the submission; the event links only the existing one.
      assert.deepEqual(submission.data.new_tags, [NEW_TAG]);
      assert.ok(!(event.data.tags as { name: string }[]).some((t) => t.name === NEW_TAG));
      pending.slug = event.data.slug;
      pending.venueSlug = (await get(`${NS}/venues/${pending.venueId}`, auth.editor)).data.slug;
      pending.organizerSlug = (await get(`${NS}/organizers/${pending.organizerId}`, auth.editor)).data.slug;
      assert.ok(pending.slug && pending.venueSlug && pending.organizerSlug, JSON.stringify(pending));

      canary = await create(`${NS}/events`, {
        title: 'Canary Concert',
        status: 'publish',
        start_date: `${DAY} 20:00:00`,
        end_date: `${DAY} 21:00:00`,
        categories: [category.id],
        tags: [tag.id],
        venue: square.id,
      });
      await deliveredUntil(/Canary Concert/);
      // A few more rounds: anything else due is sent too.
      for (let round = 0; round < 3; round += 1) await deliverDue(deps());
    });
    after(async () => {
      await t?.close();
      await hook?.close();
    });

    const REST_READERS = ['anonymous', 'subscriber', 'contributor'] as const;
    for (const reader of REST_READERS) {
      it(`REST API: shows nothing of it to ${reader === 'anonymous' ? 'the public' : `a ${reader} who does not own it`}`, async () => {
        const as = reader === 'anonymous' ? undefined : auth[reader];
        const eventIds = (res: { data: any }) => (res.data.events as { id: number }[]).map((e) => e.id);

        const wide = await get(`${NS}/events?${EVERYTHING}`, as);
        assert.equal(wide.statusCode, 200, wide.body);
        assert.ok(eventIds(wide).includes(canary.id), 'the list is current');
        assert.ok(!eventIds(wide).includes(pending.eventId));
        assertHidden(wide.body, PENDING, 'the event list');
        assertHidden(wide.body, SUBMITTER, 'the event list');

        for (const query of [
          'search=Hidden',
          'search=Secretname',
          `venue=${pending.venueId}`,
          `organizer=${pending.organizerId}`,
          `categories=${category.id}`,
          'context=edit',
        ]) {
          const res = await get(`${NS}/events?${EVERYTHING}&${query}`, as);
          assert.ok(
            res.statusCode === 200 || res.statusCode === 400 || res.statusCode === 401 || res.statusCode === 403,
            `${query}: ${res.statusCode}`,
          );
          if (res.statusCode === 200) assert.ok(!eventIds(res).includes(pending.eventId), query);
          assertHidden(res.body, PENDING, `events?${query}`, [query]);
          assertHidden(res.body, SUBMITTER, `events?${query}`, [query]);
        }
        // Asking for pending events: refused, or nothing.
        const asked = await get(`${NS}/events?${EVERYTHING}&status=pending`, as);
        if (asked.statusCode === 200) assert.deepEqual(eventIds(asked), [], 'status=pending lists nothing');
        else assert.ok([400, 401, 403].includes(asked.statusCode), `status=pending: ${asked.statusCode}`);
        assertHidden(asked.body, PENDING, 'events?status=pending');

        // The records themselves, by id and by slug: not readable.
        for (const url of [
          `${NS}/events/${pending.eventId}`,
          `${NS}/events/by-slug/${pending.slug}`,
          `${NS}/venues/${pending.venueId}`,
          `${NS}/venues/by-slug/${pending.venueSlug}`,
          `${NS}/organizers/${pending.organizerId}`,
          `${NS}/organizers/by-slug/${pending.organizerSlug}`,
        ]) {
          const res = await get(url, as);
          assert.ok([401, 403, 404].includes(res.statusCode), `${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
          assertHidden(res.body, PENDING, url, [url]);
          assertHidden(res.body, SUBMITTER, url, [url]);
        }

        // The venue and organizer lists do not hold the new ones, even when asked for pending records.
        for (const kind of ['venues', 'organizers'] as const) {
          const id = kind === 'venues' ? pending.venueId : pending.organizerId;
          for (const query of ['per_page=100', 'per_page=100&status=pending', 'per_page=100&search=Hidden']) {
            const res = await get(`${NS}/${kind}?${query}`, as);
            assert.ok([200, 400, 401, 403].includes(res.statusCode), `${kind}?${query}: ${res.statusCode}`);
            if (res.statusCode === 200)
              assert.ok(!(res.data[kind] as { id: number }[]).some((r) => r.id === id), `${kind}?${query}`);
            assertHidden(res.body, PENDING, `${kind}?${query}`, [query]);
            assertHidden(res.body, SUBMITTER, `${kind}?${query}`, [query]);
          }
        }

        // Term counts move with the canary only: compared as the public read them before the submission.
        if (reader === 'anonymous') {
          const countOf = (body: string, key: 'categories' | 'tags', id: number) =>
            (JSON.parse(body)[key] as { id: number; count: number }[]).find((term) => term.id === id)?.count;
          const categories = await get(`${NS}/categories?per_page=100`);
          const tags = await get(`${NS}/tags?per_page=100`);
          assert.equal(
            countOf(categories.body, 'categories', category.id),
            countOf(termsBefore.categories, 'categories', category.id)! + 1,
          );
          assert.equal(countOf(tags.body, 'tags', tag.id), countOf(termsBefore.tags, 'tags', tag.id)! + 1);
          for (const res of [categories, tags]) {
            assertHidden(res.body, PENDING, 'the term lists');
            assertHidden(res.body, SUBMITTER, 'the term lists');
          }
        }
      });
    }

    it('feeds: iCalendar and JSON-LD show nothing of it', async () => {
      for (const url of [
        `${NS}/events?format=ical`,
        `${NS}/events?format=ical&${EVERYTHING}`,
        `${NS}/events?format=ical&venue=${pending.venueId}`,
        `${NS}/events?format=ical&search=Hidden`,
        `${NS}/events?format=jsonld&${EVERYTHING}`,
        `${NS}/events?format=jsonld&search=Hidden`,
      ]) {
        const res = await get(url);
        assert.ok(res.statusCode === 200 || res.statusCode === 400, `${url}: ${res.statusCode}`);
        assertHidden(res.body, PENDING, url);
        assertHidden(res.body, SUBMITTER, url);
      }
      const ical = await get(`${NS}/events?format=ical&${EVERYTHING}`);
      assert.match(unfold(ical.body), /Canary Concert/, 'the feed is current');
      for (const url of [
        `${NS}/events/${pending.eventId}?format=ical`,
        `${NS}/events/by-slug/${pending.slug}?format=ical`,
        `${NS}/events/${pending.eventId}?format=jsonld`,
      ]) {
        const res = await get(url);
        assert.ok([401, 403, 404].includes(res.statusCode), `${url}: ${res.statusCode}`);
        assertHidden(res.body, PENDING, url);
      }
    });

    it('pages: the views, the event, venue and organizer pages, the form and the sitemap show nothing of it', async () => {
      const pages = [
        ...VIEWS,
        { url: `/events/category/${category.slug}/`, current: true },
        { url: `/tag/${tag.slug}/`, current: true },
        { url: '/events/submit/', current: false },
      ];
      for (const { url, current } of pages) {
        const res = await page(url);
        assert.equal(res.statusCode, 200, url);
        if (current) assert.match(res.body, /Canary Concert/, `${url} is current`);
        assertHidden(res.body, PENDING, url);
        assertHidden(res.body, SUBMITTER, url);
      }
      for (const url of [
        `/event/${pending.slug}/`,
        `/venue/${pending.venueSlug}/`,
        `/organizer/${pending.organizerSlug}/`,
      ]) {
        const res = await get(url);
        assert.equal(res.statusCode, 404, url);
        assertHidden(res.body, PENDING, url, [url]);
        assertHidden(res.body, SUBMITTER, url);
      }
      for (const { url, body } of await sitemaps()) {
        assertHidden(body, PENDING, url);
        assertHidden(body, SUBMITTER, url);
      }
    });

    it('change feed: no entry for the event, its venue or its organizer, for the public, a subscriber or a contributor', async () => {
      for (const as of [undefined, auth.subscriber, auth.contributor]) {
        const { entries, body } = await changes(as);
        assert.ok(
          entries.some((e) => e.kind === 'event' && e.id === canary.id),
          'the feed is current',
        );
        const mine = entries.filter(
          (e) =>
            (e.kind === 'event' && e.id === pending.eventId) ||
            (e.kind === 'venue' && e.id === pending.venueId) ||
            (e.kind === 'organizer' && e.id === pending.organizerId),
        );
        assert.deepEqual(mine, []);
        assertHidden(body, PENDING, 'the change feed');
        assertHidden(body, SUBMITTER, 'the change feed');
      }
    });

    it('webhooks: no delivery for it', async () => {
      const log = await get(`${ADMIN}/webhooks/${hookId}/deliveries?per_page=100`, auth.admin);
      assert.equal(log.statusCode, 200, log.body);
      const mine = (log.data as { kind: string; record_id: number }[]).filter(
        (d) =>
          (d.kind === 'event' && d.record_id === pending.eventId) ||
          (d.kind === 'venue' && d.record_id === pending.venueId) ||
          (d.kind === 'organizer' && d.record_id === pending.organizerId),
      );
      assert.deepEqual(mine, []);
      for (const { body } of hook.received) {
        assertHidden(body, PENDING, 'a webhook delivery');
        assertHidden(body, SUBMITTER, 'a webhook delivery');
      }
    });

    it('admin API: the submissions and their contact only for editors and administrators', async () => {
      for (const as of [undefined, auth.author, auth.contributor, auth.subscriber]) {
        for (const url of [
          `${ADMIN}/submissions`,
          `${ADMIN}/submissions?state=all`,
          `${ADMIN}/submissions/${pending.submissionId}`,
        ]) {
          const res = await get(url, as);
          assert.ok([401, 403].includes(res.statusCode), `${url}: ${res.statusCode}`);
          assertHidden(res.body, SUBMITTER, url);
        }
      }
      for (const as of [auth.editor, auth.admin]) {
        const res = await get(`${ADMIN}/submissions`, as);
        assert.equal(res.statusCode, 200);
        assert.match(res.body, /zed\.secret@example\.org/);
      }
    });

    it('a tag the submission names anew is not public before a moderator approves it', async () => {
      const named = new RegExp(NEW_TAG, 'i');
      const problems: string[] = [];
      const check = (where: string, body: string) => {
        if (named.test(body)) problems.push(where);
      };
      // A tag is public the moment it exists: the submission's new one is made only on approval.
      check('tags?hide_empty=false', (await get(`${NS}/tags?per_page=100&hide_empty=false`)).body);
      const tagPage = await get(`/tag/${NEW_TAG}/`);
      assert.equal(tagPage.statusCode, 404);
      check('the change feed', (await changes()).body);
      for (const { body } of hook.received) check('a webhook delivery', body);
      assert.deepEqual(problems, [], `the new tag "${NEW_TAG}" shows in: ${problems.join(', ')}`);
    });

    it('once approved: the event goes public everywhere, the submitter still nowhere', async () => {
      const approved = await t.request({
        method: 'PATCH',
        url: `${ADMIN}/submissions/${pending.submissionId}`,
        auth: auth.editor,
        payload: { state: 'approved' },
      });
      assert.equal(approved.statusCode, 200, approved.body);
      assert.equal(approved.data.event.status, 'publish');
      const tagged = await get(`${NS}/events/${pending.eventId}`);
      assert.ok(
        (tagged.data.tags as { name: string }[]).some((t) => t.name === NEW_TAG),
        'the new tag, made on approval',
      );

      const bodies: { url: string; body: string }[] = [];
      const read = async (url: string) => {
        const res = await page(url);
        bodies.push({ url, body: res.body });
        return res;
      };

      // The API.
      const event = await get(`${NS}/events/${pending.eventId}`);
      assert.equal(event.statusCode, 200, event.body);
      assert.equal(event.data.title, 'Hidden Submission Title');
      assert.equal(event.data.venue.status, 'publish');
      bodies.push({ url: `${NS}/events/${pending.eventId}`, body: event.body });
      const list = await read(`${NS}/events?${EVERYTHING}`);
      assert.ok((list.data.events as { id: number }[]).some((e) => e.id === pending.eventId));
      for (const url of [
        `${NS}/events/by-slug/${pending.slug}`,
        `${NS}/venues/${pending.venueId}`,
        `${NS}/organizers/${pending.organizerId}`,
        `${NS}/venues?per_page=100`,
        `${NS}/organizers?per_page=100`,
        `${NS}/categories?per_page=100`,
        `${NS}/tags?per_page=100`,
        `${NS}/events?format=ical&${EVERYTHING}`,
        `${NS}/events/${pending.eventId}?format=ical`,
        `${NS}/events?format=jsonld&${EVERYTHING}`,
        `${NS}/events/${pending.eventId}?format=jsonld`,
      ])
        assert.equal((await read(url)).statusCode, 200, url);

      // The pages.
      const eventPage = await read(`/event/${pending.slug}/`);
      assert.equal(eventPage.statusCode, 200);
      assert.match(eventPage.body, /Hidden Submission Title/);
      assert.equal((await read(`/venue/${pending.venueSlug}/`)).statusCode, 200);
      assert.equal((await read(`/organizer/${pending.organizerSlug}/`)).statusCode, 200);
      for (const { url } of [...VIEWS, { url: `/events/category/${category.slug}/` }, { url: '/events/submit/' }])
        await read(url);
      assert.match(bodies.find((b) => b.url === `/events/day/${DAY}/`)!.body, /Hidden Submission Title/);
      const sitemap = await sitemaps();
      bodies.push(...sitemap);
      assert.ok(
        sitemap.some(({ body }) => body.includes(`/event/${pending.slug}/`)),
        'the sitemap lists the event',
      );

      // The change feed.
      const feed = await changes();
      bodies.push({ url: 'the change feed', body: feed.body });
      assert.ok(feed.entries.some((e) => e.kind === 'event' && e.id === pending.eventId && e.record !== undefined));
      assert.ok(feed.entries.some((e) => e.kind === 'venue' && e.id === pending.venueId));
      assert.ok(feed.entries.some((e) => e.kind === 'organizer' && e.id === pending.organizerId));

      // The webhook.
      await deliveredUntil(/Hidden Submission Title/);
      for (let round = 0; round < 3; round += 1) await deliverDue(deps());
      bodies.push(...hook.received.map(({ body }) => ({ url: 'a webhook delivery', body })));

      for (const { url, body } of bodies) assertHidden(body, SUBMITTER, url);
    });
  });
}
