import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * A client generated from each OpenAPI document (openapi-typescript, as a client author would)
 * must type-check against the responses the service really sends. The documents do not depend on
 * the database, so this runs on SQLite only.
 */

const V1 = '/cal/events/v1';
const ADMIN = '/cal/admin/v1';

/** Type-checks `files` (name → source) strictly; returns the diagnostics as text. */
function typeCheck(dir: string, files: Record<string, string>): string[] {
  for (const [name, source] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), source);
  const program = ts.createProgram(
    Object.keys(files).map((f) => path.join(dir, f)),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      skipLibCheck: true,
      types: [],
    },
  );
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

/** `const name: Type = <json>;` for each captured response. */
const constants = (entries: [string, string, unknown][]) =>
  entries.map(([name, type, value]) => `export const ${name}: ${type} = ${JSON.stringify(value)};`).join('\n');

describe('generated OpenAPI clients type-check against real responses', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let files: Record<string, string>;

  before(async () => {
    t = await createTestApp('sqlite');
    admin = (await t.asUser('administrator')).authorization;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-openapi-'));
    const get = async (url: string) => (await t.request({ method: 'GET', url, auth: admin })).data;
    const post = async (url: string, payload: object) => {
      const res = await t.request({ method: 'POST', url, auth: admin, payload });
      assert.ok(res.statusCode < 300, res.body);
      return res.data;
    };
    const category = await post(`${V1}/categories`, { name: 'Jazz', description: 'Live' });
    const child = await post(`${V1}/categories`, { name: 'Bebop', parent: category.id });
    const tag = await post(`${V1}/tags`, { name: 'outdoor' });
    const event = await post(`${V1}/events`, {
      title: 'Typed',
      description: 'Every field',
      start_date: '2031-07-01 19:00:00',
      end_date: '2031-07-01 22:00:00',
      timezone: 'Europe/Paris',
      cost: '€15',
      website: 'https://example.org',
      image: 'https://example.org/a.png',
      categories: [child.id],
      tags: [tag.id],
      featured: true,
      venue: {
        venue: 'Hall',
        address: '1 rue X',
        city: 'Paris',
        country: 'France',
        zip: '75001',
        website: 'https://hall.example.org',
      },
      organizer: [{ organizer: 'Org', email: 'org@example.org', phone: '+33 1' }],
    });
    const bare = await post(`${V1}/events`, {
      title: 'Bare',
      start_date: '2031-07-02',
      end_date: '2031-07-02',
      all_day: true,
    });
    const user = await post(`${ADMIN}/users`, { username: 'typed-user', role: 'editor', email: 'u@example.org' });

    const eventsDoc = await get(`${V1}/doc`);
    const adminDoc = await get(`${ADMIN}/doc`);
    files = {
      'events-api.ts': astToString(await openapiTS(eventsDoc)),
      'admin-api.ts': astToString(await openapiTS(adminDoc)),
      'responses.ts': [
        "import type { paths, components } from './events-api';",
        "import type { paths as adminPaths } from './admin-api';",
        "type Ok<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends { responses: infer R } ? (R extends Record<S, { content: { 'application/json': infer B } }> ? B : never) : never;",
        "type AdminOk<P extends keyof adminPaths, M extends keyof adminPaths[P], S extends number> = adminPaths[P][M] extends { responses: infer R } ? (R extends Record<S, { content: { 'application/json': infer B } }> ? B : never) : never;",
        constants([
          ['event', "Ok<'/events/{id}', 'get', 200>", await get(`${V1}/events/${event.id}`)],
          ['bareEvent', "components['schemas']['Event']", await get(`${V1}/events/${bare.id}`)],
          ['created', "Ok<'/events', 'post', 201>", event],
          [
            'eventList',
            "Ok<'/events', 'get', 200>",
            await get(`${V1}/events?start_date=2031-01-01&end_date=2031-12-31`),
          ],
          ['venue', "Ok<'/venues/{id}', 'get', 200>", await get(`${V1}/venues/${event.venue.id}`)],
          ['venues', "Ok<'/venues', 'get', 200>", await get(`${V1}/venues`)],
          ['organizer', "Ok<'/organizers/{id}', 'get', 200>", await get(`${V1}/organizers/${event.organizer[0].id}`)],
          ['organizers', "Ok<'/organizers', 'get', 200>", await get(`${V1}/organizers`)],
          ['category', "Ok<'/categories/{id}', 'get', 200>", await get(`${V1}/categories/${child.id}`)],
          ['categories', "Ok<'/categories', 'get', 200>", await get(`${V1}/categories?hide_empty=false`)],
          ['tag', "Ok<'/tags/{id}', 'get', 200>", await get(`${V1}/tags/${tag.id}`)],
          ['tags', "Ok<'/tags', 'get', 200>", await get(`${V1}/tags?hide_empty=false`)],
          [
            'error',
            "components['schemas']['Error']",
            (await t.request({ method: 'GET', url: `${V1}/events/999999` })).data,
          ],
          ['users', "AdminOk<'/users', 'get', 200>", await get(`${ADMIN}/users`)],
          ['newUser', "AdminOk<'/users', 'post', 201>", user],
          ['settings', "AdminOk<'/settings', 'get', 200>", await get(`${ADMIN}/settings`)],
        ]),
      ].join('\n'),
    };
  });
  after(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('should type-check every captured response with the generated types', () => {
    assert.deepEqual(typeCheck(dir, files), []);
  });

  it('should fail to type-check a response that does not match (the check can fail)', () => {
    const wrong = `${files['responses.ts']}\nexport const bad: components['schemas']['Event'] = { ...event, id: 'twelve' };\nexport const badVenue: components['schemas']['Venue'] = { ...venue, show_map: 'yes' };`;
    const diagnostics = typeCheck(dir, { ...files, 'responses.ts': wrong });
    assert.equal(diagnostics.length, 2, diagnostics.join('\n'));
  });
});
