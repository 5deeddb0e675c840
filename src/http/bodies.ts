import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseQueryString } from './params.js';

/**
 * What WordPress clients send besides JSON: forms (PHP-style `venue[city]=Paris` included) and
 * multipart forms (read with the platform's own parser; files are not accepted here).
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, parseQueryString(String(body))));
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (request, body, done) => {
    new Response(body as Buffer, { headers: { 'content-type': String(request.headers['content-type']) } })
      .formData()
      .then((form) => {
        const fields = new URLSearchParams();
        for (const [name, value] of form) if (typeof value === 'string') fields.append(name, value);
        done(null, parseQueryString(fields.toString()));
      })
      .catch(() => done(Object.assign(new Error('Malformed multipart body'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_MULTIPART' })));
  });
}

/**
 * WordPress reads a write's parameters from the body, then the query string: fields of the route's
 * body schema given only in the query string are taken from there. A write without a body is an
 * empty one (every update field is optional).
 */
export function mergeQueryIntoBody(request: FastifyRequest): void {
  const schema = request.routeOptions.schema?.body as { properties?: Record<string, unknown> } | undefined;
  if (!schema?.properties) return;
  const body = request.body ?? {};
  if (typeof body !== 'object' || Array.isArray(body)) return;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...body };
  for (const name of Object.keys(schema.properties)) {
    if (merged[name] === undefined && query[name] !== undefined) merged[name] = query[name];
  }
  request.body = merged;
}
