import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { backgroundContext } from '../../http/context.js';
import { IdParams, responses } from '../../http/schemas.js';
import { totalHeaders } from '../../http/pagination.js';
import { runInBackground } from '../../lib/background.js';
import { MailStatusSchema, SubmissionListQuery, SubmissionPatchSchema, SubmissionSchema } from './submission.schema.js';

/**
 * `cal/admin/v1/submissions` (editors and administrators): the moderation queue and its
 * decisions, the API every moderating tool (the admin's Pending screen among them) goes through;
 * and `cal/admin/v1/mail`, whether mail is on and how the outbox stands. The public form is a
 * page (src/modules/pages/page-submit.routes.ts).
 */

const moderators = { access: 'edit_others_posts' } as const;
const doc = {
  tags: ['admin'],
  security: [{ basic: [] }, { cookie: [], nonce: [] }] as Record<string, string[]>[],
};
/** How often each instance looks whether a moderators' digest is due, and for submissions decided in the editor. */
const DIGEST_CHECK_MS = 60_000;

export async function submissionRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { submissions, mailer, config, settings } = app.services;
  mailer.start(app);
  runInBackground(
    app,
    'submission digests and reconciling',
    async () => {
      const ctx = backgroundContext(config, config.defaultLanguage, await settings.get());
      await submissions.reconcile(ctx);
      await submissions.queueDigests(ctx);
      return 0;
    },
    DIGEST_CHECK_MS,
  );

  app.get(
    '/submissions',
    {
      schema: {
        ...doc,
        summary: 'List submissions from the public form (the pending queue by default, oldest first)',
        querystring: SubmissionListQuery,
        response: responses({ 200: Type.Array(SubmissionSchema) }),
      },
      config: moderators,
    },
    async (request, reply) => {
      const { state = 'pending', page = 1, per_page: perPage = 20 } = request.query;
      const { items, total } = await submissions.list(state, page, perPage, request.ctx);
      void reply.headers(totalHeaders({ total, total_pages: Math.ceil(total / perPage) }));
      return items;
    },
  );

  app.get(
    '/submissions/:id',
    {
      schema: {
        ...doc,
        summary: 'Read a submission',
        params: IdParams,
        response: responses({ 200: SubmissionSchema }),
      },
      config: moderators,
    },
    (request) => submissions.get(request.params.id, request.ctx),
  );

  app.patch(
    '/submissions/:id',
    {
      schema: {
        ...doc,
        summary: 'Decide a submission (approve, reject with a reason, spam) or merge its new venue and organizers',
        params: IdParams,
        body: SubmissionPatchSchema,
        response: responses({ 200: SubmissionSchema }),
      },
      config: moderators,
    },
    (request) => submissions.decide(request.params.id, request.body, request.ctx),
  );

  app.get(
    '/mail',
    {
      schema: { ...doc, summary: 'Whether mail is on, and the outbox', response: responses({ 200: MailStatusSchema }) },
      config: moderators,
    },
    () => mailer.status(),
  );
}
