import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import ICAL from 'ical.js';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';

const EVENTS = '/cal/events/v1/events';
/** A fixed window for the tests of content: DST changes of 2027 in Europe (Mar 28, Oct 31) and the US (Mar 14, Nov 7). */
const WINDOW = 'start_date=2027-03-01&end_date=2027-11-30';

type Vevent = InstanceType<typeof ICAL.Component>;

/** Parses a feed with ical.js, its VTIMEZONEs registered so TZID times resolve to instants. */
function parseFeed(body: string): { calendar: Vevent; events: Vevent[]; byUid: Map<string, Vevent> } {
  const calendar = new ICAL.Component(ICAL.parse(body));
  for (const vtimezone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(vtimezone);
  const events = calendar.getAllSubcomponents('vevent');
  return { calendar, events, byUid: new Map(events.map((e) => [String(e.getFirstPropertyValue('uid')), e])) };
}

/**
 * ical.js reads properties it has no definition for (RFC 7986 NAME, X-WR-*, X-ALT-DESC) as raw
 * values; RFC 5545 escapes them as TEXT, so they are unescaped here.
 */
const unescape = (value: string | undefined): string | undefined =>
  value?.replace(/\\([\\;,nN])/g, (_m, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
const text = (e: Vevent, name: string): string | undefined => {
  const v = e.getFirstPropertyValue(name);
  return v === null || v === undefined ? undefined : String(v);
};
/** The UTC instant of a DATE-TIME property as `YYYY-MM-DD HH:MM:SS`. */
const instant = (e: Vevent, name: string): string => {
  const time = e.getFirstPropertyValue(name) as InstanceType<typeof ICAL.Time>;
  return new Date(time.toUnixTime() * 1000).toISOString().slice(0, 19).replace('T', ' ');
};
const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

for (const backend of backends()) {
  describe(`calendar feeds: iCalendar [${backend}]`, () => {
    let t: TestApp;
    let editor: { id: number; authorization: string };
    let contributor: { id: number; authorization: string };
    let otherContributor: { id: number; authorization: string };
    const ev: Record<string, Record<string, any>> = {};

    const create = async (key: string, payload: Record<string, unknown>, auth = editor.authorization, root = '') => {
      const res = await t.request({ method: 'POST', url: `${root}${EVENTS}`, auth, payload });
      assert.equal(res.statusCode, 201, res.body);
      ev[key] = res.data;
      return res.data;
    };
    const feed = (query: string, auth?: string, root = '') =>
      t.request({ method: 'GET', url: `${root}${EVENTS}?format=ical&${query}`, auth });
    const jsonList = (query: string, auth?: string) =>
      t.request({ method: 'GET', url: `${EVENTS}?per_page=50&${query}`, auth });

    before(async () => {
      t = await createTestApp(backend, { CAL_TIMEZONE: 'Europe/Paris', CAL_GEOLOC: '1' });
      editor = await t.asUser('editor');
      contributor = await t.asUser('contributor');
      otherContributor = await t.asUser('contributor');
      await create('rich', {
        title: 'Fête, "jazz"; night\nsecond line 🎷👩‍👩‍👧 שלום עולם — مرحبا',
        description:
          '<p>First <b>paragraph</b>, with; punctuation.</p>\n<p>Second line 🎺 and عربى text that is long enough to be folded more than once over the 75 octets of a line.</p>',
        start_date: '2027-03-27 20:00:00',
        end_date: '2027-03-27 23:30:00',
        timezone: 'Europe/Paris',
        venue: {
          venue: 'Salle Pleyel; grande salle',
          address: '252 Rue du Faubourg Saint-Honoré',
          city: 'Paris',
          zip: '75008',
          country: 'France',
          geo_lat: 48.8771,
          geo_lng: 2.3005,
        },
        organizer: [
          { organizer: 'Jazz, Inc.', email: 'jazz@example.org' },
          { organizer: 'Second organizer', email: 'not an address' },
        ],
        categories: ['Music', 'Jazz, Blues'],
        tags: ['outdoor'],
        image: 'https://images.example.org/poster.png',
        featured: true,
      });
      await create('afterEuDst', {
        title: 'After the EU change',
        start_date: '2027-03-29 09:00:00',
        end_date: '2027-03-29 10:00:00',
        timezone: 'Europe/Paris',
        categories: ['Music'],
      });
      await create('beforeUsDst', {
        title: 'New York before',
        start_date: '2027-03-13 09:00:00',
        end_date: '2027-03-13 10:00:00',
        timezone: 'America/New_York',
      });
      await create('acrossUsDst', {
        title: 'New York across the change',
        start_date: '2027-03-13 22:00:00',
        end_date: '2027-03-14 12:00:00',
        timezone: 'America/New_York',
      });
      await create('autumn', {
        title: 'Autumn in Sydney',
        start_date: '2027-10-30 09:00:00',
        end_date: '2027-10-31 09:00:00',
        timezone: 'Australia/Sydney',
      });
      await create('allDay', {
        title: 'All-day fair',
        start_date: '2027-06-10',
        end_date: '2027-06-10',
        all_day: true,
      });
      await create('multiDay', {
        title: 'Multi-day festival',
        start_date: '2027-07-01',
        end_date: '2027-07-03',
        all_day: true,
        timezone: 'America/Los_Angeles',
      });
      await create('utc', {
        title: 'In UTC',
        start_date: '2027-05-01 12:00:00',
        end_date: '2027-05-01 13:00:00',
        timezone: 'UTC',
      });
      await create('offset', {
        title: 'At UTC+2',
        start_date: '2027-05-02 12:00:00',
        end_date: '2027-05-02 13:00:00',
        timezone: 'UTC+2',
      });
      await create('protected', {
        title: 'Secret gig',
        description: 'Only for the initiated',
        start_date: '2027-05-03 20:00:00',
        end_date: '2027-05-03 22:00:00',
        venue: { venue: 'Hidden cellar' },
      });
      await t.request({
        method: 'POST',
        url: `${EVENTS}/${ev['protected']!['id']}`,
        auth: editor.authorization,
        payload: { password: 'open-sesame' },
      });
      await create('private', {
        title: 'Private board meeting',
        status: 'private',
        start_date: '2027-05-04 10:00:00',
        end_date: '2027-05-04 11:00:00',
      });
      await create('draft', {
        title: 'Editor draft',
        status: 'draft',
        start_date: '2027-05-05 10:00:00',
        end_date: '2027-05-05 11:00:00',
      });
      await create(
        'contributorDraft',
        { title: 'Contributor draft', start_date: '2027-05-06 10:00:00', end_date: '2027-05-06 11:00:00' },
        contributor.authorization,
      );
      await create('hidden', {
        title: 'Hidden from listings',
        start_date: '2027-05-07 10:00:00',
        end_date: '2027-05-07 11:00:00',
        hide_from_listings: true,
      });
      await create('cancelled', {
        title: 'Cancelled show',
        description: 'Was public',
        start_date: '2027-05-08 20:00:00',
        end_date: '2027-05-08 22:00:00',
        venue: { venue: 'Old venue' },
      });
      await create('trashedDraft', {
        title: 'Trashed draft',
        status: 'draft',
        start_date: '2027-05-09 20:00:00',
        end_date: '2027-05-09 22:00:00',
      });
      for (const key of ['cancelled', 'trashedDraft']) {
        const res = await t.request({
          method: 'DELETE',
          url: `${EVENTS}/${ev[key]!['id']}`,
          auth: editor.authorization,
        });
        assert.equal(res.statusCode, 200, res.body);
      }
      await create(
        'french',
        {
          title: 'Fête de la musique',
          start_date: '2027-06-21 18:00:00',
          end_date: '2027-06-21 23:00:00',
          translation_of: ev['afterEuDst']!['id'],
        },
        editor.authorization,
        '/fr',
      );
    });
    after(() => t.close());

    it('should answer text/calendar with CRLF lines of at most 75 octets, never cut inside a UTF-8 sequence', async () => {
      const res = await feed(WINDOW);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'text/calendar; charset=utf-8');
      assert.equal(res.headers['vary'], 'Accept, Accept-Encoding, Authorization');
      const bytes = res.rawPayload;
      assert.ok(bytes.subarray(bytes.length - 2).equals(Buffer.from('\r\n')), 'the last line ends with CRLF');
      assert.equal(res.body.replace(/\r\n/g, '').includes('\n'), false, 'no bare LF');
      assert.equal(res.body.replace(/\r\n/g, '').includes('\r'), false, 'no bare CR');
      const decoder = new TextDecoder('utf-8', { fatal: true });
      let folded = 0;
      let start = 0;
      for (let i = bytes.indexOf('\r\n'); i !== -1; start = i + 2, i = bytes.indexOf('\r\n', start)) {
        const line = bytes.subarray(start, i);
        assert.ok(line.length <= 75, `line of ${line.length} octets: ${line.toString()}`);
        decoder.decode(line); // throws on a split sequence
        if (line[0] === 0x20) folded += 1;
      }
      assert.ok(folded > 0, 'long lines were folded');
      const { calendar } = parseFeed(res.body);
      assert.equal(text(calendar, 'version'), '2.0');
      assert.equal(text(calendar, 'calscale'), 'GREGORIAN');
      assert.equal(text(calendar, 'method'), 'PUBLISH');
      assert.match(text(calendar, 'prodid')!, /^-\/\/cal-events\/\//);
      assert.match(unescape(text(calendar, 'name'))!, /^Event Calendar \(localhost, en\)/);
      assert.equal(text(calendar, 'x-wr-calname'), text(calendar, 'name'));
      assert.equal(text(calendar, 'x-wr-timezone'), 'Europe/Paris');
      assert.equal(
        calendar.getFirstProperty('refresh-interval')?.toICALString(),
        'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
      );
      assert.equal(text(calendar, 'source'), `http://localhost:80${EVENTS}?format=ical&${WINDOW}`);
    });

    it('should round-trip every field of an event through an independent parser', async () => {
      const res = await feed(WINDOW);
      const rich = ev['rich']!;
      const e = parseFeed(res.body).byUid.get(rich['global_id'])!;
      assert.ok(e, 'the event is in the feed');
      assert.equal(text(e, 'summary'), rich['title']);
      assert.equal(
        text(e, 'description'),
        'First paragraph, with; punctuation.\n\nSecond line 🎺 and عربى text that is long enough to be folded more than once over the 75 octets of a line.',
      );
      assert.equal(unescape(text(e, 'x-alt-desc')), rich['description']);
      assert.equal(e.getFirstProperty('x-alt-desc')!.getParameter('fmttype'), 'text/html');
      assert.equal(text(e, 'url'), rich['url']);
      assert.equal(
        text(e, 'location'),
        'Salle Pleyel; grande salle, 252 Rue du Faubourg Saint-Honoré, Paris, 75008, France',
      );
      assert.deepEqual(e.getFirstPropertyValue('geo'), [48.8771, 2.3005]);
      const organizer = e.getFirstProperty('organizer')!;
      assert.equal(organizer.getFirstValue(), 'mailto:jazz@example.org');
      assert.equal(organizer.getParameter('cn'), 'Jazz, Inc.');
      assert.equal(e.getAllProperties('organizer').length, 1, 'one ORGANIZER, as RFC 5545 allows');
      assert.deepEqual(
        e.getAllProperties('contact').map((p) => p.getFirstValue()),
        ['Second organizer <not an address>'],
      );
      assert.deepEqual(e.getFirstProperty('categories')!.getValues().sort(), ['Jazz, Blues', 'Music']);
      assert.equal(instant(e, 'created'), rich['date_utc']);
      assert.equal(instant(e, 'last-modified'), rich['modified_utc']);
      assert.equal(instant(e, 'dtstamp'), rich['modified_utc']);
      assert.equal(typeof e.getFirstPropertyValue('sequence'), 'number');
      assert.equal(text(e, 'status'), 'CONFIRMED');
      assert.equal(text(e, 'class'), 'PUBLIC');
      assert.equal(text(e, 'attach'), 'https://images.example.org/poster.png');
      assert.equal(e.getFirstProperty('attach')!.getParameter('fmttype'), 'image/png');
      const start = e.getFirstProperty('dtstart')!;
      assert.equal(start.getParameter('tzid'), 'Europe/Paris');
      assert.equal(instant(e, 'dtstart'), rich['utc_start_date']);
      assert.equal(instant(e, 'dtend'), rich['utc_end_date']);
    });

    it('should give each zone its VTIMEZONE, so instants across DST changes match utc_start_date', async () => {
      const { calendar, byUid } = parseFeed((await feed(WINDOW)).body);
      const tzids = calendar
        .getAllSubcomponents('vtimezone')
        .map((z) => z.getFirstPropertyValue('tzid'))
        .sort();
      assert.deepEqual(tzids, ['America/New_York', 'Australia/Sydney', 'Europe/Paris']);
      for (const key of ['rich', 'afterEuDst', 'beforeUsDst', 'acrossUsDst', 'autumn']) {
        const e = byUid.get(ev[key]!['global_id'])!;
        assert.equal(e.getFirstProperty('dtstart')!.getParameter('tzid'), ev[key]!['timezone'], key);
        assert.equal(instant(e, 'dtstart'), ev[key]!['utc_start_date'], `${key} start`);
        assert.equal(instant(e, 'dtend'), ev[key]!['utc_end_date'], `${key} end`);
      }
      // Offsets really differ on either side of the changes (the VTIMEZONE is not a fixed offset).
      assert.equal(ev['rich']!['utc_start_date'], '2027-03-27 19:00:00');
      assert.equal(ev['afterEuDst']!['utc_start_date'], '2027-03-29 07:00:00');
      assert.equal(ev['acrossUsDst']!['utc_end_date'], '2027-03-14 16:00:00');
    });

    it('should write UTC and fixed-offset events in UTC form, without a VTIMEZONE', async () => {
      const { byUid } = parseFeed((await feed(WINDOW)).body);
      for (const key of ['utc', 'offset']) {
        const e = byUid.get(ev[key]!['global_id'])!;
        const start = e.getFirstPropertyValue('dtstart') as InstanceType<typeof ICAL.Time>;
        assert.equal(start.zone?.tzid, 'UTC', key);
        assert.equal(instant(e, 'dtstart'), ev[key]!['utc_start_date'], key);
        assert.equal(instant(e, 'dtend'), ev[key]!['utc_end_date'], key);
      }
      assert.equal(ev['offset']!['utc_start_date'], '2027-05-02 10:00:00');
    });

    it('should write all-day and multi-day events as dates, DTEND the day after the last', async () => {
      const { byUid } = parseFeed((await feed(WINDOW)).body);
      for (const [key, first, next] of [
        ['allDay', '2027-06-10', '2027-06-11'],
        ['multiDay', '2027-07-01', '2027-07-04'],
      ] as const) {
        const e = byUid.get(ev[key]!['global_id'])!;
        const start = e.getFirstPropertyValue('dtstart') as InstanceType<typeof ICAL.Time>;
        const end = e.getFirstPropertyValue('dtend') as InstanceType<typeof ICAL.Time>;
        assert.equal(start.isDate, true, key);
        assert.equal(end.isDate, true, key);
        assert.equal(start.toString(), first, key);
        assert.equal(end.toString(), next, key);
      }
    });

    it('should list exactly the events of the JSON list, in its order, for each filter', async () => {
      const category = ev['rich']!['categories'].find((c: { name: string }) => c.name === 'Music');
      const tag = ev['rich']!['tags'][0];
      const queries = [
        WINDOW,
        `${WINDOW}&categories=${category.slug}`,
        `${WINDOW}&categories=${category.id}`,
        `${WINDOW}&tags=${tag.slug}`,
        `${WINDOW}&venue=${ev['rich']!['venue']['id']}`,
        `${WINDOW}&organizer=${ev['rich']!['organizer'][0]['id']}`,
        `${WINDOW}&search=york`,
        `${WINDOW}&featured=true`,
        `${WINDOW}&geoloc=true`,
        'start_date=2027-03-13&end_date=2027-03-14',
        'start_date=2027-03-13 21:00&end_date=2027-03-29 09:30&strict_dates=true',
        `include=${ev['utc']!['id']},${ev['offset']!['id']}`,
      ];
      for (const query of queries) {
        const [ical, json] = await Promise.all([feed(query), jsonList(query)]);
        assert.equal(ical.statusCode, 200, `${query}: ${ical.body}`);
        const uids = parseFeed(ical.body)
          .events.filter((e) => text(e, 'status') !== 'CANCELLED')
          .map((e) => text(e, 'uid'));
        const expected = (json.data.events as { global_id: string; start_date: string }[]).map((e) => e.global_id);
        assert.deepEqual(new Set(uids), new Set(expected), query);
        assert.ok(expected.length > 0, `${query} finds something`);
      }
    });

    it('should cover 30 days ago to one year ahead without dates', async () => {
      const keys = { before: day(-31), inFirst: day(-29), inLast: day(364), after: day(367) };
      for (const [key, date] of Object.entries(keys))
        await create(`window-${key}`, {
          title: `Window ${key}`,
          start_date: `${date} 12:00:00`,
          end_date: `${date} 13:00:00`,
        });
      const { events } = parseFeed((await feed('')).body);
      const titles = events.map((e) => text(e, 'summary'));
      assert.ok(titles.includes('Window inFirst') && titles.includes('Window inLast'), titles.join('|'));
      assert.ok(!titles.includes('Window before') && !titles.includes('Window after'), titles.join('|'));
    });

    it('should show each caller what the JSON list shows them: no draft or private event to anonymous readers', async () => {
      const readers = {
        anonymous: undefined,
        contributor: contributor.authorization,
        other: otherContributor.authorization,
        editor: editor.authorization,
      };
      const seen: Record<string, string[]> = {};
      for (const [name, auth] of Object.entries(readers)) {
        const [ical, json] = await Promise.all([feed(WINDOW, auth), jsonList(WINDOW, auth)]);
        const events = parseFeed(ical.body).events.filter((e) => text(e, 'status') !== 'CANCELLED');
        assert.deepEqual(
          new Set(events.map((e) => text(e, 'uid'))),
          new Set((json.data.events as { global_id: string }[]).map((e) => e.global_id)),
          name,
        );
        seen[name] = events.map((e) => text(e, 'summary')!);
      }
      for (const hidden of [
        'Private board meeting',
        'Editor draft',
        'Contributor draft',
        'Hidden from listings',
        'Trashed draft',
      ]) {
        assert.ok(!seen['anonymous']!.includes(hidden), `anonymous must not see ${hidden}`);
      }
      assert.ok(seen['contributor']!.includes('Contributor draft'));
      assert.ok(!seen['other']!.includes('Contributor draft'));
      assert.ok(seen['editor']!.includes('Private board meeting') && seen['editor']!.includes('Editor draft'));
      const editorFeed = parseFeed((await feed(WINDOW, editor.authorization)).body);
      const privateEvent = editorFeed.byUid.get(ev['private']!['global_id'])!;
      assert.equal(text(privateEvent, 'class'), 'PRIVATE');
      assert.equal(text(editorFeed.byUid.get(ev['draft']!['global_id'])!, 'status'), 'TENTATIVE');
    });

    it('should show a password-protected event without its description unless the password is given', async () => {
      const locked = parseFeed((await feed(WINDOW)).body).byUid.get(ev['protected']!['global_id'])!;
      assert.equal(text(locked, 'summary'), 'Secret gig');
      for (const name of ['description', 'x-alt-desc', 'location', 'organizer', 'categories', 'attach'])
        assert.equal(locked.getFirstProperty(name), null, name);
      const open = parseFeed((await feed(`${WINDOW}&password=open-sesame`)).body).byUid.get(
        ev['protected']!['global_id'],
      )!;
      assert.equal(text(open, 'description'), 'Only for the initiated');
      assert.equal(text(open, 'location'), 'Hidden cellar');
    });

    it('should cancel an event trashed after publication, with nothing but what was public', async () => {
      for (const auth of [undefined, editor.authorization]) {
        const { byUid, events } = parseFeed((await feed(WINDOW, auth)).body);
        const cancelled = byUid.get(ev['cancelled']!['global_id'])!;
        assert.ok(cancelled, 'the cancelled event is listed');
        assert.equal(text(cancelled, 'status'), 'CANCELLED');
        assert.equal(text(cancelled, 'summary'), 'Cancelled show');
        assert.equal(instant(cancelled, 'dtstart'), ev['cancelled']!['utc_start_date']);
        const names = cancelled
          .getAllProperties()
          .map((p) => p.name)
          .sort();
        assert.deepEqual(names, ['dtend', 'dtstamp', 'dtstart', 'sequence', 'status', 'summary', 'uid']);
        assert.ok(!events.some((e) => text(e, 'summary') === 'Trashed draft'), 'a trashed draft was never public');
      }
    });

    it('should serve a feed under every language root, with the records of that language', async () => {
      for (const lang of t.config.languages) {
        const root = lang === t.config.defaultLanguage ? '' : `/${lang}`;
        const res = await feed(WINDOW, undefined, root);
        assert.equal(res.statusCode, 200, lang);
        const { calendar, events } = parseFeed(res.body);
        assert.match(unescape(text(calendar, 'name'))!, new RegExp(`, ${lang}\\)`));
        assert.match(
          text(calendar, 'source')!,
          new RegExp(`^http://localhost:80${root}/cal/events/v1/events\\?format=ical`),
        );
        const titles = events.map((e) => text(e, 'summary'));
        assert.equal(titles.includes('Fête de la musique'), lang === 'fr', lang);
        assert.equal(titles.includes('After the EU change'), lang === 'en', lang);
      }
      const byParam = await feed(`${WINDOW}&i18n_language=fr`);
      assert.deepEqual(
        parseFeed(byParam.body).events.map((e) => text(e, 'summary')),
        ['Fête de la musique'],
      );
    });

    it('should be chosen by Accept as well as by format, and JSON otherwise', async () => {
      const byAccept = await t.request({
        method: 'GET',
        url: `${EVENTS}?${WINDOW}`,
        headers: { accept: 'text/calendar' },
      });
      assert.equal(byAccept.headers['content-type'], 'text/calendar; charset=utf-8');
      const preferred = await t.request({
        method: 'GET',
        url: `${EVENTS}?${WINDOW}`,
        headers: { accept: 'application/json;q=0.5, text/calendar' },
      });
      assert.equal(preferred.headers['content-type'], 'text/calendar; charset=utf-8');
      for (const accept of [
        '*/*',
        'application/json',
        'text/html,*/*;q=0.8',
        'text/calendar;q=0.5, application/json',
      ]) {
        const res = await t.request({ method: 'GET', url: `${EVENTS}?${WINDOW}`, headers: { accept } });
        assert.match(String(res.headers['content-type']), /^application\/json/, accept);
        assert.ok(Array.isArray(res.data.events), accept);
      }
      const forced = await t.request({
        method: 'GET',
        url: `${EVENTS}?${WINDOW}&format=json`,
        headers: { accept: 'text/calendar' },
      });
      assert.ok(Array.isArray(forced.data.events));
    });

    it('should cache feeds: ETag, Last-Modified, 304 on If-None-Match and If-Modified-Since, HEAD, a new tag after a write', async () => {
      const first = await feed(WINDOW);
      const etag = String(first.headers['etag']);
      const lastModified = String(first.headers['last-modified']);
      assert.match(etag, /^"[\w-]+"$/);
      assert.ok(Number.isFinite(Date.parse(lastModified)));
      const again = await feed(WINDOW);
      assert.equal(again.body, first.body);
      assert.equal(again.headers['etag'], etag);
      const url = `${EVENTS}?format=ical&${WINDOW}`;
      const byTag = await t.request({ method: 'GET', url, headers: { 'if-none-match': etag } });
      assert.equal(byTag.statusCode, 304);
      assert.equal(byTag.body, '');
      assert.equal(byTag.headers['etag'], etag);
      assert.equal(
        (await t.request({ method: 'GET', url, headers: { 'if-none-match': `"other", W/${etag}` } })).statusCode,
        304,
      );
      assert.equal((await t.request({ method: 'GET', url, headers: { 'if-none-match': '"other"' } })).statusCode, 200);
      assert.equal(
        (await t.request({ method: 'GET', url, headers: { 'if-modified-since': lastModified } })).statusCode,
        304,
      );
      const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
      assert.equal(
        (await t.request({ method: 'GET', url, headers: { 'if-modified-since': earlier } })).statusCode,
        200,
      );
      // If-None-Match decides when both are sent.
      assert.equal(
        (
          await t.request({
            method: 'GET',
            url,
            headers: { 'if-none-match': '"other"', 'if-modified-since': lastModified },
          })
        ).statusCode,
        200,
      );
      const head = await t.request({ method: 'HEAD', url });
      assert.equal(head.statusCode, 200);
      assert.equal(head.body, '');
      assert.equal(head.headers['etag'], etag);
      assert.equal(head.headers['content-type'], 'text/calendar; charset=utf-8');
      assert.equal((await t.request({ method: 'HEAD', url, headers: { 'if-none-match': etag } })).statusCode, 304);
      // HEAD of a feed not cached yet: the headers, no body, and the feed is whole afterwards.
      const cold = await t.request({ method: 'HEAD', url: `${url}&cold=1` });
      assert.deepEqual(
        [cold.statusCode, cold.body, cold.headers['content-type']],
        [200, '', 'text/calendar; charset=utf-8'],
      );
      assert.ok(cold.headers['etag'] && cold.headers['x-cal-total']);
      const warm = await t.request({ method: 'GET', url: `${url}&cold=1` });
      assert.equal(warm.headers['etag'], cold.headers['etag']);
      assert.ok(warm.body.endsWith('END:VCALENDAR\r\n'));

      await t.request({
        method: 'POST',
        url: `${EVENTS}/${ev['utc']!['id']}`,
        auth: editor.authorization,
        payload: { title: 'In UTC (moved)' },
      });
      const changed = await t.request({ method: 'GET', url, headers: { 'if-none-match': etag } });
      assert.equal(changed.statusCode, 200);
      assert.notEqual(changed.headers['etag'], etag);
      assert.ok(parseFeed(changed.body).events.some((e) => text(e, 'summary') === 'In UTC (moved)'));
      // Another caller's view has its own tag.
      const asEditor = await feed(WINDOW, editor.authorization);
      assert.notEqual(asEditor.headers['etag'], changed.headers['etag']);
    });

    it('should refuse bad input with the JSON error body', async () => {
      for (const [query, param] of [
        ['format=xml', 'format'],
        ['format=ical&start_date=not a date', 'start_date'],
        ['format=ical&categories=no-such-category', 'categories'],
        ['format=ical&per_page=0', 'per_page'],
        ['format=ical&geoloc_lat=48', 'geoloc_lng'],
      ] as const) {
        const res = await t.request({ method: 'GET', url: `${EVENTS}?${query}` });
        assert.equal(res.statusCode, 400, query);
        assert.match(String(res.headers['content-type']), /^application\/json/, query);
        assert.equal(res.data.code, 'rest_invalid_param', query);
        assert.ok(param in res.data.data.params, `${query}: ${res.body}`);
      }
      const single = await t.request({ method: 'GET', url: `${EVENTS}/${ev['rich']!['id']}?format=vcs` });
      assert.equal(single.statusCode, 400);
      assert.equal(single.data.code, 'rest_invalid_param');
    });

    it('should serve one event as iCalendar by id and by slug, with the read checks of the JSON', async () => {
      const rich = ev['rich']!;
      for (const url of [
        `${EVENTS}/${rich['id']}?format=ical`,
        `${EVENTS}/by-slug/${encodeURIComponent(rich['slug'])}`,
      ]) {
        const res = await t.request({ method: 'GET', url, headers: { accept: 'text/calendar' } });
        assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
        assert.equal(res.headers['content-type'], 'text/calendar; charset=utf-8');
        assert.ok(res.headers['etag']);
        const { calendar, events } = parseFeed(res.body);
        assert.equal(events.length, 1);
        assert.equal(unescape(text(calendar, 'name')), rich['title']);
        assert.equal(text(events[0]!, 'uid'), rich['global_id']);
        assert.equal(instant(events[0]!, 'dtstart'), rich['utc_start_date']);
        assert.equal(calendar.getAllSubcomponents('vtimezone').length, 1);
        const again = await t.request({
          method: 'GET',
          url,
          headers: { accept: 'text/calendar', 'if-none-match': String(res.headers['etag']) },
        });
        assert.equal(again.statusCode, 304);
      }
      const missing = await t.request({ method: 'GET', url: `${EVENTS}/999999?format=ical` });
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.data.code, 'rest-event-not-found');
      assert.equal(missing.headers['etag'], undefined, 'an error carries no entity tag');
      const privateRead = await t.request({ method: 'GET', url: `${EVENTS}/${ev['private']!['id']}?format=ical` });
      assert.equal(privateRead.statusCode, 403);
      assert.equal(privateRead.data.code, 'event-not-accessible');
      const locked = await t.request({ method: 'GET', url: `${EVENTS}/${ev['protected']!['id']}?format=ical` });
      assert.equal(locked.statusCode, 403);
      assert.equal(locked.data.code, 'event-password-protected');
      const unlocked = await t.request({
        method: 'GET',
        url: `${EVENTS}/${ev['protected']!['id']}?format=ical&password=open-sesame`,
      });
      assert.equal(text(parseFeed(unlocked.body).events[0]!, 'description'), 'Only for the initiated');
      const trashed = await t.request({ method: 'GET', url: `${EVENTS}/${ev['cancelled']!['id']}?format=ical` });
      assert.equal(trashed.statusCode, 403);
      assert.equal(trashed.data.code, 'event-no-longer-available');
    });

    it('should raise SEQUENCE with every update', async () => {
      const url = `${EVENTS}/${ev['afterEuDst']!['id']}?format=ical`;
      const sequence = async () =>
        Number(parseFeed((await t.request({ method: 'GET', url })).body).events[0]!.getFirstPropertyValue('sequence'));
      const before = await sequence();
      await t.request({
        method: 'POST',
        url: `${EVENTS}/${ev['afterEuDst']!['id']}`,
        auth: editor.authorization,
        payload: { excerpt: 'One' },
      });
      const middle = await sequence();
      await t.request({
        method: 'POST',
        url: `${EVENTS}/${ev['afterEuDst']!['id']}`,
        auth: editor.authorization,
        payload: { excerpt: 'Two' },
      });
      const last = await sequence();
      assert.ok(before < middle && middle < last, `${before} < ${middle} < ${last}`);
    });
  });

  describe(`calendar feeds: size limit [${backend}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend, { CAL_FEED_MAX_EVENTS: '3' });
      const editor = await t.asUser('editor');
      for (const offset of [-20, -2, 1, 3, 40, 200]) {
        const res = await t.request({
          method: 'POST',
          url: EVENTS,
          auth: editor.authorization,
          payload: {
            title: `Day ${offset}`,
            start_date: `${day(offset)} 12:00:00`,
            end_date: `${day(offset)} 13:00:00`,
          },
        });
        assert.equal(res.statusCode, 201, res.body);
      }
    });
    after(() => t.close());

    it('should keep the events nearest to today and say how many matched', async () => {
      const res = await t.request({ method: 'GET', url: `${EVENTS}?format=ical` });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-cal-total'], '6');
      assert.deepEqual(
        parseFeed(res.body).events.map((e) => text(e, 'summary')),
        ['Day -2', 'Day 1', 'Day 3'],
      );
      const small = await t.request({ method: 'GET', url: `${EVENTS}?format=ical&start_date=${day(30)}` });
      assert.equal(small.headers['x-cal-total'], '2');
      assert.deepEqual(
        parseFeed(small.body).events.map((e) => text(e, 'summary')),
        ['Day 40', 'Day 200'],
      );
    });
  });
}
