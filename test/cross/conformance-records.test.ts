import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backends, createTestApp, type TestApp } from '../helpers/app.js';

/**
 * Conformance with the original plugin's REST acceptance tests (tests/restv1/*Cest.php of
 * the-events-calendar) for venues, organizers, categories, tags, discovery and authorization,
 * translated into our names (cal/events/v1, X-Cal-*, cal_events_cat) and SPEC.md's decisions.
 * Clients of the original post forms as often as JSON, so most writes here are form-encoded.
 */

const API = '/cal/events/v1';
const SITE = 'http://localhost:80';
const BASE = `${SITE}${API}`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let counter = 0;
const uniq = (): string => `u${process.pid}x${(counter += 1)}z`;

/** PHP-style form encoding: arrays as `name[]=`. */
function form(data: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (Array.isArray(value))
      for (const v of value) parts.push(`${encodeURIComponent(key)}%5B%5D=${encodeURIComponent(String(v))}`);
    else parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  }
  return parts.join('&');
}

const query = (data: Record<string, unknown>): string => form(data);

/** `Y-m-d H:i:s` of an instant in UTC (the test site's time zone). */
const ymdhis = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** Tomorrow 9:00 in a zone given by its offset from UTC in hours (enough for a fixed test). */
function tomorrowNineAt(offsetHours: number): number {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 9 - offsetHours, 0, 0);
}

/**
 * The original's namespace index (reference/samples/namespace-index.json), reduced to what a client
 * reads: each route's methods, whether it has a self link, and each endpoint's arguments (`!` = required).
 */
const ORIGINAL_ROUTES: Record<string, { methods: string; self: boolean; endpoints: [string, string][] }> = {
  '/': { methods: 'GET', self: true, endpoints: [['GET', 'namespace context']] },
  '/doc': { methods: 'GET', self: true, endpoints: [['GET', '']] },
  '/events': {
    methods: 'GET,POST',
    self: true,
    endpoints: [
      [
        'GET',
        'page per_page start_date end_date starts_before starts_after ends_before ends_after strict_dates search categories tags venue organizer featured status geoloc geoloc_lat geoloc_lng include post_parent ticketed',
      ],
      [
        'POST',
        'author date date_utc title! description slug excerpt status timezone all_day start_date! end_date! image cost website show_map show_map_link hide_from_listings sticky featured categories tags venue organizer',
      ],
    ],
  },
  '/events/(?P<id>\\d+)': {
    methods: 'GET,DELETE,POST,PUT,PATCH',
    self: false,
    endpoints: [
      ['GET', 'id! password'],
      ['DELETE', 'id! password'],
      [
        'POST,PUT,PATCH',
        'id! password author date date_utc title description slug excerpt status timezone all_day start_date end_date image cost website show_map show_map_link hide_from_listings sticky featured categories tags venue organizer',
      ],
    ],
  },
  '/events/by-slug/(?P<slug>[^/]+)': {
    methods: 'GET,DELETE,POST,PUT,PATCH',
    self: false,
    endpoints: [
      ['GET', 'slug!'],
      ['DELETE', 'slug!'],
      [
        'POST,PUT,PATCH',
        'slug author date date_utc title description excerpt status timezone all_day start_date end_date image cost website show_map show_map_link hide_from_listings sticky featured categories tags venue organizer',
      ],
    ],
  },
  '/venues': {
    methods: 'GET,POST',
    self: true,
    endpoints: [
      ['GET', 'page per_page search event has_events only_with_upcoming status'],
      [
        'POST',
        'author date date_utc venue! description status show_map show_map_link address city country province state zip phone stateprovince website image',
      ],
    ],
  },
  '/venues/(?P<id>\\d+)': {
    methods: 'GET,DELETE,POST,PUT,PATCH',
    self: false,
    endpoints: [
      ['GET', 'id!'],
      ['DELETE', 'id!'],
      [
        'POST,PUT,PATCH',
        'id! author date date_utc venue description status show_map show_map_link address city country province state zip phone stateprovince website image',
      ],
    ],
  },
  '/venues/by-slug/(?P<slug>[^/]+)': {
    methods: 'GET,DELETE,POST,PUT,PATCH',
    self: false,
    endpoints: [
      ['GET', 'slug!'],
      ['DELETE', 'slug!'],
      [
        'POST,PUT,PATCH',
        'slug! author date date_utc venue description status show_map show_map_link address city country province state zip phone stateprovince website image',
      ],
    ],
  },
  '/organizers': {
    methods: 'GET,POST',
    self: true,
    endpoints: [
      ['GET', 'page per_page search event has_events only_with_upcoming status'],
      ['POST', 'author date date_utc organizer! description status phone website email image'],
    ],
  },
  '/organizers/(?P<id>\\d+)': {
    methods: 'GET,DELETE,POST,PUT,PATCH',
    self: false,
    endpoints: [
      ['GET', 'id!'],
      ['DELETE', 'id!'],
      ['POST,PUT,PATCH', 'id! author date date_utc organizer description status phone website email image'],
    ],
  },
  '/organizers/by-slug/(?P<slug>[^/]+)': {
    methods: 'GET,DELETE,POST,PUT,PATCH',
    self: false,
    endpoints: [
      ['GET', 'slug!'],
      ['DELETE', 'slug!'],
      ['POST,PUT,PATCH', 'slug! author date date_utc organizer description status phone website email image'],
    ],
  },
  '/categories': {
    methods: 'GET,POST',
    self: true,
    endpoints: [
      ['GET', 'page per_page search exclude include order orderby hide_empty parent post event slug'],
      ['POST', 'name! description slug parent'],
    ],
  },
  '/categories/(?P<id>\\d+)': {
    methods: 'GET,POST,PUT,PATCH,DELETE',
    self: false,
    endpoints: [
      ['GET', 'id!'],
      ['POST,PUT,PATCH', 'id! name description slug parent'],
      ['DELETE', 'id!'],
    ],
  },
  '/tags': {
    methods: 'GET,POST',
    self: true,
    endpoints: [
      ['GET', 'page per_page search exclude include order orderby hide_empty post event slug'],
      ['POST', 'name! description slug'],
    ],
  },
  '/tags/(?P<id>\\d+)': {
    methods: 'GET,POST,PUT,PATCH,DELETE',
    self: false,
    endpoints: [
      ['GET', 'id!'],
      ['POST,PUT,PATCH', 'id! name description slug'],
      ['DELETE', 'id!'],
    ],
  },
};

/** Paths and methods of the original's /doc (reference/samples/doc.json), `/doc` itself aside. */
const ORIGINAL_DOC_PATHS: Record<string, string[]> = {
  '/events': ['get'],
  '/events/{id}': ['get', 'post', 'delete'],
  '/events/by-slug/{slug}': ['get', 'post', 'delete'],
  '/venues': ['get'],
  '/venues/{id}': ['get', 'post', 'delete'],
  '/venues/by-slug/{slug}': ['get', 'post', 'delete'],
  '/organizers': ['get'],
  '/organizers/{id}': ['get', 'post', 'delete'],
  '/organizers/by-slug/{slug}': ['get', 'post', 'delete'],
  '/categories': ['get'],
  '/categories/{id}': ['get', 'post', 'delete'],
  '/tags': ['get'],
  '/tags/{id}': ['get', 'post', 'delete'],
};

interface Ctx {
  t: TestApp;
  admin: string;
  adminId: number;
  editor: string;
  editorId: number;
  author: string;
  contributor: string;
  contributorId: number;
  subscriber: string;
}

async function setup(backend: Parameters<typeof createTestApp>[0]): Promise<Ctx> {
  const t = await createTestApp(backend);
  const admin = await t.asUser('administrator');
  const editor = await t.asUser('editor');
  const author = await t.asUser('author');
  const contributor = await t.asUser('contributor');
  const subscriber = await t.asUser('subscriber');
  return {
    t,
    admin: admin.authorization,
    adminId: admin.id,
    editor: editor.authorization,
    editorId: editor.id,
    author: author.authorization,
    contributor: contributor.authorization,
    contributorId: contributor.id,
    subscriber: subscriber.authorization,
  };
}

/** A fresh service for one test that counts records. */
async function withFresh(backend: Parameters<typeof createTestApp>[0], fn: (c: Ctx) => Promise<void>): Promise<void> {
  const c = await setup(backend);
  try {
    await fn(c);
  } finally {
    await c.t.close();
  }
}

const postForm = (
  c: Ctx,
  url: string,
  data: Record<string, unknown>,
  auth: string | undefined,
  method: 'POST' | 'PUT' | 'PATCH' = 'POST',
) => c.t.request({ method, url, auth, headers: FORM, payload: form(data) });

const get = (c: Ctx, url: string, auth?: string) => c.t.request({ method: 'GET', url, auth });

async function createOk(c: Ctx, route: string, data: Record<string, unknown>, auth = c.admin): Promise<any> {
  const res = await postForm(c, `${API}/${route}`, data, auth);
  assert.equal(res.statusCode, 201, res.body);
  return res.data;
}

/** An event made through the API (JSON), with its links. */
async function makeEvent(c: Ctx, extra: Record<string, unknown> = {}, when = '+1 month'): Promise<number> {
  const start = when === '+1 month' ? new Date(Date.now() + 30 * 86400_000) : new Date(Date.now() - 30 * 86400_000);
  const end = new Date(start.getTime() + 3600_000);
  const res = await c.t.request({
    method: 'POST',
    url: `${API}/events`,
    auth: c.admin,
    payload: {
      title: `Event ${uniq()}`,
      start_date: ymdhis(start.getTime()),
      end_date: ymdhis(end.getTime()),
      status: 'publish',
      ...extra,
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.data.id;
}

for (const backend of backends()) {
  describe(`conformance with the original's REST tests: records [${backend}]`, () => {
    let c: Ctx;
    before(async () => {
      c = await setup(backend);
    });
    after(() => c.t.close());

    for (const kind of ['venues', 'organizers'] as const) {
      const name = kind === 'venues' ? 'venue' : 'organizer';
      const label = kind === 'venues' ? 'Venue' : 'Organizer';

      describe(`${label}Insertion (form-encoded POST ${API}/${kind})`, () => {
        it(`should answer 401 rest_forbidden to an anonymous create`, async () => {
          const res = await postForm(c, `${API}/${kind}`, { [name]: 'A thing' }, undefined);
          assert.equal(res.statusCode, 401, res.body);
          assert.equal(res.data.code, 'rest_forbidden');
        });

        it('should create from a form with just the name', async () => {
          const n = `A ${name} ${uniq()}`;
          const data = await createOk(c, kind, { [name]: n });
          assert.equal(data[name], n);
          assert.equal(typeof data.id, 'number');
          assert.equal(data.status, 'publish');
        });

        it('should take author, UNIX-timestamp dates, description and status from a form', async () => {
          const dateMs = tomorrowNineAt(-5);
          const utcMs = tomorrowNineAt(0);
          const data = await createOk(c, kind, {
            [name]: `A ${name} ${uniq()}`,
            author: c.editorId,
            date: Math.floor(dateMs / 1000),
            date_utc: Math.floor(utcMs / 1000),
            description: `${label} description`,
            status: 'draft',
          });
          assert.equal(data.author, String(c.editorId));
          assert.equal(data.date, ymdhis(dateMs));
          assert.equal(data.date_utc, ymdhis(utcMs));
          assert.equal(data.description, `<p>${label} description</p>`);
          assert.equal(data.status, 'draft');
        });

        it('should refuse an empty name with 400', async () => {
          const res = await postForm(c, `${API}/${kind}`, { [name]: '' }, c.admin);
          assert.equal(res.statusCode, 400, res.body);
          assert.equal(res.data.code, 'rest_invalid_param');
        });

        for (const [field, value] of [
          ['author', 999999],
          ['author', 'foo'],
          ['date', 'foo'],
          ['date_utc', 'foo'],
          ['status', 'kinda_thinking_about_it'],
        ] as const) {
          it(`should refuse ${field}=${value} with 400 rest_invalid_param naming it (form and JSON)`, async () => {
            const viaForm = await postForm(
              c,
              `${API}/${kind}`,
              { [name]: `A ${name} ${uniq()}`, [field]: value },
              c.admin,
            );
            assert.equal(viaForm.statusCode, 400, viaForm.body);
            assert.equal(viaForm.data.code, 'rest_invalid_param');
            assert.ok(field in viaForm.data.data.params, viaForm.body);
            const viaJson = await c.t.request({
              method: 'POST',
              url: `${API}/${kind}`,
              auth: c.admin,
              payload: { [name]: `A ${name} ${uniq()}`, [field]: value },
            });
            assert.equal(viaJson.statusCode, 400, viaJson.body);
          });
        }

        it('should take the image as the id of a known image, sent as a form string', async () => {
          const url = `https://img.example.com/${uniq()}.jpg`;
          const first = await createOk(c, kind, { [name]: `A ${name} ${uniq()}`, image: url });
          assert.equal(typeof first.image.id, 'number');
          assert.equal(first.image.url, url);
          const byId = await createOk(c, kind, { [name]: `A ${name} ${uniq()}`, image: first.image.id });
          assert.equal(byId.image.id, first.image.id);
          const byUrl = await createOk(c, kind, { [name]: `A ${name} ${uniq()}`, image: url });
          assert.equal(byUrl.image.id, first.image.id);
        });
      });

      describe(`${label}Update (form-encoded POST ${API}/${kind}/{id})`, () => {
        const fresh = async () =>
          (
            await createOk(c, kind, {
              [name]: `Old ${uniq()}`,
              ...(kind === 'venues'
                ? { city: 'Old city', phone: '123', website: 'http://old.example.com' }
                : { email: 'old@example.com', phone: '123', website: 'http://old.example.com' }),
            })
          ).id as number;

        it('should answer 401 to an anonymous update', async () => {
          const id = await fresh();
          const res = await postForm(c, `${API}/${kind}/${id}`, { [name]: 'A thing' }, undefined);
          assert.equal(res.statusCode, 401, res.body);
        });

        it('should update the name from a form, with POST, PUT and PATCH', async () => {
          const id = await fresh();
          for (const method of ['POST', 'PUT', 'PATCH'] as const) {
            const n = `New ${method} ${uniq()}`;
            const res = await postForm(c, `${API}/${kind}/${id}`, { [name]: n }, c.admin, method);
            assert.equal(res.statusCode, 200, res.body);
            assert.equal(res.data[name], n);
            assert.equal(res.data.id, id);
          }
        });

        it('should update author, dates, description and status, accepting a timezone field', async () => {
          const id = await fresh();
          const dateMs = tomorrowNineAt(0);
          const res = await postForm(
            c,
            `${API}/${kind}/${id}`,
            {
              [name]: 'Renamed',
              author: c.editorId,
              date: Math.floor(dateMs / 1000),
              date_utc: Math.floor(dateMs / 1000),
              description: `${label} description`,
              status: 'draft',
              timezone: 'America/New_York',
            },
            c.admin,
          );
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.data.author, String(c.editorId));
          assert.equal(res.data.date, ymdhis(dateMs));
          assert.equal(res.data.date_utc, ymdhis(dateMs));
          assert.equal(res.data.description, `<p>${label} description</p>`);
          assert.equal(res.data.status, 'draft');
        });

        it('should refuse an empty name on update', async () => {
          const id = await fresh();
          const res = await postForm(c, `${API}/${kind}/${id}`, { [name]: '' }, c.admin);
          assert.equal(res.statusCode, 400, res.body);
        });

        for (const [field, value] of [
          ['author', 999999],
          ['author', 'foo'],
          ['date', 'foo'],
          ['date_utc', 'foo'],
          ['status', 'kinda_thinking_about_it'],
        ] as const) {
          it(`should refuse ${field}=${value} on update with 400 and change nothing`, async () => {
            const id = await fresh();
            const before = await get(c, `${API}/${kind}/${id}`);
            const res = await postForm(c, `${API}/${kind}/${id}`, { [name]: 'Changed?', [field]: value }, c.admin);
            assert.equal(res.statusCode, 400, res.body);
            assert.equal(res.data.code, 'rest_invalid_param');
            const afterRead = await get(c, `${API}/${kind}/${id}`);
            assert.equal(afterRead.data[name], before.data[name]);
          });
        }

        it('should drop the keys of fields emptied by a form and keep the others (partial update)', async () => {
          const id = await fresh();
          const emptied =
            kind === 'venues'
              ? {
                  address: '',
                  city: '',
                  country: '',
                  province: '',
                  state: '',
                  zip: '',
                  phone: '',
                  stateprovince: '',
                  website: '',
                  show_map: 'false',
                  show_map_link: 'false',
                }
              : { email: '', phone: '', website: '' };
          const res = await postForm(c, `${API}/${kind}/${id}`, { [name]: 'Emptied', ...emptied }, c.admin);
          assert.equal(res.statusCode, 200, res.body);
          for (const key of Object.keys(emptied).filter((k) => !k.startsWith('show_map')))
            assert.ok(!(key in res.data), `${key} should be left out`);
          if (kind === 'venues') {
            assert.equal(res.data.show_map, false);
            assert.equal(res.data.show_map_link, false);
          }
          const other = await fresh();
          const kept = await postForm(c, `${API}/${kind}/${other}`, { [name]: 'Name only' }, c.admin);
          assert.equal(kept.statusCode, 200);
          assert.equal(kept.data.phone, '123');
          assert.equal(kept.data.website, 'http://old.example.com');
        });

        it('should allow renaming a record to the name of another (no de-duplication on update)', async () => {
          const one = await createOk(c, kind, { [name]: `Same ${uniq()}` });
          const two = await fresh();
          const res = await postForm(c, `${API}/${kind}/${two}`, { [name]: one[name] }, c.admin);
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.data.id, two);
          assert.equal((await get(c, `${API}/${kind}/${one.id}`)).data[name], one[name]);
        });

        it('should set the image by id from a form on update', async () => {
          const url = `https://img.example.com/${uniq()}.png`;
          const withImage = await createOk(c, kind, { [name]: `Img ${uniq()}`, image: url });
          const id = await fresh();
          const res = await postForm(
            c,
            `${API}/${kind}/${id}`,
            { [name]: 'With image', image: withImage.image.id },
            c.admin,
          );
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.data.image.id, withImage.image.id);
        });
      });

      describe(`${label}Deletion (DELETE ${API}/${kind}/{id})`, () => {
        it('should answer 404 for an unknown id even without credentials (the id is validated before the permission check)', async () => {
          const res = await c.t.request({ method: 'DELETE', url: `${API}/${kind}/999999` });
          assert.equal(res.statusCode, 404, res.body);
          assert.equal(res.data.code, `rest-${name}-not-found`);
          const update = await postForm(c, `${API}/${kind}/999999`, { [name]: 'x' }, undefined);
          assert.equal(update.statusCode, 404, update.body);
        });

        it('should let editors read a trashed record (status trash) and answer 403 not-accessible to anonymous readers', async () => {
          const { id } = await createOk(c, kind, { [name]: `Trashed ${uniq()}` });
          assert.equal(
            (await c.t.request({ method: 'DELETE', url: `${API}/${kind}/${id}`, auth: c.admin })).statusCode,
            200,
          );
          const anonymous = await get(c, `${API}/${kind}/${id}`);
          assert.equal(anonymous.statusCode, 403, anonymous.body);
          assert.equal(anonymous.data.code, `${name}-not-accessible`);
          const editor = await get(c, `${API}/${kind}/${id}`, c.editor);
          assert.equal(editor.statusCode, 200, editor.body);
          assert.equal(editor.data.status, 'trash');
        });

        it('should update and delete by slug from a form', async () => {
          const data = await createOk(c, kind, { [name]: `Slugged ${uniq()}` });
          const upd = await postForm(c, `${API}/${kind}/by-slug/${data.slug}`, { [name]: 'Renamed by slug' }, c.admin);
          assert.equal(upd.statusCode, 200, upd.body);
          assert.equal(upd.data.id, data.id);
          assert.equal(upd.data[name], 'Renamed by slug');
          const del = await c.t.request({
            method: 'DELETE',
            url: `${API}/${kind}/by-slug/${data.slug}`,
            auth: c.admin,
          });
          assert.equal(del.statusCode, 200, del.body);
          assert.equal(del.data.status, 'trash');
        });

        it('should answer 401 to an anonymous delete of an existing record', async () => {
          const { id } = await createOk(c, kind, { [name]: `Del ${uniq()}` });
          const res = await c.t.request({ method: 'DELETE', url: `${API}/${kind}/${id}` });
          assert.equal(res.statusCode, 401, res.body);
        });

        it('should trash with 200 (accepting force=true), then answer 410 on a second delete', async () => {
          const { id } = await createOk(c, kind, { [name]: `Del ${uniq()}` });
          const res = await c.t.request({ method: 'DELETE', url: `${API}/${kind}/${id}?force=true`, auth: c.admin });
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.data.id, id);
          assert.equal(res.data.status, 'trash');
          const again = await c.t.request({ method: 'DELETE', url: `${API}/${kind}/${id}`, auth: c.admin });
          assert.equal(again.statusCode, 410, again.body);
          assert.equal(again.data.code, `${name}-is-in-trash`);
        });

        it('should unlink the trashed record from its events', async () => {
          const { id } = await createOk(c, kind, { [name]: `Linked ${uniq()}` });
          const eventId = await makeEvent(c, kind === 'venues' ? { venue: id } : { organizer: [id] });
          const res = await c.t.request({ method: 'DELETE', url: `${API}/${kind}/${id}`, auth: c.admin });
          assert.equal(res.statusCode, 200, res.body);
          const event = await get(c, `${API}/events/${eventId}`);
          assert.deepEqual(event.data[name], []);
        });
      });

      describe(`${label}Single and ${label}SingleSlug (GET ${API}/${kind}/…)`, () => {
        const KEYS =
          kind === 'venues'
            ? [
                'author',
                'status',
                'date',
                'date_utc',
                'modified',
                'modified_utc',
                'url',
                'venue',
                'description',
                'excerpt',
                'show_map',
                'show_map_link',
                'address',
                'city',
                'country',
                'province',
                'state',
                'zip',
                'phone',
                'website',
                'stateprovince',
                'global_id',
                'global_id_lineage',
                'image',
                'json_ld',
              ]
            : [
                'author',
                'status',
                'date',
                'date_utc',
                'modified',
                'modified_utc',
                'url',
                'organizer',
                'description',
                'excerpt',
                'image',
                'phone',
                'website',
                'email',
                'global_id',
                'global_id_lineage',
                'json_ld',
              ];
        const full =
          kind === 'venues'
            ? {
                address: 'a',
                city: 'c',
                country: 'co',
                province: 'p',
                state: 's',
                zip: 'z',
                phone: '1',
                website: 'http://w.example.com',
                stateprovince: 'sp',
              }
            : { phone: '1', website: 'http://w.example.com', email: 'e@example.com' };

        it('should answer every key of a full record by id and by slug', async () => {
          const data = await createOk(c, kind, {
            [name]: `Full ${uniq()}`,
            description: 'D',
            excerpt: 'E',
            image: `https://img.example.com/${uniq()}.jpg`,
            ...full,
          });
          for (const url of [`${API}/${kind}/${data.id}`, `${API}/${kind}/by-slug/${data.slug}`]) {
            const res = await get(c, url);
            assert.equal(res.statusCode, 200, res.body);
            assert.equal(res.data.id, data.id);
            for (const key of KEYS) assert.ok(key in res.data, `${url}: ${key}`);
          }
        });

        it('should answer 404 rest_no_route for a non-numeric id', async () => {
          for (const bad of ['foo', 'foo%20bar', 'foo-bar']) {
            const res = await get(c, `${API}/${kind}/${bad}`);
            assert.equal(res.statusCode, 404, res.body);
            assert.equal(res.data.code, 'rest_no_route');
          }
        });

        it('should answer 404 for an unknown id or slug (SPEC 15)', async () => {
          const byId = await get(c, `${API}/${kind}/999999`);
          assert.equal(byId.statusCode, 404);
          assert.equal(byId.data.code, `rest-${name}-not-found`);
          const bySlug = await get(c, `${API}/${kind}/by-slug/non-existing-slug-${uniq()}`);
          assert.equal(bySlug.statusCode, 404);
          assert.equal(bySlug.data.code, `rest-${name}-not-found`);
        });

        it('should answer 403 for a draft to anonymous readers, and the record to an editor, by id and by slug', async () => {
          const data = await createOk(c, kind, { [name]: `Draft ${uniq()}`, status: 'draft' });
          assert.equal(data.status, 'draft');
          const slug = data.slug;
          for (const url of [`${API}/${kind}/${data.id}`, ...(slug ? [`${API}/${kind}/by-slug/${slug}`] : [])]) {
            const anonymous = await get(c, url);
            assert.equal(anonymous.statusCode, 403, anonymous.body);
            assert.equal(anonymous.data.code, `${name}-not-accessible`);
            const editor = await get(c, url, c.editor);
            assert.equal(editor.statusCode, 200, editor.body);
            assert.equal(editor.data.id, data.id);
          }
          assert.ok(slug, 'a draft venue or organizer gets a slug from its name');
        });
      });

      describe(`${label}Archive (GET ${API}/${kind})`, () => {
        it('should page, count and clamp, with totals in the body and the headers', async () => {
          await withFresh(backend, async (f) => {
            const ids: number[] = [];
            for (let i = 0; i < 10; i += 1)
              ids.push((await createOk(f, kind, { [name]: `${label} ${i} ${uniq()}` })).id);
            const first = await get(f, `${API}/${kind}?per_page=5`);
            assert.equal(first.statusCode, 200, first.body);
            assert.equal(first.data[kind].length, 5);
            assert.equal(first.data.total, 10);
            assert.equal(first.data.total_pages, 2);
            assert.equal(first.headers['x-cal-total'], '10');
            assert.equal(first.headers['x-cal-totalpages'], '2');
            const second = await get(f, `${API}/${kind}?per_page=5&page=2`);
            assert.equal(second.statusCode, 200);
            const all = [...first.data[kind], ...second.data[kind]]
              .map((v: { id: number }) => v.id)
              .sort((a, b) => a - b);
            assert.deepEqual(all, ids);
            const four = await get(f, `${API}/${kind}?per_page=4`);
            assert.equal(four.data.total_pages, 3);
            assert.equal(four.headers['x-cal-totalpages'], '3');
            const two = await get(f, `${API}/${kind}?per_page=2&page=2`);
            assert.equal(two.data[kind].length, 2);
            assert.equal(two.data.total_pages, 5);
            const past = await get(f, `${API}/${kind}?per_page=5&page=3`);
            assert.equal(past.statusCode, 404);
            assert.equal(past.data.code, `${name}-archive-page-not-found`);
          });
        });

        it('should clamp per_page=100 to 50', async () => {
          await withFresh(backend, async (f) => {
            for (let i = 0; i < 51; i += 1)
              await f.t.request({
                method: 'POST',
                url: `${API}/${kind}`,
                auth: f.admin,
                payload: { [name]: `${label} ${i}` },
              });
            const res = await get(f, `${API}/${kind}?per_page=100`);
            assert.equal(res.statusCode, 200);
            assert.equal(res.data[kind].length, 50);
            assert.equal(res.data.total, 51);
          });
        });

        it('should give rest_url, next_rest_url and previous_rest_url that a client can follow', async () => {
          await withFresh(backend, async (f) => {
            for (let i = 0; i < 9; i += 1) await createOk(f, kind, { [name]: `${label} ${i} ${uniq()}` });
            const root = await get(f, `${API}/${kind}`);
            assert.equal(root.data.rest_url.split('?')[0], `${BASE}/${kind}/`);
            assert.ok(!('next_rest_url' in root.data));
            const p1 = await get(f, `${API}/${kind}?per_page=3`);
            assert.ok(p1.data.next_rest_url, p1.body);
            assert.ok(!('previous_rest_url' in p1.data));
            assert.match(p1.data.next_rest_url, /[?&]page=2(&|$)/);
            const p2 = await get(f, p1.data.next_rest_url.replace(SITE, ''));
            assert.equal(p2.statusCode, 200, p2.body);
            assert.equal(p2.data[kind].length, 3);
            assert.ok(
              !/[?&]page=/.test(p2.data.previous_rest_url),
              `previous of page 2 has no page: ${p2.data.previous_rest_url}`,
            );
            const p3 = await get(f, p2.data.next_rest_url.replace(SITE, ''));
            assert.equal(p3.statusCode, 200, p3.body);
            assert.match(p3.data.previous_rest_url, /[?&]page=2(&|$)/);
            assert.ok(!('next_rest_url' in p3.data));
            const back = await get(f, p3.data.previous_rest_url.replace(SITE, ''));
            assert.equal(back.statusCode, 200, back.body);
            assert.deepEqual(
              back.data[kind].map((v: { id: number }) => v.id),
              p2.data[kind].map((v: { id: number }) => v.id),
            );
            const keys = Object.keys(p2.data);
            assert.deepEqual(keys, [kind, 'rest_url', 'next_rest_url', 'previous_rest_url', 'total', 'total_pages']);
          });
        });

        it('should answer 400 for a page or per_page that is not a positive integer', async () => {
          for (const param of ['page', 'per_page']) {
            for (const bad of ['foo', '-1', '0', 'foo bar']) {
              const res = await get(c, `${API}/${kind}?${query({ [param]: bad })}`);
              assert.equal(res.statusCode, 400, `${param}=${bad}: ${res.body}`);
              assert.equal(res.data.code, 'rest_invalid_param');
            }
          }
        });

        it('should hide drafts from anonymous readers (200, total 0) and show them to an editor', async () => {
          await withFresh(backend, async (f) => {
            for (let i = 0; i < 3; i += 1) await createOk(f, kind, { [name]: `Draft ${i}`, status: 'draft' });
            const anonymous = await get(f, `${API}/${kind}`);
            assert.equal(anonymous.statusCode, 200, anonymous.body);
            assert.equal(anonymous.data.total, 0);
            assert.deepEqual(anonymous.data[kind], []);
            assert.equal(anonymous.headers['x-cal-total'], '0');
            const editor = await get(f, `${API}/${kind}`, f.editor);
            assert.equal(editor.data[kind].length, 3);
          });
        });
      });

      describe(`${label}ArchiveSearch`, () => {
        it('should search title, description and excerpt; no match is 200 with total 0', async () => {
          await withFresh(backend, async (f) => {
            for (const i of [1, 2, 3])
              await createOk(f, kind, {
                [name]: `${label} ${i}`,
                description: `Content ${i}`,
                excerpt: `Excerpt ${i}`,
              });
            const none = await get(f, `${API}/${kind}?search=woo`);
            assert.equal(none.statusCode, 200, none.body);
            assert.equal(none.data.total, 0);
            for (const word of [label, 'Content', 'Excerpt']) {
              assert.equal((await get(f, `${API}/${kind}?${query({ search: word })}`)).data[kind].length, 3, word);
              assert.equal(
                (await get(f, `${API}/${kind}?${query({ search: `${word} 1` })}`)).data[kind].length,
                1,
                `${word} 1`,
              );
            }
          });
        });

        if (kind === 'organizers') {
          it('should search phone, email and website as substrings', async () => {
            await withFresh(backend, async (f) => {
              await createOk(f, kind, {
                organizer: 'Organizer Foo',
                phone: '111111111',
                email: 'one@common.com',
                website: 'http://one.com',
              });
              await createOk(f, kind, {
                organizer: 'Organizer Bar',
                phone: '111112222',
                email: 'two@common.com',
                website: 'http://two.com',
              });
              await createOk(f, kind, {
                organizer: 'Organizer Baz',
                phone: '222223333',
                email: 'three@three.com',
                website: 'http://three.com',
              });
              const expected: Record<string, number> = {
                '1111': 2,
                '111111111': 1,
                '222223333': 1,
                'three@three.com': 1,
                'common.com': 2,
                'http://one.com': 1,
                '@common.com': 2,
              };
              for (const [s, n] of Object.entries(expected)) {
                const res = await get(f, `${API}/${kind}?${query({ search: s })}`);
                assert.equal(res.statusCode, 200, res.body);
                assert.equal(res.data[kind].length, n, s);
              }
            });
          });
        }
      });

      describe(`${label}ByEvent, ${label}ByEmpty, ${label}ByUpcoming`, () => {
        const link = (id: number) => (kind === 'venues' ? { venue: id } : { organizer: [id] });

        it('should filter by event, 400 for an id that is no event, 200 empty for an event without one', async () => {
          await withFresh(backend, async (f) => {
            const a = await createOk(f, kind, { [name]: 'A' });
            const b = await createOk(f, kind, { [name]: 'B' });
            const ea = await makeEvent(f, link(a.id));
            const eb = await makeEvent(f, link(b.id));
            for (const [event, expected] of [
              [ea, a.id],
              [eb, b.id],
            ]) {
              const res = await get(f, `${API}/${kind}?event=${event}`);
              assert.equal(res.statusCode, 200, res.body);
              assert.deepEqual(
                res.data[kind].map((v: { id: number }) => v.id),
                [expected],
              );
            }
            const bad = await get(f, `${API}/${kind}?event=999999`);
            assert.equal(bad.statusCode, 400, bad.body);
            assert.equal(bad.data.code, 'rest_invalid_param');
            const bare = await makeEvent(f);
            const empty = await get(f, `${API}/${kind}?event=${bare}`);
            assert.equal(empty.statusCode, 200, empty.body);
            assert.equal(empty.data.total, 0);
            assert.equal(empty.data.total_pages, 0);
            assert.ok(!('next_rest_url' in empty.data) && !('previous_rest_url' in empty.data));
          });
        });

        it('should show a draft linked to an event to an editor only', async () => {
          await withFresh(backend, async (f) => {
            const draft = await createOk(f, kind, { [name]: 'Draft', status: 'draft' });
            const event = await makeEvent(f, link(draft.id));
            assert.equal((await get(f, `${API}/${kind}?event=${event}`)).data.total, 0);
            const editor = await get(f, `${API}/${kind}?event=${event}`, f.editor);
            assert.deepEqual(
              editor.data[kind].map((v: { id: number }) => v.id),
              [draft.id],
            );
          });
        });

        it('should filter has_events=true (draft and pending events not counting) and has_events=false as its complement', async () => {
          await withFresh(backend, async (f) => {
            const v = [] as number[];
            for (let i = 0; i < 4; i += 1) v.push((await createOk(f, kind, { [name]: `R${i}` })).id);
            await makeEvent(f, { ...link(v[0]!), status: 'draft' });
            await makeEvent(f, { ...link(v[1]!), status: 'pending' });
            await makeEvent(f, link(v[2]!));
            const yes = await get(f, `${API}/${kind}?has_events=true`);
            assert.equal(yes.statusCode, 200, yes.body);
            assert.deepEqual(
              yes.data[kind].map((x: { id: number }) => x.id),
              [v[2]],
            );
            const no = await get(f, `${API}/${kind}?has_events=false`);
            assert.deepEqual(
              no.data[kind].map((x: { id: number }) => x.id).sort((a: number, b: number) => a - b),
              [v[0], v[1], v[3]],
            );
          });
        });

        it('should filter only_with_upcoming, counting private, draft and pending events for an editor only', async () => {
          await withFresh(backend, async (f) => {
            const v = [] as number[];
            for (let i = 0; i < 6; i += 1) v.push((await createOk(f, kind, { [name]: `U${i}` })).id);
            await makeEvent(f, link(v[0]!));
            await makeEvent(f, link(v[1]!), '-1 month');
            await makeEvent(f, { ...link(v[2]!), status: 'private' });
            await makeEvent(f, { ...link(v[3]!), status: 'draft' });
            await makeEvent(f, { ...link(v[4]!), status: 'pending' });
            const ids = (res: { data: any }) =>
              res.data[kind].map((x: { id: number }) => x.id).sort((a: number, b: number) => a - b);
            const anonymous = await get(f, `${API}/${kind}?only_with_upcoming=true`);
            assert.equal(anonymous.statusCode, 200, anonymous.body);
            assert.deepEqual(ids(anonymous), [v[0]]);
            assert.deepEqual(ids(await get(f, `${API}/${kind}?only_with_upcoming=true`, f.editor)), [
              v[0],
              v[2],
              v[3],
              v[4],
            ]);
            assert.deepEqual(ids(await get(f, `${API}/${kind}?only_with_upcoming=false`)), v);
          });
        });
      });

      describe(`Authorization: ${kind}`, () => {
        it(`should refuse a contributor's update and delete of another user's ${name} with 403`, async () => {
          const { id } = await createOk(c, kind, { [name]: `Admin ${uniq()}` });
          const put = await postForm(c, `${API}/${kind}/${id}`, { [name]: 'Hacked' }, c.contributor, 'PUT');
          assert.equal(put.statusCode, 403, put.body);
          assert.equal(put.data.code, 'rest_forbidden');
          const del = await c.t.request({
            method: 'DELETE',
            url: `${API}/${kind}/${id}?force=true`,
            auth: c.contributor,
          });
          assert.equal(del.statusCode, 403, del.body);
          assert.equal((await get(c, `${API}/${kind}/${id}`)).data[name].startsWith('Admin'), true);
        });

        it(`should let a contributor create a ${name} (as draft) and edit and delete it while unpublished`, async () => {
          const data = await createOk(c, kind, { [name]: `Mine ${uniq()}` }, c.contributor);
          assert.equal(data.status, 'draft');
          const asked = await createOk(c, kind, { [name]: `Mine ${uniq()}`, status: 'publish' }, c.contributor);
          assert.equal(asked.status, 'pending');
          const put = await postForm(c, `${API}/${kind}/${data.id}`, { [name]: 'Mine, renamed' }, c.contributor, 'PUT');
          assert.equal(put.statusCode, 200, put.body);
          const del = await c.t.request({ method: 'DELETE', url: `${API}/${kind}/${data.id}`, auth: c.contributor });
          assert.equal(del.statusCode, 200, del.body);
        });

        it('should refuse a subscriber create with 403', async () => {
          const res = await postForm(c, `${API}/${kind}`, { [name]: 'Nope' }, c.subscriber);
          assert.equal(res.statusCode, 403, res.body);
          assert.equal(res.data.code, 'rest_forbidden');
        });
      });
    }

    describe('VenueInsertion: venue-only fields and de-duplication', () => {
      it('should store the optional fields sent as a form, show_map "false" included', async () => {
        const fields = {
          show_map: 'false',
          show_map_link: 'false',
          address: 'Venue address',
          city: 'Venue city',
          country: 'Venue country',
          province: 'Venue province',
          state: 'Venue state',
          zip: 'Venue zip',
          phone: 'Venue phone',
          stateprovince: 'Venue stateprovince',
          website: 'http://venue.com',
        };
        const data = await createOk(c, 'venues', { venue: `A venue ${uniq()}`, ...fields });
        const { show_map: _a, show_map_link: _b, ...strings } = fields;
        for (const [k, v] of Object.entries(strings)) assert.equal(data[k], v, k);
        assert.equal(data.show_map, false);
        assert.equal(data.show_map_link, false);
      });

      it('should return the same venue for identical fields, case-insensitively and for subsets', async () => {
        await withFresh(backend, async (f) => {
          const first = await createOk(f, 'venues', { venue: 'A venue', description: 'A venue description' });
          for (const payload of [
            { venue: 'A venue', description: 'A venue description' },
            { venue: 'A venue' },
            { venue: 'a venue', description: 'a venue description' },
          ]) {
            const again = await createOk(f, 'venues', payload);
            assert.equal(again.id, first.id, JSON.stringify(payload));
          }
        });
      });

      it('should return the same venue when the address fields match', async () => {
        await withFresh(backend, async (f) => {
          const full = {
            venue: 'A venue',
            description: 'A venue description',
            address: 'A venue address',
            city: 'A venue city',
            country: 'A venue country',
            province: 'A venue province',
            state: 'A venue state',
            stateprovince: 'A venue stateprovince',
            zip: 'A venue zip',
            phone: '11223344',
          };
          const first = await createOk(f, 'venues', full);
          const subsets = [
            full,
            {
              venue: 'a venue',
              country: 'a venue country',
              province: 'a venue province',
              state: 'a venue state',
              phone: '11223344',
            },
            { venue: 'a venue', description: 'a venue description', phone: '11223344' },
            {
              venue: 'a venue',
              description: 'a venue description',
              address: 'a venue address',
              city: 'a venue city',
              country: 'a venue country',
            },
          ];
          for (const payload of subsets)
            assert.equal((await createOk(f, 'venues', payload)).id, first.id, JSON.stringify(payload));
        });
      });
    });

    describe('OrganizerInsertion: organizer-only fields and de-duplication', () => {
      it('should store email, phone and website sent as a form', async () => {
        const data = await createOk(c, 'organizers', {
          organizer: `A organizer ${uniq()}`,
          email: 'john@company.com',
          phone: 'Organizer phone',
          website: 'http://organizer.com',
        });
        assert.equal(data.email, 'john@company.com');
        assert.equal(data.phone, 'Organizer phone');
        assert.equal(data.website, 'http://organizer.com');
      });

      it('should return the same organizer for identical fields, case-insensitively and for subsets', async () => {
        await withFresh(backend, async (f) => {
          const first = await createOk(f, 'organizers', {
            organizer: 'An organizer',
            description: 'An organizer description',
          });
          for (const payload of [
            { organizer: 'An organizer', description: 'An organizer description' },
            { organizer: 'An organizer' },
            { organizer: 'an organizer', description: 'an organizer description' },
          ]) {
            assert.equal((await createOk(f, 'organizers', payload)).id, first.id, JSON.stringify(payload));
          }
          const withMeta = await createOk(f, 'organizers', {
            organizer: 'A organizer',
            phone: '11223344',
            email: 'doe@anizer.org',
            website: 'http://anizer.org',
          });
          for (const payload of [
            { organizer: 'A organizer', phone: '11223344', email: 'doe@anizer.org', website: 'http://anizer.org' },
            { organizer: 'A organizer', email: 'doe@anizer.org', website: 'http://anizer.org' },
            { organizer: 'A organizer', phone: '11223344', website: 'http://anizer.org' },
            { organizer: 'A organizer', website: 'http://anizer.org' },
          ]) {
            assert.equal((await createOk(f, 'organizers', payload)).id, withMeta.id, JSON.stringify(payload));
          }
        });
      });
    });

    for (const route of ['categories', 'tags'] as const) {
      const hierarchical = route === 'categories';
      const taxonomy = hierarchical ? 'cal_events_cat' : 'post_tag';
      const pageUrl = (slug: string) => (hierarchical ? `${SITE}/events/category/${slug}/` : `${SITE}/tag/${slug}/`);

      describe(`${hierarchical ? 'Category' : 'Tag'}Insertion / Update / Deletion / Single (form-encoded)`, () => {
        it("should create from a form with the original's fields and urls", async () => {
          const parent = hierarchical ? (await createOk(c, route, { name: `parent ${uniq()}` }, c.editor)).id : null;
          const slug = `foo-bar-${uniq()}`;
          const data = await createOk(
            c,
            route,
            { name: `foo ${slug}`, description: 'Term description', slug, ...(parent ? { parent } : {}) },
            c.editor,
          );
          const expected: Record<string, unknown> = {
            id: data.id,
            name: `foo ${slug}`,
            count: 0,
            description: 'Term description',
            url: pageUrl(slug),
            slug,
            taxonomy,
            meta: [],
            urls: {
              self: `${BASE}/${route}/${data.id}`,
              collection: `${BASE}/${route}`,
              ...(parent ? { up: `${BASE}/${route}/${parent}` } : {}),
            },
          };
          if (parent) expected['parent'] = parent;
          for (const [k, v] of Object.entries(expected)) assert.deepEqual(data[k], v, k);
          if (!hierarchical) assert.ok(!('parent' in data));
        });

        it('should answer 401 to anonymous and 403 to a subscriber on create, update and delete', async () => {
          const { id } = await createOk(c, route, { name: `perm ${uniq()}` }, c.editor);
          const payload = { name: 'foo', description: 'Term description', slug: `x-${uniq()}` };
          const anonymous = await postForm(c, `${API}/${route}`, payload, undefined);
          assert.equal(anonymous.statusCode, 401, anonymous.body);
          for (const [method, url] of [
            ['POST', `${API}/${route}`],
            ['POST', `${API}/${route}/${id}`],
            ['DELETE', `${API}/${route}/${id}`],
          ] as const) {
            const res =
              method === 'DELETE'
                ? await c.t.request({ method, url, auth: c.subscriber })
                : await postForm(c, url, payload, c.subscriber);
            assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
            assert.equal(res.data.code, 'rest_forbidden');
          }
        });

        it(
          hierarchical
            ? 'should let an author manage categories'
            : 'should refuse tags to an author (403); editors manage them',
          async () => {
            const res = await postForm(c, `${API}/${route}`, { name: `by author ${uniq()}` }, c.author);
            assert.equal(res.statusCode, hierarchical ? 201 : 403, res.body);
          },
        );

        const badCreate: [string, string][] = hierarchical
          ? [
              ['name', ''],
              ['parent', ''],
              ['parent', '2389'],
              ['parent', 'foo'],
            ]
          : [['name', '']];
        for (const [field, value] of badCreate) {
          it(`should refuse ${field}="${value}" on create with 400 and create nothing`, async () => {
            const slug = `bad-${uniq()}`;
            const res = await postForm(
              c,
              `${API}/${route}`,
              { name: 'foo', description: 'Term description', slug, [field]: value },
              c.editor,
            );
            assert.equal(res.statusCode, 400, res.body);
            assert.equal(res.data.code, 'rest_invalid_param');
            const list = await get(c, `${API}/${route}?hide_empty=false&slug=${slug}`);
            assert.equal(list.data.total, 0);
          });
        }

        const badUpdate: [string, string][] = [
          ['name', ''],
          ['description', ''],
          ['slug', ''],
          ...(hierarchical
            ? ([
                ['parent', ''],
                ['parent', '2389'],
                ['parent', 'foo'],
              ] as [string, string][])
            : []),
        ];
        for (const [field, value] of badUpdate) {
          it(`should refuse ${field}="${value}" on update with 400 and change nothing`, async () => {
            const { id, name } = await createOk(c, route, { name: `old-foo ${uniq()}` }, c.editor);
            const res = await postForm(
              c,
              `${API}/${route}/${id}`,
              { name: 'foo', description: 'Term description', slug: `s-${uniq()}`, [field]: value },
              c.editor,
            );
            assert.equal(res.statusCode, 400, res.body);
            assert.equal(res.data.code, 'rest_invalid_param');
            assert.equal((await get(c, `${API}/${route}/${id}`)).data.name, name);
          });
        }

        it('should update from a form and answer the new state', async () => {
          const { id } = await createOk(c, route, { name: `old-foo ${uniq()}` }, c.editor);
          const parent = hierarchical ? (await createOk(c, route, { name: `p ${uniq()}` }, c.editor)).id : null;
          const slug = `foo-bar-${uniq()}`;
          const res = await postForm(
            c,
            `${API}/${route}/${id}`,
            { name: `foo ${slug}`, description: 'Term description', slug, ...(parent ? { parent } : {}) },
            c.editor,
          );
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.data.name, `foo ${slug}`);
          assert.equal(res.data.slug, slug);
          assert.equal(res.data.url, pageUrl(slug));
          assert.equal(res.data.description, 'Term description');
          if (parent) {
            assert.equal(res.data.parent, parent);
            assert.equal(res.data.urls.up, `${BASE}/${route}/${parent}`);
          }
        });

        it('should delete for good, answering the term as it was (count included), then 404', async () => {
          const parent = hierarchical ? (await createOk(c, route, { name: `p ${uniq()}` }, c.editor)).id : null;
          const slug = `del-${uniq()}`;
          const term = await createOk(
            c,
            route,
            { name: `foo ${slug}`, description: 'Term description', slug, ...(parent ? { parent } : {}) },
            c.editor,
          );
          for (let i = 0; i < 3; i += 1) await makeEvent(c, { [route]: [term.id] });
          const res = await c.t.request({ method: 'DELETE', url: `${API}/${route}/${term.id}`, auth: c.editor });
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.data.id, term.id);
          assert.equal(res.data.count, 3);
          assert.equal(res.data.slug, slug);
          assert.equal(res.data.url, pageUrl(slug));
          assert.deepEqual(res.data.meta, []);
          if (parent) assert.equal(res.data.urls.up, `${BASE}/${route}/${parent}`);
          assert.ok(!('_links' in res.data));
          const again = await c.t.request({ method: 'DELETE', url: `${API}/${route}/${term.id}`, auth: c.editor });
          assert.equal(again.statusCode, 404, again.body);
          assert.equal(again.data.code, 'rest_term_invalid');
        });

        it('should answer 404 rest_term_invalid for an unknown id before checking permissions', async () => {
          for (const auth of [c.editor, c.subscriber]) {
            for (const id of ['999999']) {
              const res = await c.t.request({ method: 'DELETE', url: `${API}/${route}/${id}`, auth });
              assert.equal(res.statusCode, 404, res.body);
              assert.equal(res.data.code, 'rest_term_invalid');
            }
          }
        });

        it("should read one term with the original's fields; 404 for an id of the other taxonomy, an unknown id or a non-numeric id", async () => {
          const slug = `single-${uniq()}`;
          const term = await createOk(
            c,
            route,
            { name: `foo ${slug}`, description: 'Term description', slug },
            c.editor,
          );
          const res = await get(c, `${API}/${route}/${term.id}`);
          assert.equal(res.statusCode, 200);
          for (const [k, v] of Object.entries({
            id: term.id,
            count: 0,
            description: 'Term description',
            url: pageUrl(slug),
            slug,
            taxonomy,
            meta: [],
          }))
            assert.deepEqual(res.data[k], v, k);
          assert.deepEqual(res.data.urls, { self: `${BASE}/${route}/${term.id}`, collection: `${BASE}/${route}` });
          const other = await createOk(c, hierarchical ? 'tags' : 'categories', { name: `other ${uniq()}` }, c.editor);
          for (const id of [other.id, 999999]) {
            const missing = await get(c, `${API}/${route}/${id}`);
            assert.equal(missing.statusCode, 404, missing.body);
            assert.equal(missing.data.code, 'rest_term_invalid');
          }
          for (const bad of ['foo', 'foo%20bar']) {
            const noRoute = await get(c, `${API}/${route}/${bad}`);
            assert.equal(noRoute.statusCode, 404);
            assert.equal(noRoute.data.code, 'rest_no_route');
          }
        });
      });

      describe(`${hierarchical ? 'Category' : 'Tag'}Archive (GET ${API}/${route})`, () => {
        it('should answer 200 with zero totals when the taxonomy is empty', async () => {
          await withFresh(backend, async (f) => {
            const res = await get(f, `${API}/${route}?hide_empty=false`);
            assert.equal(res.statusCode, 200, res.body);
            assert.equal(res.data.total, 0);
            assert.equal(res.data.total_pages, 0);
            assert.deepEqual(res.data[route], []);
            assert.equal(res.headers['x-cal-total'], '0');
          });
        });

        it("should page with totals, headers and the original's next/previous urls", async () => {
          await withFresh(backend, async (f) => {
            const ids: number[] = [];
            for (let i = 1; i <= 9; i += 1)
              ids.push((await createOk(f, route, { name: `Event Tag ${i}` }, f.editor)).id);
            const hidden = await get(f, `${API}/${route}`);
            assert.equal(hidden.data.total, 0, 'hide_empty defaults to true');
            const p = async (page: number) => get(f, `${API}/${route}?hide_empty=false&per_page=3&page=${page}`);
            const p1 = await p(1);
            assert.equal(p1.statusCode, 200);
            assert.deepEqual(Object.keys(p1.data), ['rest_url', 'total', 'total_pages', route, 'next_rest_url']);
            assert.equal(p1.data.rest_url, `${BASE}/${route}/`);
            assert.equal(p1.data.total, 9);
            assert.equal(p1.data.total_pages, 3);
            assert.equal(p1.headers['x-cal-total'], '9');
            assert.equal(p1.headers['x-cal-totalpages'], '3');
            assert.equal(p1.data.next_rest_url, `${BASE}/${route}/?page=2`);
            const p2 = await p(2);
            assert.equal(p2.data.previous_rest_url, `${BASE}/${route}/`);
            assert.equal(p2.data.next_rest_url, `${BASE}/${route}/?page=3`);
            const p3 = await p(3);
            assert.equal(p3.data.previous_rest_url, `${BASE}/${route}/?page=2`);
            assert.ok(!('next_rest_url' in p3.data));
            const seen = [...p1.data[route], ...p2.data[route], ...p3.data[route]]
              .map((x: { id: number }) => x.id)
              .sort((a, b) => a - b);
            assert.deepEqual(seen, ids);
            const past = await p(4);
            assert.equal(past.statusCode, 200);
            assert.deepEqual(past.data[route], []);
            const followed = await get(f, p1.data.next_rest_url.replace(SITE, ''));
            assert.equal(followed.statusCode, 200, followed.body);
          });
        });

        it('should search name or slug, include, exclude and filter by slug; unknown ids are 400', async () => {
          await withFresh(backend, async (f) => {
            const foo = await createOk(f, route, { name: 'Foo', slug: 'foo' }, f.editor);
            const bar = await createOk(f, route, { name: 'Bar', slug: 'bar' }, f.editor);
            await createOk(f, route, { name: 'Baz', slug: 'baz' }, f.editor);
            const one = await createOk(f, route, { name: 'One', slug: 'foo-bar' }, f.editor);
            const total = async (q: Record<string, unknown>) => {
              const res = await get(f, `${API}/${route}?${query({ hide_empty: 'false', per_page: 10, ...q })}`);
              assert.equal(res.statusCode, 200, res.body);
              return res.data.total;
            };
            assert.equal(await total({ search: 'foo' }), 2);
            assert.equal(await total({ search: 'bar' }), 2);
            assert.equal(await total({ search: 'zoot' }), 0);
            assert.equal(await total({ exclude: foo.id }), 3);
            assert.equal(await total({ exclude: [foo.id, bar.id] }), 2);
            assert.equal(await total({ exclude: `${foo.id},${bar.id}` }), 2);
            assert.equal(await total({ include: one.id }), 1);
            assert.equal(await total({ include: [foo.id, bar.id, one.id] }), 3);
            assert.equal(await total({ slug: 'bar' }), 1);
            assert.equal(await total({ slug: 'nope' }), 0);
            for (const q of [
              { exclude: [2389, 1235, 3434] },
              { include: [2389, 1235, 3434] },
              { slug: '' },
              { search: '' },
            ]) {
              const res = await get(f, `${API}/${route}?${query({ hide_empty: 'false', ...q })}`);
              assert.equal(res.statusCode, 400, `${JSON.stringify(q)}: ${res.body}`);
              assert.equal(res.data.code, 'rest_invalid_param');
            }
          });
        });

        it('should order by id and by name (case-insensitive); empty order or orderby is 400', async () => {
          await withFresh(backend, async (f) => {
            const b = (await createOk(f, route, { name: 'b' }, f.editor)).id;
            const a = (await createOk(f, route, { name: 'A' }, f.editor)).id;
            const cc = (await createOk(f, route, { name: 'C' }, f.editor)).id;
            const ids = async (q: Record<string, unknown>) =>
              (await get(f, `${API}/${route}?${query({ hide_empty: 'false', per_page: 10, ...q })}`)).data[route].map(
                (x: { id: number }) => x.id,
              );
            assert.deepEqual(await ids({ order: 'desc', orderby: 'id' }), [cc, a, b]);
            assert.deepEqual(await ids({ order: 'asc', orderby: 'id' }), [b, a, cc]);
            assert.deepEqual(await ids({ order: 'asc', orderby: 'name' }), [a, b, cc]);
            assert.deepEqual(await ids({ order: 'DESC', orderby: 'name' }), [cc, b, a]);
            for (const [order, orderby] of [
              ['', 'id'],
              ['desc', ''],
            ]) {
              const res = await get(f, `${API}/${route}?${query({ hide_empty: 'false', order, orderby })}`);
              assert.equal(res.statusCode, 400, `${order}/${orderby}: ${res.body}`);
            }
          });
        });

        it('should filter by post and by event (event wins); a bad post or event is 400', async () => {
          await withFresh(backend, async (f) => {
            const t1 = (await createOk(f, route, { name: 'b' }, f.editor)).id;
            const t2 = (await createOk(f, route, { name: 'A' }, f.editor)).id;
            const t3 = (await createOk(f, route, { name: 'C' }, f.editor)).id;
            await createOk(f, route, { name: 'D' }, f.editor);
            const e1 = await makeEvent(f, { [route]: [t1, t3] });
            const e2 = await makeEvent(f, { [route]: [t2] });
            const notAnEvent = (await createOk(f, 'venues', { venue: 'Not an event' })).id;
            const total = async (q: Record<string, unknown>) =>
              (await get(f, `${API}/${route}?${query({ hide_empty: 'false', per_page: 10, ...q })}`)).data.total;
            assert.equal(await total({ post: e1 }), 2);
            assert.equal(await total({ event: e1 }), 2);
            assert.equal(await total({ post: e1, event: e2 }), 1);
            for (const param of ['post', 'event']) {
              for (const bad of ['', '999999', 'foo', String(notAnEvent)]) {
                const res = await get(f, `${API}/${route}?${query({ hide_empty: 'false', [param]: bad })}`);
                assert.equal(res.statusCode, 400, `${param}=${bad}: ${res.body}`);
                assert.equal(res.data.code, 'rest_invalid_param');
              }
            }
          });
        });
      });
    }

    describe('CategoryArchive (GET /events?categories=…)', () => {
      it('should answer 400 for an unknown category, 200 empty for an unused one, and page through a category', async () => {
        await withFresh(backend, async (f) => {
          const unknown = await get(f, `${API}/events?${query({ categories: ['cat1'] })}`);
          assert.equal(unknown.statusCode, 400, unknown.body);
          assert.equal(unknown.data.code, 'rest_invalid_param');
          await createOk(f, 'categories', { name: 'cat1', slug: 'cat1' }, f.editor);
          const empty = await get(f, `${API}/events?${query({ categories: ['cat1'] })}`);
          assert.equal(empty.statusCode, 200, empty.body);
          assert.equal(empty.data.total, 0);
          for (let i = 0; i < 4; i += 1) await makeEvent(f, { categories: ['cat1'] });
          for (let i = 0; i < 4; i += 1) await makeEvent(f);
          const all = await get(f, `${API}/events?${query({ categories: ['cat1'] })}`);
          assert.equal(all.data.events.length, 4);
          const page2 = await get(f, `${API}/events?${query({ categories: ['cat1'], per_page: 3, page: 2 })}`);
          assert.equal(page2.statusCode, 200, page2.body);
          assert.equal(page2.data.events.length, 1);
        });
      });
    });

    describe('Discovery: GET /, GET /cal/events/v1, GET /cal/events/v1/doc', () => {
      const ours = (route: string) => (route === '/' ? API : `${API}${route}`);
      const sorted = (csv: string) => csv.split(',').sort().join();

      it('should list the namespace and every route of the original in the REST index', async () => {
        const res = await get(c, '/');
        assert.equal(res.statusCode, 200);
        assert.ok(res.data.namespaces.includes('cal/events/v1'));
        for (const route of Object.keys(ORIGINAL_ROUTES)) assert.ok(ours(route) in res.data.routes, route);
      });

      it('should describe every route of the original in the namespace index, with the same methods and arguments', async () => {
        const res = await get(c, API);
        assert.equal(res.statusCode, 200);
        assert.equal(res.data.namespace, 'cal/events/v1');
        assert.deepEqual(res.data._links, { up: [{ href: `${SITE}/` }] });
        for (const [route, spec] of Object.entries(ORIGINAL_ROUTES)) {
          const mine = res.data.routes[ours(route)];
          assert.ok(mine, `missing ${route}`);
          assert.equal(mine.namespace, 'cal/events/v1');
          assert.equal(sorted(mine.methods.join()), sorted(spec.methods), route);
          if (spec.self) assert.deepEqual(mine._links, { self: [{ href: `${SITE}${ours(route)}` }] }, route);
          else assert.ok(!('_links' in mine), route);
          for (const [methods, args] of spec.endpoints) {
            const match = mine.endpoints.find(
              (e: { methods: string[] }) => sorted(e.methods.join()) === sorted(methods),
            );
            assert.ok(match, `${route} ${methods}`);
            for (const arg of args.split(' ').filter(Boolean)) {
              const argName = arg.replace('!', '');
              assert.ok(argName in match.args, `${route} ${methods}: argument ${argName}`);
              assert.equal(match.args[argName].required, arg.endsWith('!'), `${route} ${methods}: ${argName}.required`);
            }
          }
        }
      });

      it('should serve an OpenAPI document with info, servers pointing at the namespace, and every path of the original', async () => {
        const res = await get(c, `${API}/doc`);
        assert.equal(res.statusCode, 200);
        for (const key of ['openapi', 'info', 'servers', 'components', 'paths']) assert.ok(key in res.data, key);
        for (const key of ['version', 'title', 'description']) assert.equal(typeof res.data.info[key], 'string', key);
        assert.equal(res.data.servers[0].url, `${BASE}/`);
        for (const [p, methods] of Object.entries(ORIGINAL_DOC_PATHS)) {
          assert.ok(res.data.paths[p], `path ${p}`);
          for (const method of methods) assert.ok(method in res.data.paths[p], `${method} ${p}`);
        }
      });
    });

    describe('Authentication', () => {
      it('should answer 401 invalid_username for an unknown user and incorrect_password for a wrong password (CONTRACT), never an anonymous read', async () => {
        const unknown = await c.t.request({
          method: 'GET',
          url: `${API}/venues`,
          auth: `Basic ${Buffer.from(`nobody${uniq()}:wrong`).toString('base64')}`,
        });
        assert.equal(unknown.statusCode, 401, unknown.body);
        const known = await c.t.asUser('editor', `known${uniq()}`);
        const username = Buffer.from(known.authorization.slice(6), 'base64').toString().split(':')[0];
        const wrong = await c.t.request({
          method: 'GET',
          url: `${API}/venues`,
          auth: `Basic ${Buffer.from(`${username}:wrong-password`).toString('base64')}`,
        });
        assert.equal(wrong.statusCode, 401, wrong.body);
        assert.equal(wrong.data.code, 'incorrect_password');
        assert.equal(unknown.data.code, 'invalid_username');
      });

      it('should authenticate a form-encoded write with HTTP Basic and refuse a cookie or query token', async () => {
        const ok = await postForm(c, `${API}/venues`, { venue: `Basic ${uniq()}` }, c.editor);
        assert.equal(ok.statusCode, 201, ok.body);
        const cookie = await c.t.request({
          method: 'POST',
          url: `${API}/venues?_wpnonce=abc`,
          headers: { ...FORM, cookie: 'wordpress_logged_in=x' },
          payload: form({ venue: 'No' }),
        });
        assert.equal(cookie.statusCode, 401, cookie.body);
      });

      it('should answer 405 with Allow for a route that exists with another method, 404 rest_no_route for an unknown route', async () => {
        const res = await c.t.request({ method: 'DELETE', url: `${API}/venues`, auth: c.admin });
        assert.equal(res.statusCode, 405, res.body);
        assert.ok(String(res.headers['allow']).includes('GET'));
        const none = await get(c, `${API}/nothing-here`);
        assert.equal(none.statusCode, 404);
        assert.equal(none.data.code, 'rest_no_route');
      });
    });
  });
}
