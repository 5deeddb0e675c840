import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { ApiError, invalidParam } from '../../http/errors.js';
import { IdParams, responses } from '../../http/schemas.js';
import { resolvedProblem } from '../../lib/outbound.js';
import * as users from '../users/user.service.js';
import { ImportJobs } from './import-job.service.js';

/**
 * `POST /cal/admin/v1/imports` starts an import (202; 409 while one runs), `GET …/imports/{id}`
 * shows its progress and, once done, its report; `GET …/imports` the last twenty. For people who
 * cannot run `cal-events import` on the server; the same importer runs in this process.
 */

const ImportBody = Type.Object(
  {
    from: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'REST root of a site running The Events Calendar (…/wp-json/) or of another cal-events service',
      }),
    ),
    ics: Type.Optional(Type.String({ minLength: 1, description: 'http(s) URL of an iCalendar feed' })),
    user: Type.Optional(Type.String({ description: 'Source user (with password: drafts and private records too)' })),
    password: Type.Optional(Type.String({ description: 'Source application password; never stored nor shown' })),
    languages: Type.Optional(Type.Array(Type.String(), { description: 'Languages to import (default: all)' })),
    since: Type.Optional(
      Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Only events ending on or after this day' }),
    ),
    author: Type.Optional(
      Type.Integer({ minimum: 1, description: 'User the imported records belong to (default: the caller)' }),
    ),
    dry_run: Type.Optional(Type.Boolean({ description: 'Read and compare only; write nothing' })),
    prune: Type.Optional(
      Type.Boolean({
        description: 'Move to the trash what an earlier import took from this source and the source no longer has',
      }),
    ),
    calendar_name: Type.Optional(Type.String()),
    category: Type.Optional(Type.String({ description: 'iCalendar: a category every imported event gets' })),
    language: Type.Optional(Type.String({ description: 'iCalendar: the language of its events' })),
  },
  { additionalProperties: false },
);

const ImportJobSchema = Type.Object(
  {
    id: Type.Integer(),
    status: Type.String({ enum: ['running', 'done', 'failed'] }),
    options: Type.Object({}, { additionalProperties: true }),
    progress: Type.Object({}, { additionalProperties: true, description: 'Per kind: done and total' }),
    report: Type.Unknown({
      description: 'Counts per kind and language, skips with reasons, records gone from the source, warnings, rate',
    }),
    error: Type.Union([Type.String(), Type.Null()]),
    user_id: Type.Integer(),
    started: Type.String(),
    finished: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);

const admin = { access: 'manage_options' } as const;
const doc = { tags: ['admin'], security: [{ basic: [] }] };

/**
 * A source the importer would refuse to reach is a 400 now rather than a failed import later:
 * not an http(s) URL, or a loopback, private or metadata address (by the URL or, at this
 * moment, by DNS). The importer checks again at every connection and redirect.
 */
async function checkSource(name: 'from' | 'ics', raw: string, allowPrivate: boolean): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidParam(name, `${name} must be an http(s) URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidParam(name, `${name} must be an http(s) URL.`);
  const problem = await resolvedProblem(url, { allowPrivate });
  if (problem)
    throw invalidParam(
      name,
      `${name} must not point there: ${problem.message}${problem.kind === 'private' ? ' (CAL_IMPORT_ALLOW_PRIVATE=1 allows importing from a private network)' : ''}.`,
    );
}

export async function importRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.services.storage;
  const { config } = app.services;
  const jobs = new ImportJobs(app, db);

  app.post(
    '/imports',
    {
      schema: { ...doc, summary: 'Start an import', body: ImportBody, response: responses({ 202: ImportJobSchema }) },
      config: admin,
    },
    async (request, reply) => {
      const body = request.body as Static<typeof ImportBody>;
      if ((body.from === undefined) === (body.ics === undefined))
        throw new ApiError(400, 'rest_missing_callback_param', 'Give either from or ics.', { params: ['from', 'ics'] });
      // The server reads no files for a client: an iCalendar source is a URL.
      if (body.ics !== undefined && !/^https?:\/\//i.test(body.ics))
        throw invalidParam('ics', 'ics must be an http(s) URL.');
      await checkSource(body.from === undefined ? 'ics' : 'from', (body.from ?? body.ics)!, config.importAllowPrivate);
      if (body.author !== undefined && !(await users.findUser(db, body.author)))
        throw invalidParam('author', 'author is not the id of a user.');
      const job = await jobs.start(
        {
          from: body.from,
          ics: body.ics,
          user: body.user,
          password: body.password,
          languages: body.languages,
          since: body.since,
          dryRun: body.dry_run,
          prune: body.prune,
          calendarName: body.calendar_name,
          category: body.category,
          language: body.language,
        },
        request.ctx.actor!,
        body.author ?? null,
      );
      return reply.code(202).header('Location', `${request.ctx.restRoot}cal/admin/v1/imports/${job.id}`).send(job);
    },
  );

  app.get(
    '/imports',
    {
      schema: { ...doc, summary: 'The last twenty imports', response: responses({ 200: Type.Array(ImportJobSchema) }) },
      config: admin,
    },
    async () => jobs.list(),
  );

  app.get(
    '/imports/:id',
    {
      schema: {
        ...doc,
        summary: 'An import: progress, then report',
        params: IdParams,
        response: responses({ 200: ImportJobSchema }),
      },
      config: admin,
    },
    async (request) => {
      const job = await jobs.get((request.params as { id: number }).id);
      if (!job) throw new ApiError(404, 'rest_import_not_found', 'No import with this id.');
      return job;
    },
  );
}
