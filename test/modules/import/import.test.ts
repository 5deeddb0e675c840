import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { seed } from '../../../bench/seed.js';
import fs from 'node:fs';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';
import { runImport, ImportStopped, type ImportOptions } from '../../../src/modules/import/import.service.js';
import { SourceError } from '../../../src/modules/import/import.source-http.js';
import { readDataVersion } from '../../../src/db/data-version.js';
import type { ImportReport } from '../../../src/modules/import/import.report.js';

const NS = '/cal/events/v1';
/** Every source here is a server on 127.0.0.1, which imports reach only when private addresses are allowed. */
const PRIVATE_OK = { CAL_IMPORT_ALLOW_PRIVATE: '1' };
// Real responses captured from the original plugin (copied from the reference samples, so a clone alone passes).
const SAMPLES = new URL('../../fixtures/samples/', import.meta.url);

/** The user and application password of a Basic header. */
function credentials(authorization: string): { user: string; password: string } {
  const [user, password] = Buffer.from(authorization.slice(6), 'base64').toString().split(':') as [string, string];
  return { user, password };
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const total = (report: ImportReport, kind: string, field: 'created' | 'updated' | 'unchanged' | 'skipped' | 'gone') =>
  Object.values(report.counts[kind] ?? {}).reduce((n, c) => n + c[field], 0);

for (const backend of backends()) {
  describe(`import [${backend}]`, () => {
    let source: TestApp;
    let sourceUrl: string;
    let sourceAdmin: string;
    const ids: Record<string, number> = {};

    async function post(url: string, body: Record<string, unknown>): Promise<any> {
      const res = await source.request({ method: 'POST', url, payload: body, auth: sourceAdmin });
      assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`);
      return res.data;
    }

    async function target(): Promise<{
      t: TestApp;
      admin: { id: number; authorization: string };
      run: (options: ImportOptions, stopAfter?: number) => Promise<ImportReport>;
    }> {
      const t = await createTestApp(backend, PRIVATE_OK);
      const admin = await t.asUser('administrator', 'importer');
      const run = async (options: ImportOptions, stopAfter?: number) => {
        let writes = 0;
        return runImport(
          {
            app: t.app,
            actor: { id: admin.id, username: 'importer', role: 'administrator' },
            author: null,
            stopped: () => stopAfter !== undefined && writes++ >= stopAfter,
          },
          options,
        );
      };
      return { t, admin, run };
    }

    before(async () => {
      source = await createTestApp(backend);
      sourceUrl = `${await source.app.listen({ port: 0, host: '127.0.0.1' })}/`;
      sourceAdmin = (await source.asUser('administrator', 'siteadmin')).authorization;
      ids['music'] = (await post(`${NS}/categories`, { name: 'Music', description: 'All music' })).id;
      ids['jazz'] = (await post(`${NS}/categories`, { name: 'Jazz', parent: ids['music'] })).id;
      ids['musique'] = (await post(`/fr${NS}/categories`, { name: 'Musique', translation_of: ids['music'] })).id;
      ids['jazzFr'] = (
        await post(`/fr${NS}/categories`, {
          name: 'Jazz FR',
          slug: 'jazz',
          parent: ids['musique'],
          translation_of: ids['jazz'],
        })
      ).id;
      ids['musica'] = (await post(`/it${NS}/categories`, { name: 'Musica', translation_of: ids['music'] })).id;
      ids['outdoor'] = (await post(`${NS}/tags`, { name: 'outdoor' })).id;
      ids['venue'] = (
        await post(`${NS}/venues`, {
          venue: 'Town Hall',
          address: '1 Main St',
          city: 'Springfield',
          country: 'USA',
          province: 'Ontario',
          zip: '12345',
          phone: '555-0100',
          website: 'https://hall.example.org',
          show_map: true,
          show_map_link: true,
          description: '<p>The hall.</p>',
        })
      ).id;
      ids['venueFr'] = (
        await post(`/fr${NS}/venues`, {
          venue: 'Mairie',
          address: '1 rue Principale',
          city: 'Springfield',
          translation_of: ids['venue'],
        })
      ).id;
      ids['organizer'] = (
        await post(`${NS}/organizers`, {
          organizer: 'Jazz Club',
          email: 'club@example.org',
          phone: '555-0199',
          website: 'https://club.example.org',
        })
      ).id;
      ids['draftVenue'] = (await post(`${NS}/venues`, { venue: 'Secret Cellar', status: 'draft' })).id;
      const full = {
        description: '<p>An evening of <strong>jazz</strong>.</p>',
        excerpt: '<p>Jazz night</p>',
        start_date: '2027-03-14 19:00:00',
        end_date: '2027-03-14 21:30:00',
        timezone: 'Europe/Paris',
        cost: '€15',
        website: 'https://tickets.example.org/spring',
        featured: true,
        sticky: true,
        show_map: true,
        show_map_link: true,
        image: 'https://images.example.org/concert.jpg',
      };
      ids['concert'] = (
        await post(`${NS}/events`, {
          title: 'Spring Concert',
          ...full,
          venue: ids['venue'],
          organizer: [ids['organizer']],
          categories: [ids['jazz']],
          tags: [ids['outdoor']],
        })
      ).id;
      ids['concertFr'] = (
        await post(`/fr${NS}/events`, {
          title: 'Concert de printemps',
          ...full,
          venue: ids['venueFr'],
          categories: [ids['jazzFr']],
          translation_of: ids['concert'],
        })
      ).id;
      ids['concertIt'] = (
        await post(`/it${NS}/events`, {
          title: 'Concerto di primavera',
          start_date: full.start_date,
          end_date: full.end_date,
          timezone: 'Europe/Rome',
          categories: [ids['musica']],
          translation_of: ids['concert'],
        })
      ).id;
      ids['fair'] = (
        await post(`${NS}/events`, {
          title: 'County Fair',
          all_day: true,
          start_date: '2027-06-01',
          end_date: '2027-06-01',
          hide_from_listings: true,
        })
      ).id;
      ids['festival'] = (
        await post(`${NS}/events`, {
          title: 'Three-day Festival',
          start_date: '2027-07-01 10:00:00',
          end_date: '2027-07-03 22:00:00',
          venue: ids['draftVenue'],
        })
      ).id;
      ids['draft'] = (
        await post(`${NS}/events`, {
          title: 'Draft Event',
          status: 'draft',
          start_date: '2027-08-01 10:00:00',
          end_date: '2027-08-01 11:00:00',
        })
      ).id;
      ids['past'] = (
        await post(`${NS}/events`, {
          title: 'Old Event',
          start_date: '2019-05-01 10:00:00',
          end_date: '2019-05-01 11:00:00',
        })
      ).id;
      ids['trashed'] = (
        await post(`${NS}/events`, {
          title: 'Trashed Event',
          start_date: '2027-09-01 10:00:00',
          end_date: '2027-09-01 11:00:00',
        })
      ).id;
      assert.equal(
        (await source.request({ method: 'DELETE', url: `${NS}/events/${ids['trashed']}`, auth: sourceAdmin }))
          .statusCode,
        200,
      );
    });

    after(async () => source.close());

    /** An event of the target by its slug in a language, as an administrator reads it. */
    async function eventBySlug(t: TestApp, auth: string, lang: string, slug: string): Promise<any> {
      const res = await t.request({ method: 'GET', url: `${NS}/events/by-slug/${slug}?i18n_language=${lang}`, auth });
      assert.equal(res.statusCode, 200, `${lang} ${slug}: ${res.body}`);
      return res.data;
    }

    it('copies every kind in every language with its fields, links, statuses and translations, and a second run changes nothing', async () => {
      const { t, admin, run } = await target();
      try {
        const report = await run({ from: sourceUrl, ...credentials(sourceAdmin) });
        assert.equal(
          total(report, 'event', 'created'),
          7,
          JSON.stringify(report.skipped.slice(0, 4)) + JSON.stringify(report.counts.event),
        );
        assert.equal(total(report, 'category', 'created'), 5);
        assert.equal(total(report, 'venue', 'created'), 3);
        assert.deepEqual(report.skipped, []);
        const auth = admin.authorization;
        const concert = await eventBySlug(t, auth, 'en', 'spring-concert');
        const original = (
          await source.request({ method: 'GET', url: `${NS}/events/${ids['concert']}`, auth: sourceAdmin })
        ).data;
        for (const field of [
          'title',
          'description',
          'excerpt',
          'start_date',
          'end_date',
          'utc_start_date',
          'timezone',
          'all_day',
          'cost',
          'website',
          'featured',
          'sticky',
          'show_map',
          'show_map_link',
          'hide_from_listings',
          'status',
          'slug',
        ]) {
          assert.deepEqual(concert[field], original[field], field);
        }
        assert.equal(concert.image.url, 'https://images.example.org/concert.jpg');
        assert.equal(concert.cost_details.currency_symbol, '€');
        assert.equal(concert.venue.venue, 'Town Hall');
        for (const field of ['address', 'city', 'country', 'province', 'zip', 'phone', 'website'])
          assert.equal(concert.venue[field], original.venue[field], `venue ${field}`);
        assert.equal(concert.organizer[0].email, 'club@example.org');
        assert.deepEqual(
          concert.categories.map((c: any) => c.slug),
          ['jazz'],
        );
        assert.deepEqual(
          concert.tags.map((c: any) => c.name),
          ['outdoor'],
        );
        // Translations linked as in the source, each language with its own records.
        const fr = await eventBySlug(t, auth, 'fr', 'concert-de-printemps');
        const it = await eventBySlug(t, auth, 'it', 'concerto-di-primavera');
        assert.deepEqual(concert.translations, { en: concert.id, fr: fr.id, it: it.id });
        assert.equal(fr.venue.venue, 'Mairie');
        assert.equal(it.timezone, 'Europe/Rome');
        const venueFr = (await t.request({ method: 'GET', url: `${NS}/venues/${fr.venue.id}`, auth })).data;
        assert.deepEqual(venueFr.translations, { en: concert.venue.id, fr: fr.venue.id });
        // The category tree, per language.
        const jazz = (await t.request({ method: 'GET', url: `${NS}/categories/${concert.categories[0].id}`, auth }))
          .data;
        const music = (await t.request({ method: 'GET', url: `${NS}/categories/${jazz.parent}`, auth })).data;
        assert.equal(music.name, 'Music');
        assert.equal(music.description, 'All music');
        const jazzFr = (await t.request({ method: 'GET', url: `${NS}/categories/${fr.categories[0].id}`, auth })).data;
        assert.equal(
          (await t.request({ method: 'GET', url: `${NS}/categories/${jazzFr.parent}`, auth })).data.name,
          'Musique',
        );
        // All-day, multi-day, hidden, draft, past; the trashed one stays behind.
        const fair = await eventBySlug(t, auth, 'en', 'county-fair');
        assert.equal(fair.all_day, true);
        assert.equal(fair.hide_from_listings, true);
        assert.equal((await eventBySlug(t, auth, 'en', 'three-day-festival')).end_date, '2027-07-03 22:00:00');
        assert.equal((await eventBySlug(t, auth, 'en', 'three-day-festival')).venue.status, 'draft');
        assert.equal((await eventBySlug(t, auth, 'en', 'draft-event')).status, 'draft');
        await eventBySlug(t, auth, 'en', 'old-event');
        assert.equal(
          (await t.request({ method: 'GET', url: `${NS}/events/by-slug/trashed-event`, auth })).statusCode,
          404,
        );

        const version = await readDataVersion(t.storage.db);
        const again = await run({ from: sourceUrl, ...credentials(sourceAdmin) });
        for (const kind of ['category', 'tag', 'venue', 'organizer', 'event']) {
          assert.equal(
            total(again, kind, 'created') + total(again, kind, 'updated'),
            0,
            `${kind}: ${JSON.stringify(again.counts[kind])}`,
          );
        }
        assert.equal(total(again, 'event', 'unchanged'), 7);
        assert.equal(await readDataVersion(t.storage.db), version, 'nothing written');

        // A change at the source is an update; a record gone is reported, then trashed with --prune.
        await source.request({
          method: 'POST',
          url: `${NS}/events/${ids['fair']}`,
          payload: { title: 'County Fair 2027' },
          auth: sourceAdmin,
        });
        await source.request({ method: 'DELETE', url: `${NS}/events/${ids['past']}`, auth: sourceAdmin });
        const third = await run({ from: sourceUrl, ...credentials(sourceAdmin) });
        assert.equal(total(third, 'event', 'updated'), 1);
        assert.equal(total(third, 'event', 'created'), 0);
        assert.equal(
          (await t.request({ method: 'GET', url: `${NS}/events/${fair.id}`, auth })).data.title,
          'County Fair 2027',
        );
        assert.equal(third.gone.length, 1);
        assert.equal(third.gone[0]!.pruned, false);
        const old = await eventBySlug(t, auth, 'en', 'old-event');
        assert.equal(old.status, 'publish', 'kept without --prune');
        const pruned = await run({ from: sourceUrl, ...credentials(sourceAdmin), prune: true });
        assert.equal(pruned.gone[0]!.pruned, true);
        assert.equal(
          (await t.request({ method: 'GET', url: `${NS}/events/${old.id}`, auth })).data.code,
          'event-no-longer-available',
          'in the trash',
        );
        await source.request({
          method: 'POST',
          url: `${NS}/events/${ids['past']}`,
          payload: { status: 'publish' },
          auth: sourceAdmin,
        });
      } finally {
        await t.close();
      }
    });

    it('reads only published records without credentials, and restricts languages and dates', async () => {
      const { t, admin, run } = await target();
      try {
        const report = await run({ from: sourceUrl, languages: ['en', 'fr'], since: '2027-01-01' });
        assert.deepEqual(Object.keys(report.counts['event'] ?? {}).sort(), ['en', 'fr']);
        const titles = (
          await t.request({
            method: 'GET',
            url: `${NS}/events?status=publish,draft&start_date=1900-01-01&end_date=2999-01-01&per_page=50`,
            auth: admin.authorization,
          })
        ).data.events.map((e: any) => e.title);
        assert.ok(!titles.includes('Draft Event'));
        assert.ok(!titles.includes('Old Event'), '--since');
        assert.ok(titles.includes('Spring Concert'));
        // The festival's venue is a draft the anonymous reader never saw: the event comes without it.
        assert.ok(report.missing_links.some((m) => m.links.includes(`venue ${ids['draftVenue']}`)));
      } finally {
        await t.close();
      }
    });

    it('resumes an interrupted run without creating anything twice', async () => {
      const { t, admin, run } = await target();
      try {
        await assert.rejects(run({ from: sourceUrl, ...credentials(sourceAdmin) }, 9), ImportStopped);
        const mapped = async () =>
          Number(
            (
              await t.storage.db
                .selectFrom('import_map')
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
        const before = await mapped();
        assert.ok(before >= 9 && before < 17, `stopped part way: ${before}`);
        const resumed = await run({ from: sourceUrl, ...credentials(sourceAdmin) });
        const created = ['category', 'tag', 'venue', 'organizer', 'event'].reduce(
          (n, k) => n + total(resumed, k, 'created'),
          0,
        );
        assert.equal(created, 17 - before, JSON.stringify(resumed.counts));
        assert.equal(await mapped(), 17);
        const events = await t.request({
          method: 'GET',
          url: `${NS}/events?status=publish,draft&include_hidden=1&start_date=1900-01-01&end_date=2999-01-01&per_page=50`,
          auth: admin.authorization,
        });
        assert.equal(events.data.total, 5, 'en events once each');
      } finally {
        await t.close();
      }
    });

    it("imports the original plugin's real responses", async () => {
      const list = JSON.parse(fs.readFileSync(new URL('events-list-page1-per_page50.json', SAMPLES), 'utf8'));
      const single = JSON.parse(fs.readFileSync(new URL('event-single-500.json', SAMPLES), 'utf8'));
      // Page 2 in the same shape: the single event's capture.
      const pages = [list.events, [single]];
      const unique = (items: any[]) => [...new Map(items.map((i) => [i.id, i])).values()];
      const all = pages.flat();
      const lists: Record<string, any[]> = {
        venues: unique(all.map((e: any) => e.venue).filter((v: any) => v && v.id)),
        organizers: unique(all.flatMap((e: any) => e.organizer)),
        categories: unique(all.flatMap((e: any) => e.categories)),
        tags: unique(all.flatMap((e: any) => e.tags)),
      };
      const server = http.createServer((req, res) => {
        const url = new URL(req.url!, 'http://x');
        const send = (status: number, body: unknown) =>
          res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
        if (url.pathname === '/wp-json/')
          return send(200, { name: 'Site', namespaces: ['oembed/1.0', 'tribe/events/v1', 'wp/v2'] });
        const match = /^\/wp-json\/tribe\/events\/v1\/(events|venues|organizers|categories|tags)$/.exec(url.pathname);
        if (!match)
          return send(404, {
            code: 'rest_no_route',
            message: 'No route was found matching the URL and request method.',
            data: { status: 404 },
          });
        const page = Number(url.searchParams.get('page') ?? 1);
        if (match[1] === 'events')
          return send(200, { events: pages[page - 1] ?? [], total: all.length, total_pages: pages.length });
        return send(200, { [match[1]!]: lists[match[1]!], total: lists[match[1]!]!.length, total_pages: 1 });
      });
      const base = await listen(server);
      const { t, admin, run } = await target();
      try {
        const report = await run({ from: `${base}/wp-json/` });
        assert.equal(total(report, 'event', 'created'), 51, JSON.stringify(report.skipped.slice(0, 3)));
        assert.equal(total(report, 'venue', 'created'), lists['venues']!.length);
        const event = await eventBySlug(t, admin.authorization, 'en', single.slug);
        for (const field of [
          'title',
          'description',
          'start_date',
          'end_date',
          'timezone',
          'cost',
          'website',
          'show_map',
        ])
          assert.deepEqual(event[field], single[field], field);
        assert.equal(event.venue.venue, single.venue.venue);
        assert.deepEqual(event.tags.map((x: any) => x.slug).sort(), single.tags.map((x: any) => x.slug).sort());
        assert.equal(event.organizer[0].organizer, single.organizer[0].organizer);
        const again = await run({ from: `${base}/wp-json/` });
        assert.equal(total(again, 'event', 'unchanged'), 51);
      } finally {
        await t.close();
        server.close();
      }
    });

    it('resumes after kill -9 of the command in the middle, and a second run creates nothing', async () => {
      const big = await createTestApp(backend);
      const bigAdmin = await big.asUser('administrator', 'bigadmin');
      await seed(big.storage.db, 400, bigAdmin.id);
      const bigUrl = `${await big.app.listen({ port: 0, host: '127.0.0.1' })}/`;
      const { t } = await target();
      const env = {
        ...process.env,
        LOG_LEVEL: 'silent',
        ...PRIVATE_OK,
        ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : { DATA_DIR: t.config.dataDir }),
      };
      const root = fileURLToPath(new URL('../../../', import.meta.url));
      const cli = (killAt: number | null) =>
        new Promise<{ code: number | null; signal: string | null; stdout: string }>((resolve) => {
          const child = spawn(
            process.execPath,
            [
              '--import',
              'tsx',
              'src/cli.ts',
              'import',
              '--from',
              bigUrl,
              ...Object.values(credentials(bigAdmin.authorization)).flatMap((v, i) => [
                i === 0 ? '--user' : '--password',
                v,
              ]),
            ],
            { cwd: root, env },
          );
          let stdout = '';
          child.stdout.on('data', (chunk) => (stdout += chunk));
          child.stderr.on('data', (chunk: Buffer) => {
            // Non-TTY progress: one JSON line per 100 records of a kind.
            if (killAt !== null && chunk.toString().includes(`"kind":"event","done":${killAt}`)) child.kill('SIGKILL');
          });
          child.on('exit', (code, signal) => resolve({ code, signal, stdout }));
        });
      try {
        const killed = await cli(200);
        assert.equal(killed.signal, 'SIGKILL');
        const count = async (table: 'events' | 'import_map') =>
          Number(
            (
              await t.storage.db
                .selectFrom(table)
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
        const half = await count('events');
        assert.ok(half >= 200 && half < 400, `killed part way: ${half} events`);
        assert.equal(await count('import_map'), half + 15 + 15 + 200 + 100, 'every record written has its map row');
        const resumed = await cli(null);
        assert.equal(resumed.code, 0, resumed.stdout);
        assert.match(resumed.stdout, /event\s+en\s+\d+\s+0\s+\d+\s+0\s+0/);
        assert.equal(await count('events'), 400, 'nothing twice');
        const again = await cli(null);
        assert.match(again.stdout, /event\s+en\s+0\s+0\s+400\s+0\s+0/);
        assert.equal(await count('events'), 400);
      } finally {
        await t.close();
        await big.close();
      }
    });

    it('runs as an admin route, one at a time, with progress and report, never showing the password', async () => {
      const { t, admin } = await target();
      try {
        const { user, password } = credentials(sourceAdmin);
        const editor = await t.asUser('editor');
        assert.equal(
          (
            await t.request({
              method: 'POST',
              url: '/cal/admin/v1/imports',
              payload: { from: sourceUrl },
              auth: editor.authorization,
            })
          ).statusCode,
          403,
        );
        assert.equal(
          (
            await t.request({
              method: 'POST',
              url: '/cal/admin/v1/imports',
              payload: { ics: '/etc/passwd' },
              auth: admin.authorization,
            })
          ).statusCode,
          400,
        );
        const started = await t.request({
          method: 'POST',
          url: '/cal/admin/v1/imports',
          payload: { from: sourceUrl, user, password },
          auth: admin.authorization,
        });
        assert.equal(started.statusCode, 202, started.body);
        assert.ok(!started.body.includes(password));
        const second = await t.request({
          method: 'POST',
          url: '/cal/admin/v1/imports',
          payload: { from: sourceUrl },
          auth: admin.authorization,
        });
        assert.equal(second.statusCode, 409);
        assert.equal(second.data.code, 'rest_import_running');
        let job = started.data;
        for (let i = 0; i < 200 && job.status === 'running'; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          job = (
            await t.request({
              method: 'GET',
              url: `/cal/admin/v1/imports/${started.data.id}`,
              auth: admin.authorization,
            })
          ).data;
        }
        assert.equal(job.status, 'done', JSON.stringify(job));
        assert.equal(job.progress.event.done, 7);
        assert.equal(total(job.report, 'event', 'created'), 7);
        assert.equal(job.options.password, '(set)');
        const list = await t.request({ method: 'GET', url: '/cal/admin/v1/imports', auth: admin.authorization });
        assert.equal(list.data[0].id, job.id);
        assert.ok(!list.body.includes(password));
      } finally {
        await t.close();
      }
    });

    it('imports iCalendar feeds from a file and a URL, idempotently, sanitized, with skips and warnings', async () => {
      const dir = fileURLToPath(new URL('../../fixtures/ics/', import.meta.url));
      const server = http.createServer((req, res) =>
        res.writeHead(200, { 'content-type': 'text/calendar' }).end(fs.readFileSync(`${dir}google-export.ics`)),
      );
      const base = await listen(server);
      const { t, admin, run } = await target();
      try {
        const outlook = await run({ ics: `${dir}outlook-export.ics`, category: 'Office' });
        assert.equal(total(outlook, 'event', 'created'), 2);
        const planning = await eventBySlug(t, admin.authorization, 'en', 'quartalsplanung');
        assert.equal(planning.timezone, 'Europe/Berlin');
        assert.equal(planning.start_date, '2027-04-20 10:00:00');
        assert.ok(!planning.description.includes('<script'), 'sanitized as any write');
        assert.match(planning.description, /<b>planning<\/b>/);
        assert.deepEqual(
          planning.categories.map((c: any) => c.name),
          ['Office'],
        );
        assert.equal(planning.venue.venue, 'Konferenzraum 3');
        const again = await run({ ics: `${dir}outlook-export.ics`, category: 'Office' });
        assert.equal(total(again, 'event', 'unchanged'), 2);
        assert.equal(total(again, 'event', 'created'), 0);

        const series = await run({ ics: `${dir}series.ics`, language: 'fr' });
        assert.equal(
          total(series, 'event', 'skipped'),
          1,
          'the cancelled event (the one without SUMMARY is "(untitled)")',
        );
        assert.ok(Object.keys(series.counts['event'] ?? {}).every((lang) => lang === 'fr'));
        // The weekly series came in as a series (see the next test).
        assert.match(
          (await eventBySlug(t, admin.authorization, 'fr', 'weekly-standup')).recurrence.rrule,
          /FREQ=WEEKLY/,
        );
        const seriesAgain = await run({ ics: `${dir}series.ics`, language: 'fr' });
        assert.equal(total(seriesAgain, 'event', 'created'), 0, 'a second run creates nothing');

        const google = await run({ ics: `${base}/calendar.ics` });
        assert.equal(total(google, 'event', 'created'), 2);
        assert.equal(total(google, 'organizer', 'created'), 1);
        const jam = await eventBySlug(t, admin.authorization, 'en', 'jam-session-spring-edition');
        assert.equal(jam.organizer[0].email, 'jazz.society@example.org');
        assert.equal(jam.utc_start_date, '2027-03-14 18:00:00');
        await assert.rejects(
          run({ ics: `${dir}not-a-calendar.html` }),
          (e: Error) => e instanceof SourceError && /Not an iCalendar file/.test(e.message),
        );
      } finally {
        await t.close();
        server.close();
      }
    });

    it('imports an iCalendar series as a series and its overrides as its exceptions, idempotently', async () => {
      const fixture = fs.readFileSync(fileURLToPath(new URL('../../fixtures/ics/series.ics', import.meta.url)), 'utf8');
      const file = `${fs.mkdtempSync(`${os.tmpdir()}/ics-series-`)}/series.ics`;
      const { t, admin, run } = await target();
      const auth = admin.authorization;
      const occurrencesOf = async (id: number) =>
        (
          await t.request({
            method: 'GET',
            url: `${NS}/events?post_parent=${id}&start_date=2027-01-01&end_date=2027-12-31&status=publish,draft`,
            auth,
          })
        ).data.events.map((e: any) => [e.start_date, e.title, e.recurrence_id]);
      try {
        fs.writeFileSync(file, fixture);
        const first = await run({ ics: file, prune: true });
        assert.deepEqual(
          first.warnings.filter((w) => w.includes('Series')),
          [],
          'not expanded',
        );
        assert.equal(
          total(first, 'event', 'created'),
          4,
          'the series, the tentative event, the moved occurrence, the event without SUMMARY',
        );
        const standup = await eventBySlug(t, auth, 'en', 'weekly-standup');
        assert.equal(standup.start_date, '2027-03-02 09:00:00');
        assert.equal(standup.timezone, 'America/New_York');
        assert.match(standup.recurrence.rrule, /^(?=.*FREQ=WEEKLY)(?=.*BYDAY=TU)(?=.*COUNT=6)/);
        assert.deepEqual(standup.recurrence.rdates, ['2027-04-01 14:00:00']);
        assert.deepEqual(
          standup.recurrence.exdates,
          ['2027-03-16 09:00:00', '2027-04-06 09:00:00'],
          'the EXDATE and the cancelled override',
        );
        assert.deepEqual(await occurrencesOf(standup.id), [
          ['2027-03-09 09:00:00', 'Weekly standup', '2027-03-09 09:00:00'],
          ['2027-03-23 11:00:00', 'Weekly standup (moved)', '2027-03-23 09:00:00'],
          ['2027-03-30 09:00:00', 'Weekly standup', '2027-03-30 09:00:00'],
          ['2027-04-01 14:00:00', 'Weekly standup', '2027-04-01 14:00:00'],
        ]);
        const moved = standup.recurrence.exceptions;
        assert.equal(moved.length, 1, 'the override made its occurrence an exception');
        assert.equal(moved[0].recurrence_id, '2027-03-23 09:00:00');

        const again = await run({ ics: file, prune: true });
        assert.equal(
          total(again, 'event', 'created') + total(again, 'event', 'updated') + total(again, 'event', 'gone'),
          0,
          JSON.stringify(again.counts),
        );

        // The source renames the override and cancels another occurrence: the same exception is updated, that date excluded.
        fs.writeFileSync(
          file,
          fixture
            .replace('SUMMARY:Weekly standup (moved)', 'SUMMARY:Weekly standup (moved again)')
            .replace('RECURRENCE-ID:20270406T130000Z', 'RECURRENCE-ID:20270330T130000Z')
            .replace('DTSTART;TZID=America/New_York:20270406T090000', 'DTSTART;TZID=America/New_York:20270330T090000'),
        );
        const third = await run({ ics: file, prune: true });
        assert.equal(total(third, 'event', 'created'), 0);
        const after3 = await occurrencesOf(standup.id);
        assert.deepEqual(after3, [
          ['2027-03-09 09:00:00', 'Weekly standup', '2027-03-09 09:00:00'],
          ['2027-03-23 11:00:00', 'Weekly standup (moved again)', '2027-03-23 09:00:00'],
          ['2027-04-01 14:00:00', 'Weekly standup', '2027-04-01 14:00:00'],
          ['2027-04-06 09:00:00', 'Weekly standup', '2027-04-06 09:00:00'],
        ]);
        assert.equal(
          (await eventBySlug(t, auth, 'en', 'weekly-standup')).recurrence.exceptions[0].id,
          moved[0].id,
          'the same occurrence',
        );

        // The override leaves the source: reported, and its occurrence kept (never pruned on its own).
        fs.writeFileSync(
          file,
          fixture.replace(
            /BEGIN:VEVENT\r?\nUID:weekly-standup@example.org\r?\nDTSTAMP:20270101T000000Z\r?\nRECURRENCE-ID;TZID[\s\S]*?END:VEVENT\r?\n/,
            '',
          ),
        );
        const fourth = await run({ ics: file, prune: true });
        assert.deepEqual(
          fourth.gone.map((g) => [g.sourceId, g.pruned]),
          [['override:weekly-standup@example.org@20270323T090000', false]],
        );
        assert.ok((await occurrencesOf(standup.id)).some((o: string[]) => o[1] === 'Weekly standup (moved again)'));
        const fifth = await run({ ics: file, prune: true });
        assert.equal(fifth.gone.length, 0, 'reported once');
      } finally {
        await t.close();
      }
    });

    it('says in one line what is wrong with a source', async () => {
      const server = http.createServer((req, res) => {
        if (req.url!.startsWith('/html'))
          return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>Welcome</p>');
        if (req.url!.startsWith('/other'))
          return res
            .writeHead(200, { 'content-type': 'application/json' })
            .end('{"namespaces":["wp/v2","oembed/1.0"]}');
        if (req.url!.startsWith('/cut'))
          return res.writeHead(200, { 'content-type': 'application/json' }).end('{"namespaces":["tribe/ev');
        return res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"rest_forbidden"}');
      });
      const base = await listen(server);
      const { t, run } = await target();
      try {
        await assert.rejects(
          run({ from: `${base}/html/` }),
          (e: Error) => e instanceof SourceError && /answered HTML/.test(e.message),
        );
        await assert.rejects(
          run({ from: `${base}/other/` }),
          (e: Error) => e instanceof SourceError && /wp\/v2, oembed\/1\.0/.test(e.message),
        );
        await assert.rejects(
          run({ from: `${base}/cut/` }),
          (e: Error) => e instanceof SourceError && /does not parse/.test(e.message),
        );
        await assert.rejects(
          run({ from: `${base}/private/`, user: 'u', password: 'secret-password' }),
          (e: Error) =>
            e instanceof SourceError &&
            /refused the credentials/.test(e.message) &&
            !e.message.includes('secret-password'),
        );
      } finally {
        await t.close();
        server.close();
      }
    });
  });
}
