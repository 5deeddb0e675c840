import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { TestApp } from './app.js';

/**
 * A model-based test of the whole API (fast-check's `fc.commands`): random sequences of creates,
 * updates, trashes, deletes, reads by id and by slug, lists, translations and language roots, as
 * every role, checked against a small model of what must hold:
 * - no 5xx, and every error in the contract's body;
 * - a list shows exactly the records the caller may see (kind, language, status, ownership), its
 *   `total` is what its pages hold, no record twice, no trashed record, each with its current status;
 * - a single read answers 200 exactly when the caller may read the record, with its current status;
 * - a deleted term stays gone, and no id is ever handed out twice or seen on another record;
 * - an attacker's input (long runs of letters, long dates, many words, cross-site forms, private
 *   addresses in IPv6 and other spellings) is refused at once with a 4xx and changes nothing.
 * Used by test/cross/stateful.test.ts (a short seeded run) and scripts/fuzz.ts (long runs).
 */

export const KINDS = ['event', 'venue', 'organizer', 'category', 'tag'] as const;
export type Kind = (typeof KINDS)[number];
export const ROLES = ['anonymous', 'subscriber', 'contributor', 'author', 'editor', 'administrator'] as const;
export type Role = (typeof ROLES)[number];
const LANGS = ['en', 'fr'] as const;
type Lang = (typeof LANGS)[number];
const STATUSES = ['publish', 'draft', 'pending', 'private'] as const;
const TITLES = ['Alpha', 'Beta', 'Gamma'] as const;

const PATH: Record<Kind, string> = {
  event: 'events',
  venue: 'venues',
  organizer: 'organizers',
  category: 'categories',
  tag: 'tags',
};
const isPost = (kind: Kind): boolean => kind === 'event' || kind === 'venue' || kind === 'organizer';
/** Posts share one id sequence, terms another. */
const idSpace = (kind: Kind): 'post' | 'term' => (isPost(kind) ? 'post' : 'term');

interface Rec {
  kind: Kind;
  id: number;
  lang: Lang;
  status: string;
  author: number;
  slug: string;
  gone: boolean;
}

export class Model {
  readonly records = new Map<string, Rec>();
  /** Every id ever answered, with the kind it named. */
  readonly ids = { post: new Map<number, Kind>(), term: new Map<number, Kind>() };
  of(kind: Kind): Rec[] {
    return [...this.records.values()].filter((r) => r.kind === kind);
  }
  pick(kind: Kind, index: number): Rec | undefined {
    const all = this.of(kind);
    return all.length === 0 ? undefined : all[index % all.length];
  }
}

export interface Real {
  t: TestApp;
  users: Record<Role, { id: number; auth: string | undefined }>;
  /** Answers seen, by status class: what a run covered. */
  seen: Map<string, number>;
}

const CAPABILITY_RANK: Record<Role, number> = {
  anonymous: 0,
  subscriber: 1,
  contributor: 2,
  author: 3,
  editor: 4,
  administrator: 5,
};
const atLeast = (role: Role, minimum: Role): boolean => CAPABILITY_RANK[role] >= CAPABILITY_RANK[minimum];

/** CONTRACT's role table, SPEC items 6 and 22: who may read a record. */
function mayRead(role: Role, userId: number, rec: Rec): boolean {
  if (rec.gone) return false;
  if (!isPost(rec.kind)) return true;
  if (rec.status === 'publish') return true;
  if (atLeast(role, 'editor')) return true;
  return atLeast(role, 'contributor') && rec.author === userId;
}

/** What a list without `status` shows: never the trash. */
const listed = (role: Role, userId: number, rec: Rec): boolean => rec.status !== 'trash' && mayRead(role, userId, rec);

function mayEdit(role: Role, userId: number, rec: Rec): boolean {
  if (rec.kind === 'category') return atLeast(role, 'author');
  if (rec.kind === 'tag') return atLeast(role, 'editor');
  if (atLeast(role, 'editor')) return true;
  if (!atLeast(role, 'contributor') || rec.author !== userId) return false;
  return atLeast(role, 'author') || !['publish', 'future', 'private'].includes(rec.status);
}

function mayCreate(role: Role, kind: Kind): boolean {
  return kind === 'category'
    ? atLeast(role, 'author')
    : kind === 'tag'
      ? atLeast(role, 'editor')
      : atLeast(role, 'contributor');
}

/** The status a create ends in: users who cannot publish get pending for publish (the original's scale back). */
function scaledStatus(role: Role, status: string): string {
  return atLeast(role, 'author') || status !== 'publish' ? status : 'pending';
}

type Response = Awaited<ReturnType<TestApp['request']>>;

async function call(real: Real, role: Role, method: string, url: string, payload?: object): Promise<Response> {
  const res = await real.t.request({
    method: method as 'GET',
    url,
    auth: real.users[role].auth,
    ...(payload ? { payload: payload as never } : {}),
  });
  const klass = `${method} ${Math.floor(res.statusCode / 100)}xx`;
  real.seen.set(klass, (real.seen.get(klass) ?? 0) + 1);
  assert.ok(res.statusCode < 500, `${method} ${url} as ${role}: ${res.statusCode} ${res.body}`);
  if (res.statusCode >= 400) {
    assert.equal(typeof res.data?.code, 'string', `${method} ${url}: error body ${res.body}`);
    assert.equal(typeof res.data?.message, 'string');
    assert.equal(res.data?.data?.status, res.statusCode);
  }
  return res;
}

const root = (lang: Lang): string => (lang === 'en' ? '' : `/${lang}`);
const base = (lang: Lang, kind: Kind): string => `${root(lang)}/cal/events/v1/${PATH[kind]}`;

/** Records an id the service answered for a new record: never seen before, on any record. */
function claimId(model: Model, kind: Kind, id: number): void {
  const space = model.ids[idSpace(kind)];
  assert.equal(space.has(id), false, `${kind} ${id} reuses the id of a ${space.get(id)}`);
  space.set(id, kind);
}

/** The model's record behind an id in a response, which must be of the kind asked for. */
function known(model: Model, kind: Kind, id: number): Rec {
  const rec = model.records.get(`${kind}:${id}`);
  assert.ok(rec, `${kind} ${id} is not a record the model knows (${model.ids[idSpace(kind)].get(id) ?? 'never seen'})`);
  return rec;
}

function payloadFor(kind: Kind, title: string, status: string): Record<string, unknown> {
  switch (kind) {
    case 'event':
      return { title, status, start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 12:00:00' };
    case 'venue':
      return { venue: title, status };
    case 'organizer':
      return { organizer: title, status };
    default:
      return { name: title };
  }
}

abstract class Command implements fc.AsyncCommand<Model, Real> {
  check(): boolean {
    return true;
  }
  abstract run(model: Model, real: Real): Promise<void>;
  abstract toString(): string;
}

/** A command on one record the model knows, picked by index among those of its kind. */
abstract class RecordCommand extends Command {
  abstract readonly kind: Kind;
  abstract readonly index: number;
  async run(model: Model, real: Real): Promise<void> {
    const rec = model.pick(this.kind, this.index);
    if (rec) await this.on(rec, model, real);
  }
  protected abstract on(rec: Rec, model: Model, real: Real): Promise<void>;
}

/** Adds a record the service just created to the model. */
function remember(
  model: Model,
  real: Real,
  kind: Kind,
  role: Role,
  lang: Lang,
  data: { id: number; status?: string; slug: string },
): void {
  model.records.set(`${kind}:${data.id}`, {
    kind,
    id: data.id,
    lang,
    status: isPost(kind) ? data.status! : 'publish',
    author: real.users[role].id,
    slug: data.slug,
    gone: false,
  });
}

class Create extends Command {
  constructor(
    readonly kind: Kind,
    readonly role: Role,
    readonly lang: Lang,
    readonly status: string,
    readonly title: string,
  ) {
    super();
  }
  async run(model: Model, real: Real): Promise<void> {
    const res = await call(
      real,
      this.role,
      'POST',
      base(this.lang, this.kind),
      payloadFor(this.kind, this.title, this.status),
    );
    if (!mayCreate(this.role, this.kind)) {
      assert.ok([401, 403].includes(res.statusCode), `${this}: ${res.statusCode}`);
      return;
    }
    // A term of the same name under the same parent already exists: the original's term_exists.
    if (!isPost(this.kind) && res.statusCode === 400 && res.data.code === 'term_exists') return;
    assert.ok(res.statusCode === 201, `${this}: ${res.statusCode} ${res.body}`);
    const id = res.data.id as number;
    // Venues and organizers are de-duplicated: an existing record the caller may read comes back.
    const existing = model.records.get(`${this.kind}:${id}`);
    if (existing) {
      assert.ok(this.kind === 'venue' || this.kind === 'organizer', `${this}: ${this.kind} ${id} answered twice`);
      return;
    }
    claimId(model, this.kind, id);
    assert.equal(res.data.i18n_language, this.lang);
    if (isPost(this.kind)) assert.equal(res.data.status, scaledStatus(this.role, this.status), `${this}: status`);
    remember(model, real, this.kind, this.role, this.lang, res.data);
  }
  toString(): string {
    return `Create(${this.kind}, ${this.role}, ${this.lang}, ${this.status}, ${this.title})`;
  }
}

class Update extends RecordCommand {
  constructor(
    readonly kind: Kind,
    readonly index: number,
    readonly role: Role,
    readonly status: string,
    readonly title: string,
    readonly bySlug: boolean,
  ) {
    super();
  }
  protected async on(rec: Rec, model: Model, real: Real): Promise<void> {
    const bySlug =
      this.bySlug && isPost(this.kind) && !rec.gone && rec.status !== 'trash' && uniqueLiveSlug(model, rec);
    const url = bySlug ? `${base(rec.lang, this.kind)}/by-slug/${rec.slug}` : `${base(rec.lang, this.kind)}/${rec.id}`;
    const body = isPost(this.kind)
      ? { ...payloadFor(this.kind, this.title, this.status), start_date: undefined, end_date: undefined }
      : { description: this.title };
    const res = await call(real, this.role, 'POST', url, body);
    const user = real.users[this.role].id;
    if (rec.gone) return assert.equal(res.statusCode, 404, `${this}: ${res.body}`);
    if (!atLeast(this.role, 'contributor') || (!isPost(this.kind) && !mayEdit(this.role, user, rec))) {
      return assert.ok([401, 403].includes(res.statusCode), `${this}: ${res.statusCode}`);
    }
    if (res.statusCode === 403)
      return assert.equal(mayEdit(this.role, user, rec), false, `${this}: refused an allowed edit`);
    assert.equal(res.statusCode, 200, `${this}: ${res.body}`);
    assert.ok(mayEdit(this.role, user, rec), `${this}: allowed an edit it must refuse`);
    if (isPost(this.kind)) {
      rec.status = res.data.status;
      rec.slug = res.data.slug;
    }
  }
  toString(): string {
    return `Update(${this.kind}#${this.index}, ${this.role}, ${this.status}, ${this.title}${this.bySlug ? ', by slug' : ''})`;
  }
}

/** Whether `rec`'s slug names it alone among the live records of its kind and language. */
function uniqueLiveSlug(model: Model, rec: Rec): boolean {
  return (
    model.of(rec.kind).filter((r) => r.lang === rec.lang && r.slug === rec.slug && r.status !== 'trash' && !r.gone)
      .length === 1
  );
}

class Delete extends RecordCommand {
  constructor(
    readonly kind: Kind,
    readonly index: number,
    readonly role: Role,
  ) {
    super();
  }
  protected async on(rec: Rec, model: Model, real: Real): Promise<void> {
    const res = await call(real, this.role, 'DELETE', `${base(rec.lang, this.kind)}/${rec.id}`);
    const user = real.users[this.role].id;
    if (rec.gone) return assert.equal(res.statusCode, 404, `${this}: ${res.body}`);
    if (!atLeast(this.role, 'contributor') || (!isPost(this.kind) && !mayEdit(this.role, user, rec))) {
      return assert.ok([401, 403].includes(res.statusCode), `${this}: ${res.statusCode}`);
    }
    if (isPost(this.kind) && rec.status === 'trash') {
      return assert.ok([403, 410].includes(res.statusCode), `${this}: a second delete ${res.statusCode}`);
    }
    if (res.statusCode === 403)
      return assert.equal(mayEdit(this.role, user, rec), false, `${this}: refused an allowed delete`);
    assert.equal(res.statusCode, 200, `${this}: ${res.body}`);
    if (isPost(this.kind)) {
      assert.equal(res.data.status, 'trash');
      rec.status = 'trash';
    } else {
      rec.gone = true;
    }
  }
  toString(): string {
    return `Delete(${this.kind}#${this.index}, ${this.role})`;
  }
}

class Read extends RecordCommand {
  constructor(
    readonly kind: Kind,
    readonly index: number,
    readonly role: Role,
    readonly bySlug: boolean,
  ) {
    super();
  }
  protected async on(rec: Rec, model: Model, real: Real): Promise<void> {
    const user = real.users[this.role].id;
    if (this.bySlug && isPost(this.kind)) {
      const res = await call(
        real,
        this.role,
        'GET',
        `${base(rec.lang, this.kind)}/by-slug/${encodeURIComponent(rec.slug)}`,
      );
      if (res.statusCode !== 200) return;
      const found = known(model, this.kind, res.data.id);
      assert.equal(found.slug, rec.slug, `${this}: another slug`);
      const live = model.of(this.kind).some((r) => r.lang === rec.lang && r.slug === rec.slug && r.status !== 'trash');
      if (live) assert.notEqual(found.status, 'trash', `${this}: a trashed record over a live one`);
      assert.ok(
        mayRead(this.role, user, found) && !(this.kind === 'event' && found.status === 'trash'),
        `${this}: read what the caller may not`,
      );
      assert.equal(res.data.status, found.status);
      return;
    }
    const res = await call(real, this.role, 'GET', `${base(rec.lang, this.kind)}/${rec.id}`);
    const readable = mayRead(this.role, user, rec) && !(this.kind === 'event' && rec.status === 'trash');
    if (rec.gone) return assert.equal(res.statusCode, 404, `${this}: a deleted term answered ${res.statusCode}`);
    assert.equal(
      res.statusCode === 200,
      readable,
      `${this}: ${res.statusCode}, the model says ${readable ? 'readable' : 'not readable'} (${rec.status}, author ${rec.author})`,
    );
    if (res.statusCode === 200) {
      assert.equal(res.data.id, rec.id);
      if (isPost(this.kind)) assert.equal(res.data.status, rec.status, `${this}: status`);
      assert.equal(res.data.i18n_language, rec.lang);
    }
  }
  toString(): string {
    return `Read(${this.kind}#${this.index}, ${this.role}${this.bySlug ? ', by slug' : ''})`;
  }
}

class List extends Command {
  constructor(
    readonly kind: Kind,
    readonly role: Role,
    readonly lang: Lang,
    readonly viaParameter: boolean,
  ) {
    super();
  }
  async run(model: Model, real: Real): Promise<void> {
    const user = real.users[this.role].id;
    const url = this.viaParameter
      ? `/cal/events/v1/${PATH[this.kind]}?i18n_language=${this.lang}`
      : `${base(this.lang, this.kind)}?`;
    const extra =
      this.kind === 'event'
        ? '&start_date=2000-01-01&end_date=2100-12-31'
        : isPost(this.kind)
          ? ''
          : '&hide_empty=false';
    const seen: number[] = [];
    let total = -1;
    for (let page = 1; page <= 50; page++) {
      const res = await call(
        real,
        this.role,
        'GET',
        `${url}${url.endsWith('?') ? '' : '&'}per_page=4&page=${page}${extra}`,
      );
      if (res.statusCode === 404 && page > 1) break;
      assert.equal(res.statusCode, 200, `${this}: page ${page} ${res.body}`);
      total = res.data.total;
      const items = res.data[PATH[this.kind]] as { id: number; status?: string; i18n_language: string }[];
      for (const item of items) {
        const rec = known(model, this.kind, item.id);
        assert.ok(!seen.includes(item.id), `${this}: ${this.kind} ${item.id} on two pages`);
        seen.push(item.id);
        assert.equal(item.i18n_language, this.lang, `${this}: ${this.kind} ${item.id} of another language`);
        if (isPost(this.kind))
          assert.equal(
            item.status,
            rec.status,
            `${this}: ${this.kind} ${item.id} listed as ${item.status}, it is ${rec.status}`,
          );
        assert.ok(
          listed(this.role, user, rec),
          `${this}: ${this.kind} ${item.id} (${rec.status}, author ${rec.author}) must not be listed`,
        );
      }
      if (items.length < 4) break;
    }
    const expected = model
      .of(this.kind)
      .filter((r) => r.lang === this.lang && listed(this.role, user, r))
      .map((r) => r.id)
      .sort((a, b) => a - b);
    assert.deepEqual(
      [...seen].sort((a, b) => a - b),
      expected,
      `${this}: listed records`,
    );
    assert.equal(total, seen.length, `${this}: total ${total}, the pages hold ${seen.length}`);
  }
  toString(): string {
    return `List(${this.kind}, ${this.role}, ${this.lang}${this.viaParameter ? ', i18n_language' : ''})`;
  }
}

class Translate extends RecordCommand {
  constructor(
    readonly kind: Kind,
    readonly index: number,
    readonly role: Role,
    readonly title: string,
  ) {
    super();
  }
  protected async on(rec: Rec, model: Model, real: Real): Promise<void> {
    const lang: Lang = rec.lang === 'en' ? 'fr' : 'en';
    const res = await call(real, this.role, 'POST', base(lang, this.kind), {
      ...payloadFor(this.kind, this.title, 'publish'),
      translation_of: rec.id,
    });
    if (res.statusCode !== 201) return;
    assert.ok(mayCreate(this.role, this.kind), `${this}: created without the right`);
    if (model.records.has(`${this.kind}:${res.data.id}`)) return;
    claimId(model, this.kind, res.data.id);
    assert.equal(res.data.i18n_language, lang);
    // A group's `translations` leaves out its trashed members (the source may be in the trash).
    if (rec.status !== 'trash')
      assert.equal(res.data.translations[rec.lang], rec.id, `${this}: not linked to its source`);
    remember(model, real, this.kind, this.role, lang, res.data);
  }
  toString(): string {
    return `Translate(${this.kind}#${this.index}, ${this.role}, ${this.title})`;
  }
}

/**
 * Writes one record while an editor lists its kind three times at once (the cached path), then
 * checks a list afterwards: a page cached while the write was in flight must not outlive it.
 */
class Burst extends RecordCommand {
  constructor(
    readonly kind: Kind,
    readonly index: number,
    readonly status: string,
    readonly trash: boolean,
  ) {
    super();
  }
  protected async on(rec: Rec, model: Model, real: Real): Promise<void> {
    if (!isPost(this.kind) || rec.status === 'trash') return;
    const list = `${base(rec.lang, this.kind)}?per_page=50${this.kind === 'event' ? '&start_date=2000-01-01&end_date=2100-12-31' : ''}`;
    const write = this.trash
      ? call(real, 'editor', 'DELETE', `${base(rec.lang, this.kind)}/${rec.id}`)
      : call(real, 'editor', 'POST', `${base(rec.lang, this.kind)}/${rec.id}`, { status: this.status });
    const [written] = await Promise.all([
      write,
      call(real, 'editor', 'GET', list),
      call(real, 'anonymous', 'GET', list),
      call(real, 'editor', 'GET', list),
    ]);
    assert.equal(written.statusCode, 200, `${this}: ${written.body}`);
    rec.status = written.data.status;
    await new List(this.kind, 'editor', rec.lang, false).run(model, real);
    await new List(this.kind, 'anonymous', rec.lang, false).run(model, real);
  }
  toString(): string {
    return `Burst(${this.kind}#${this.index}, ${this.trash ? 'trash' : this.status})`;
  }
}

/**
 * Input an attacker sends (issue 25): each must be refused at once with a 4xx in the contract's
 * body, change nothing the model does not know of, and never hold the service up.
 */
interface Attack {
  label: string;
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  payload?: string | object;
  /** The statuses a refusal may have for this caller (401/403 where the caller may not write at all). */
  refused: number[];
}

const ATTACK_MS = 2000;
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
const letters = fc
  .tuple(fc.constantFrom('a', 'é', '€', 'ab', 'a€'), fc.integer({ min: 201, max: 30_000 }))
  .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)));
const longDate = fc
  .tuple(fc.constantFrom('next friday ', 'tomorrow ', '2027-01-05 ', 'a', '1/'), fc.integer({ min: 65, max: 12_000 }))
  .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)));
const manyWords = fc.integer({ min: 13, max: 1000 }).map(words);
const foreignOrigin = fc.constantFrom<Record<string, string>>(
  { origin: 'https://evil.example' },
  { origin: 'null' },
  { 'sec-fetch-site': 'cross-site' },
  { origin: 'http://localhost.evil.example' },
);
const privateAddress = fc.constantFrom(
  '[::127.0.0.1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[64:ff9b::7f00:1]',
  '[2002:7f00:1::]',
  '[::1]',
  'foo.localhost',
  'LOCALHOST.',
  '169.254.169.254',
  '[fd00:ec2::254]',
  '0x7f.1',
  '2130706433',
);

const attack: fc.Arbitrary<Attack> = fc.oneof(
  letters.map((cost) => ({
    label: `cost of ${cost.length}`,
    method: 'POST' as const,
    url: '/cal/events/v1/events',
    payload: { title: 'A', start_date: '2027-01-01 10:00', end_date: '2027-01-01 11:00', cost },
    refused: [400, 401, 403],
  })),
  longDate.map((date) => ({
    label: `start_date of ${date.length}`,
    method: 'POST' as const,
    url: '/cal/events/v1/events',
    payload: { title: 'A', start_date: date, end_date: '2027-01-01 11:00' },
    refused: [400, 401, 403],
  })),
  fc.tuple(fc.constantFrom('start_date', 'end_date', 'starts_before', 'ends_after'), longDate).map(([name, date]) => ({
    label: `${name} of ${date.length}`,
    method: 'GET' as const,
    url: `/cal/events/v1/events?${name}=${encodeURIComponent(date)}`,
    refused: [400],
  })),
  fc.tuple(fc.constantFrom('events', 'venues', 'organizers'), manyWords).map(([path, text]) => ({
    label: `search of ${text.length} in ${path}`,
    method: 'GET' as const,
    url: `/cal/events/v1/${path}?search=${encodeURIComponent(text)}`,
    refused: [400],
  })),
  fc
    .tuple(
      foreignOrigin,
      fc.constantFrom('application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x'),
    )
    .map(([headers, type]) => ({
      label: `cross-site ${type} from ${JSON.stringify(headers)}`,
      method: 'POST' as const,
      url: '/cal/admin/v1/users',
      headers: { ...headers, 'content-type': type },
      payload: type.startsWith('multipart')
        ? '--x\r\nContent-Disposition: form-data; name="username"\r\n\r\nmallory\r\n--x--\r\n'
        : 'username=mallory&role=administrator',
      refused: [403],
    })),
  privateAddress.map((host) => ({
    label: `webhook to ${host}`,
    method: 'POST' as const,
    url: '/cal/admin/v1/webhooks',
    payload: { url: `https://${host}/hook`, events: ['*'] },
    refused: [400, 401, 403],
  })),
);

/** One attack, as any role; a refusal that takes longer than a couple of seconds is a freeze. */
class Adversarial extends Command {
  constructor(
    readonly role: Role,
    readonly attack: Attack,
  ) {
    super();
  }
  async run(_model: Model, real: Real): Promise<void> {
    const { method, url, headers, payload, refused, label } = this.attack;
    const started = performance.now();
    const res = await real.t.request({
      method,
      url,
      headers,
      auth: real.users[this.role].auth,
      ...(payload !== undefined ? { payload: payload as never } : {}),
    });
    const ms = performance.now() - started;
    const klass = `attack ${res.statusCode}`;
    real.seen.set(klass, (real.seen.get(klass) ?? 0) + 1);
    assert.ok(refused.includes(res.statusCode), `${this}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    assert.equal(res.data?.data?.status, res.statusCode, `${this}: error body ${res.body.slice(0, 300)}`);
    assert.ok(ms < ATTACK_MS, `${this}: ${Math.round(ms)} ms for ${label}`);
  }
  toString(): string {
    return `Adversarial(${this.role}, ${this.attack.label})`;
  }
}

const kind = fc.constantFrom(...KINDS);
const role = fc.constantFrom(...ROLES);
const lang = fc.constantFrom(...LANGS);
const status = fc.constantFrom(...STATUSES);
const title = fc.constantFrom(...TITLES);
const index = fc.nat({ max: 1000 });

/** The command generators, weighted towards writes early and reads throughout. */
export const commands = [
  fc.tuple(kind, role, lang, status, title).map(([k, r, l, s, t]) => new Create(k, r, l, s, t)),
  fc
    .tuple(kind, role, lang, status, title)
    .map(([k, r, l, s, t]) => new Create(k, r === 'anonymous' ? 'editor' : r, l, s, t)),
  fc.tuple(kind, index, role, status, title, fc.boolean()).map(([k, i, r, s, t, b]) => new Update(k, i, r, s, t, b)),
  fc.tuple(kind, index, role).map(([k, i, r]) => new Delete(k, i, r)),
  fc.tuple(kind, index, role, fc.boolean()).map(([k, i, r, b]) => new Read(k, i, r, b)),
  fc.tuple(kind, role, lang, fc.boolean()).map(([k, r, l, p]) => new List(k, r, l, p)),
  fc.tuple(kind, index, role, title).map(([k, i, r, t]) => new Translate(k, i, r, t)),
  fc
    .tuple(fc.constantFrom<Kind>('event', 'venue', 'organizer'), index, status, fc.boolean())
    .map(([k, i, s, t]) => new Burst(k, i, s, t)),
  fc.tuple(role, attack).map(([r, a]) => new Adversarial(r, a)),
];

/** A user per role on the app (anonymous has none). */
export async function usersOf(t: TestApp, prefix: string): Promise<Real['users']> {
  const users = { anonymous: { id: 0, auth: undefined } } as Real['users'];
  for (const r of ROLES) {
    if (r === 'anonymous') continue;
    const user = await t.asUser(r, `${prefix}-${r}`);
    users[r] = { id: user.id, auth: user.authorization };
  }
  return users;
}
