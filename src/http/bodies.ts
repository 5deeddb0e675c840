import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseQueryString } from './params.js';

/**
 * What WordPress clients send besides JSON: forms (PHP-style `venue[city]=Paris` included) and
 * multipart forms (read with the platform's own parser; files are not accepted here).
 */
export function registerBodyParsers(app: FastifyInstance): void {
  // Many clients send `Content-Type: application/json` on every request, a DELETE or a GET with no
  // body included: an empty (or blank) body is no body, whatever its type; only a non-empty body that
  // does not parse is 400. Fastify's own parser (with its prototype-poisoning checks) does the rest.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (String(body).trim() === '') done(null, undefined);
    else json(request, body as string, done);
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, parseQueryString(String(body))),
  );
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (request, body, done) => {
    if ((body as Buffer).length === 0) return done(null, undefined);
    new Response(body as Buffer, { headers: { 'content-type': String(request.headers['content-type']) } })
      .formData()
      .then((form) => {
        const fields = new URLSearchParams();
        for (const [name, value] of form) if (typeof value === 'string') fields.append(name, value);
        done(null, parseQueryString(fields.toString()));
      })
      .catch(() =>
        done(
          Object.assign(new Error('Malformed multipart body'), {
            statusCode: 400,
            code: 'FST_ERR_CTP_INVALID_MULTIPART',
          }),
        ),
      );
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
