import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The formats of the event list and of a single event: this API's JSON, an iCalendar feed
 * (RFC 5545) or schema.org JSON-LD. Chosen by `?format=` (checked by the route schema: another
 * value is 400 rest_invalid_param), else by the `Accept` header, else JSON.
 */
export const FORMATS = ['json', 'ical', 'jsonld'] as const;
export type Format = (typeof FORMATS)[number];

export const MEDIA_TYPES: Record<Format, string> = {
  json: 'application/json; charset=utf-8',
  ical: 'text/calendar; charset=utf-8',
  jsonld: 'application/ld+json; charset=utf-8',
};

const BY_MEDIA_TYPE: Record<string, Format> = {
  'application/json': 'json',
  'text/calendar': 'ical',
  'application/ld+json': 'jsonld',
};

/**
 * The format an `Accept` header prefers among ours: the highest quality wins, JSON on a tie and
 * for wildcards (browsers and most clients send `*\/*` or nothing).
 */
export function formatOfAccept(accept: string | undefined): Format {
  if (accept === undefined || accept === '') return 'json';
  let best: Format = 'json';
  let bestQ = -1;
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const format = BY_MEDIA_TYPE[type];
    if (format === undefined) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0) continue;
    if (q > bestQ || (q === bestQ && format === 'json')) {
      best = format;
      bestQ = q;
    }
  }
  return best;
}

/**
 * The request's format: `given` (its `format` parameter, checked by the route schema), else its
 * `Accept`. Every answer of these routes varies with `Accept`, so shared caches are told so,
 * whatever the format chosen.
 */
export function negotiateFormat(request: FastifyRequest, reply: FastifyReply, given: Format | undefined): Format {
  void reply.header('Vary', 'Accept');
  if (given !== undefined) return given;
  const accept = request.headers.accept;
  return formatOfAccept(Array.isArray(accept) ? accept.join(',') : accept);
}
