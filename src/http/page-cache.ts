import { Readable } from 'node:stream';
import { LRUCache } from 'lru-cache';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { readDataVersion } from '../db/data-version.js';
import { pickFields } from './fields.js';
import { etagOf } from './conditional.js';
import { addVary } from './security.js';
import { encodeBody, MIN_COMPRESSED, preferredCoding, type Coding } from './encodings.js';
import { can, type Actor } from '../auth/roles.js';
import { CACHE_BUDGET, stringBytes } from '../lib/cache-budget.js';

interface CachedResponse {
  /** Encoded once: sending stored bytes is what makes a cached page cheap. */
  body: Buffer;
  /** The body's length uncoded. */
  length: number;
  /** The body compressed, once per coding a client asked for (encodings.ts). */
  coded?: Partial<Record<Coding, Buffer>>;
  headers: Record<string, string>;
  /** Lets clients revalidate with If-None-Match and get a 304 without the body. */
  etag: string;
}

/**
 * Caches whole serialized GET responses. The key holds the data version (which every write bumps
 * inside its transaction, in the database, so every instance sees it), so a page is never served
 * after a write made it stale; and it holds the caller's view, so no user sees another's records.
 */
export class PageCache {
  /** Answers from the cache and produced afresh, for the metrics. */
  readonly stats = { hits: 0, misses: 0 };
  private readonly entries = new LRUCache<string, CachedResponse>({
    maxSize: CACHE_BUDGET.answers,
    sizeCalculation: sizeOf,
  });

  constructor(private readonly db: Db) {}

  /** Bytes the cached answers and the cached pages and feeds take, as their budgets count them. */
  get bytes(): { answers: number; pages: number } {
    return { answers: this.entries.calculatedSize, pages: this.raw.calculatedSize };
  }

  /**
   * Answers from the cache or from `produce`, which gets the data version the key holds.
   * `keyParts` must hold everything besides the view, language root and data version that changes
   * the response.
   */
  async respond(
    request: FastifyRequest,
    reply: FastifyReply,
    keyParts: string[],
    produce: (version: string) => Promise<{ body: unknown; headers?: Record<string, string> }>,
  ): Promise<FastifyReply> {
    // An authenticated request read the versions already, with its credentials (one statement).
    const version = request.versions?.data ?? (await readDataVersion(this.db));
    const key = [version, viewOf(request.ctx.actor), request.ctx.restRoot, request.ctx.site, ...keyParts].join('\n');
    let cached = this.entries.get(key);
    if (cached) this.stats.hits += 1;
    else {
      this.stats.misses += 1;
      const { body, headers = {} } = await produce(version);
      const fields = (request.query as Record<string, unknown> | undefined)?.['_fields'];
      const bytes = Buffer.from(JSON.stringify(pickFields(body, fields)));
      cached = { body: bytes, length: bytes.length, headers, etag: etagOf(bytes) };
      this.entries.set(key, cached);
    }
    for (const [name, value] of Object.entries(cached.headers)) void reply.header(name, value);
    void reply.header('ETag', cached.etag);
    addVary(reply, 'Accept-Encoding');
    if (notModified(request, cached.etag, null)) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(bodyFor(request, reply, this.entries, key, cached));
  }

  private readonly raw = new LRUCache<string, RawCached>({
    maxSize: CACHE_BUDGET.pages,
    maxEntrySize: MAX_RAW_ENTRY,
    sizeCalculation: sizeOf,
  });

  /**
   * Like {@link respond}, for a body that is not this API's JSON (a calendar feed, JSON-LD), kept
   * apart with its content type and `Last-Modified` and revalidated with `If-None-Match` or
   * `If-Modified-Since`. Its entity tag is the hash of the cache key: the body is a function of
   * what the key holds, so the tag is known before the body, which may be streamed (it is kept
   * once sent whole, when it fits), and a matching tag is a 304 even where it is not cached.
   */
  async respondRaw(
    request: FastifyRequest,
    reply: FastifyReply,
    keyParts: string[],
    produce: (version: string) => Promise<RawResponse>,
  ): Promise<FastifyReply> {
    const version = request.versions?.data ?? (await readDataVersion(this.db));
    const key = [version, viewOf(request.ctx.actor), request.ctx.restRoot, request.ctx.site, ...keyParts].join('\n');
    const etag = etagOf(`raw\n${key}`);
    // On the 304 as on the 200 (RFC 9110 §15.4.5), before the headers of the response itself.
    void reply.header('Cache-Control', REVALIDATE);
    addVary(reply, 'Accept-Encoding');
    const cached = this.raw.get(key);
    if (cached) {
      this.stats.hits += 1;
      for (const [name, value] of Object.entries(cached.headers)) void reply.header(name, value);
      void reply.header('ETag', etag).header('Last-Modified', cached.lastModified);
      if (notModified(request, etag, cached.lastModified)) return reply.code(304).send();
      return reply.type(cached.type).send(bodyFor(request, reply, this.raw, key, cached));
    }
    // Only a response that was sent carries the tag (an error never does), so a match is one.
    if (notModified(request, etag, null)) return reply.header('ETag', etag).code(304).send();
    // Whole seconds (HTTP dates have no more), taken before reading: never later than the data.
    const lastModified = new Date(Math.floor(Date.now() / 1000) * 1000).toUTCString();
    this.stats.misses += 1;
    const { type, headers = {}, body } = await produce(version);
    for (const [name, value] of Object.entries(headers)) void reply.header(name, value);
    void reply.header('ETag', etag).header('Last-Modified', lastModified);
    const entry = { headers, etag, type, lastModified };
    if (Buffer.isBuffer(body)) {
      this.raw.set(key, Object.assign(entry, { body, length: body.length }));
      return reply.type(type).send(body);
    }
    return reply.type(type).send(Readable.from(this.keptWhenWhole(key, entry, body)));
  }

  /** Passes a streamed body on, keeping it for the cache once it has been sent whole, when it fits. */
  private async *keptWhenWhole(
    key: string,
    entry: Omit<RawCached, 'body' | 'length'>,
    chunks: AsyncIterable<string | Buffer>,
  ): AsyncGenerator<Buffer> {
    let parts: Buffer[] | null = [];
    let size = 0;
    for await (const chunk of chunks) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (parts !== null) parts = size > MAX_RAW_ENTRY ? null : (parts.push(bytes), parts);
      yield bytes;
    }
    if (parts !== null) this.raw.set(key, Object.assign(entry, { body: Buffer.concat(parts, size), length: size }));
  }
}

/**
 * Pages and feeds: kept by browsers and shared caches, and checked with them each time they are
 * used (`If-None-Match`, answered 304 from memory without the body). The page cache's keys change
 * with every write and with the site's date, so a page can go stale at any moment; a `max-age`
 * would show a just-published change late, or yesterday's "today" for minutes after midnight,
 * while a revalidation costs a round trip and no bytes. Authenticated answers are made
 * `private, no-store` afterwards (security.ts); problem pages say `no-store` themselves.
 */
const REVALIDATE = 'public, max-age=0, must-revalidate';

/** What an entry holds in memory: its key, headers and bytes in every coding made so far. */
function sizeOf(entry: CachedResponse, key: string): number {
  const headers = Object.entries(entry.headers).reduce((n, [name, value]) => n + name.length + value.length, 0);
  const coded = (entry.coded?.br?.length ?? 0) + (entry.coded?.gzip?.length ?? 0);
  return stringBytes(key) + headers + entry.body.length + coded + 256;
}

/**
 * A cached body in the coding the client prefers, made once and kept with the entry beside the
 * identity bytes (a new entry, so the cache counts its new size: lru-cache measures a value again
 * only when it is another object); the identity bytes when it accepts none or the body is small.
 * The identity bytes stay: decoding them again for every client that accepts no coding (scripts,
 * load testers, proxies) halved the rate of cached answers; the budget is in bytes either way.
 * @fastify/compress passes an answer that has a Content-Encoding as it is.
 */
function bodyFor<E extends CachedResponse>(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: LRUCache<string, E>,
  key: string,
  entry: E,
): Buffer {
  const coding = entry.length >= MIN_COMPRESSED ? preferredCoding(request.headers['accept-encoding']) : null;
  if (coding === null) return entry.body;
  let bytes = entry.coded?.[coding];
  if (bytes === undefined) {
    bytes = encodeBody(entry.body, coding);
    cache.set(key, { ...entry, coded: { ...entry.coded, [coding]: bytes } });
  }
  void reply.header('Content-Encoding', coding);
  return bytes;
}

/** A response in another format than this API's JSON: its bytes, or chunks sent as they are made. */
export interface RawResponse {
  /** Content-Type. */
  type: string;
  headers?: Record<string, string>;
  body: Buffer | AsyncIterable<string | Buffer>;
}

interface RawCached extends CachedResponse {
  type: string;
  /** HTTP date. */
  lastModified: string;
}

/** Raw responses (pages, feeds) are kept apart, so one large feed does not push out many JSON answers. */
const MAX_RAW_ENTRY = 8 * 1024 * 1024;

/**
 * RFC 9110 §13.1.2-3: `If-None-Match` (weak comparison, `*`, lists) decides when sent; otherwise
 * `If-Modified-Since` against the response's `Last-Modified` (null: not known yet, never a 304).
 */
function notModified(request: FastifyRequest, etag: string, lastModified: string | null): boolean {
  const header = request.headers['if-none-match'];
  if (header !== undefined) {
    const value = Array.isArray(header) ? header.join(',') : header;
    // `*`: any current representation, which is known to exist only once it is cached.
    if (value.trim() === '*') return lastModified !== null;
    return value.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
  }
  const since = request.headers['if-modified-since'];
  if (since === undefined || lastModified === null) return false;
  const date = Date.parse(since);
  return Number.isFinite(date) && date >= Date.parse(lastModified);
}

/**
 * Callers who see the same records share a view: everyone below contributor sees published
 * records only, editors and administrators see all, contributors and authors also their own.
 */
function viewOf(actor: Actor | null): string {
  if (!can(actor, 'edit_posts')) return 'public';
  if (can(actor, 'edit_others_posts')) return 'all';
  return `own:${actor!.id}`;
}
