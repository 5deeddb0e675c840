import { LRUCache } from 'lru-cache';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { readDataVersion } from '../db/data-version.js';
import { pickFields } from './fields.js';
import { etagOf } from './conditional.js';
import { can, type Actor } from '../auth/roles.js';

interface CachedResponse {
  /** Encoded once: sending stored bytes is what makes a cached page cheap. */
  body: Buffer;
  headers: Record<string, string>;
  /** Lets clients revalidate with If-None-Match and get a 304 without the body. */
  etag: string;
}

/** Serialized responses kept in memory, bounded by their total size. */
const MAX_BYTES = 8 * 1024 * 1024;

/**
 * Caches whole serialized GET responses. The key holds the data version (which every write bumps
 * inside its transaction, in the database, so every instance sees it), so a page is never served
 * after a write made it stale; and it holds the caller's view, so no user sees another's records.
 */
export class PageCache {
  private readonly entries = new LRUCache<string, CachedResponse>({ maxSize: MAX_BYTES, sizeCalculation: (e) => e.body.length + 256 });

  constructor(private readonly db: Db) {}

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
    if (!cached) {
      const { body, headers = {} } = await produce(version);
      const fields = (request.query as Record<string, unknown> | undefined)?.['_fields'];
      const bytes = Buffer.from(JSON.stringify(pickFields(body, fields)));
      cached = { body: bytes, headers, etag: etagOf(bytes) };
      this.entries.set(key, cached);
    }
    for (const [name, value] of Object.entries(cached.headers)) void reply.header(name, value);
    void reply.header('ETag', cached.etag);
    if (request.headers['if-none-match'] === cached.etag) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(cached.body);
  }
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
