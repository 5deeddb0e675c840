import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Actor } from '../../auth/roles.js';
import { pagePolicy } from '../../http/security.js';
import {
  SUBMISSION_FIELDS,
  type FieldProblem,
  type ProblemCode,
  type ProblemField,
  type SubmissionFields,
} from '../submissions/submission.schema.js';
import type { SubmitAssets } from './page.assets.js';
import { fill, type Messages } from './page.i18n.js';
import { PageProblem, pageScope, type PageHead, type PageRenderer, type PageScope } from './page.render.js';
import { PAGE, PUBLIC, PageQuery } from './page.schema.js';
import { param } from './page.service.js';
import { submitChoices } from './page-submit.repository.js';

/**
 * The public submission form (issue 29): `/events/submit/` under every language root. A plain
 * form that posts without JavaScript; the ALTCHA widget, when scripts run, adds its proof of work.
 * Bad input answers the form again with its status, every message beside its field and in a
 * summary, and everything typed kept; a submission taken answers 303 to a thank-you page (so a
 * reload sends nothing twice). Also the widget's challenge, the double opt-in link and the
 * moderators' List-Unsubscribe page (RFC 8058 one-click included). The submissions service
 * decides everything; these routes read the form and word its answers.
 *
 * Never through the page cache: the form is each visitor's own (`Cache-Control: no-store`). And
 * unlike every other page it knows who asks: a signed-in user submits as themselves. Pages drop the
 * caller (pages.routes.ts), and a browser's page request carries the session cookie without the
 * admin's X-Cal-Nonce, so the cookie's session is read here: a GET only shows the name, and a
 * POST of another site is refused by the cross-site guard before it gets here (and a SameSite=Lax
 * cookie is not sent with it anyway).
 */

/** Choices of each <select> at most (page-submit.repository.ts). */
const MAX_CHOICES = 500;
/**
 * Characters of a field read at most, before anything reads it: beyond every limit the service
 * checks (submission.input.ts), so a longer text is still reported as too long, and kept, cut
 * here, in the form answered again.
 */
const FIELD_READ: Partial<Record<keyof SubmissionFields, number>> = {
  description: 20_000,
  website: 4_000,
  image: 4_000,
  organizer_website: 4_000,
  altcha: 8_000,
};
const OTHER_READ = 1_000;
const USER_AGENT_READ = 512;
const TOKEN_READ = 200;

/** One form field as posted: the last of a repeated one, '' for anything but text. */
function posted(body: unknown, name: keyof SubmissionFields): string {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  return typeof last === 'string' ? last.slice(0, FIELD_READ[name] ?? OTHER_READ) : '';
}

/** The form's fields from a posted body, every one a bounded string (missing: ''), the box checked or not. */
export function formFields(body: unknown): SubmissionFields {
  const fields: Record<string, string | boolean> = {};
  for (const name of SUBMISSION_FIELDS) fields[name] = posted(body, name);
  fields['all_day'] = posted(body, 'all_day') !== '';
  return fields as unknown as SubmissionFields;
}

const EMPTY: SubmissionFields = formFields(undefined);

/** The label each field has on the form, for the summary's links. */
function labelOf(m: Messages, field: ProblemField): string {
  const labels: Partial<Record<ProblemField, string>> = {
    title: m.submitTitleField,
    description: m.submitDescription,
    start: m.submitStart,
    end: m.submitEnd,
    timezone: m.submitTimezone,
    all_day: m.submitAllDay,
    venue_id: m.submitVenue,
    venue_name: m.submitVenueName,
    venue_address: m.submitAddress,
    venue_city: m.submitCity,
    venue_country: m.submitCountry,
    organizer_id: m.submitOrganizer,
    organizer_name: m.submitOrganizerName,
    organizer_email: m.submitOrganizerEmail,
    organizer_website: m.submitOrganizerWebsite,
    category_id: m.submitCategory,
    tags: m.submitTags,
    cost: m.submitCost,
    website: m.submitWebsite,
    image: m.submitImage,
    name: m.submitName,
    email: m.submitEmail,
  };
  return labels[field] ?? '';
}

/** A problem in the page's language (an `invalid`'s English detail after it). */
export function problemText(m: Messages, problem: FieldProblem): string {
  const key = `problem_${problem.code satisfies ProblemCode}` as const;
  const text = fill(m[key] ?? m.problem_server_error, { max: problem.max ?? '' });
  return problem.code === 'invalid' && problem.detail ? `${text} (${problem.detail.slice(0, 300)})` : text;
}

/** The problems as the form shows them: by field (beside it) and as the summary's list. */
function shownProblems(m: Messages, problems: FieldProblem[]) {
  const byField: Record<string, string> = {};
  const summary: { href: string | null; text: string }[] = [];
  for (const problem of problems) {
    const text = problemText(m, problem);
    const label = labelOf(m, problem.field);
    // The honeypot's field is never named: it is not there for people.
    const field = problem.field === 'homepage' ? 'form' : problem.field;
    if (field !== 'form') byField[field] = byField[field] ? `${byField[field]} ${text}` : text;
    summary.push({ href: field === 'form' ? null : `#s-${field}`, text: label ? `${label}: ${text}` : text });
  }
  return { byField, summary };
}

/**
 * A datetime-local input holds only its own shape (a browser empties any other value): a date
 * of an all-day event is a date input, and a value of neither shape is shown as the text it is.
 */
function dateInputType(value: string, allDay: boolean): 'date' | 'datetime-local' | 'text' {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return allDay ? 'date' : 'text';
  if (value === '' || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?$/.test(value))
    return value === '' && allDay ? 'date' : 'datetime-local';
  return 'text';
}

/** What a page of the form's says besides its words: a title, what happened, maybe a link or a button. */
interface NoticeContent {
  text: string;
  role?: 'status' | 'alert';
  link?: { href: string; text: string };
  /** A button posting to `action`. */
  button?: string;
  action?: string;
}

/** The form's pages as answers: who asks, who may, and each page drawn and sent, never cached. */
class SubmitAnswers {
  /** Who asked, as authenticated before the pages' hook drops the caller (a program's Basic header). */
  private readonly authenticated = new WeakMap<FastifyRequest, Actor | null>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly pages: PageRenderer,
    private readonly assets: SubmitAssets,
  ) {}

  /** A route's preValidation hook: the caller before the pages' preHandler drops it. */
  readonly keepCaller = async (request: FastifyRequest): Promise<void> => {
    this.authenticated.set(request, request.ctx.actor);
  };

  get submissions() {
    return this.app.services.submissions;
  }

  /** The caller: by its credentials, else by its session cookie (see the top of this file). */
  async visitor(request: FastifyRequest): Promise<Actor | null> {
    const actor = this.authenticated.get(request) ?? null;
    if (actor !== null) return actor;
    return (await this.app.services.auth.sessionOf(request))?.actor ?? null;
  }

  /** The form's pages are never framed by other sites (no `?embed=1`): a frame would hide who it posts to. */
  scopeOf(request: FastifyRequest): PageScope {
    return { ...pageScope(request), embed: false };
  }

  formPath(scope: PageScope): string {
    return `${scope.paths.root}events/submit/`;
  }

  /** A page of the form's, never cached, with its status. */
  async answer(
    request: FastifyRequest,
    reply: FastifyReply,
    scope: PageScope,
    status: number,
    page: { template: string; title: string; data: object },
  ): Promise<FastifyReply> {
    const head: PageHead = { title: `${page.title} · ${scope.m.siteName}`, robots: 'noindex' };
    const data = { view: 'submit', submissions: request.ctx.settings.submissions, ...page.data };
    const html = await this.pages.render(request, scope, page.template, head, data);
    pagePolicy(reply, this.app.services.config, false);
    return reply
      .code(status)
      .header('Cache-Control', 'no-store')
      .header('Content-Language', scope.lang)
      .type('text/html; charset=utf-8')
      .send(html);
  }

  notice(
    request: FastifyRequest,
    reply: FastifyReply,
    scope: PageScope,
    status: number,
    title: string,
    content: NoticeContent,
  ): Promise<FastifyReply> {
    const data = { heading: title, role: null, link: null, button: null, action: null, ...content };
    return this.answer(request, reply, scope, status, { template: 'submit-notice', title, data });
  }

  /**
   * Who may not see the form: nobody when submissions are off (the site's 404, as for any
   * address that is not there), a visitor who is not signed in when they are for users.
   */
  closed(
    request: FastifyRequest,
    reply: FastifyReply,
    scope: PageScope,
    actor: Actor | null,
  ): Promise<FastifyReply> | null {
    const { settings } = request.ctx;
    if (this.submissions.mayOpen(settings, actor)) return null;
    if (settings.submissions === 'off') return this.pages.problem(request, reply, scope, new PageProblem(404));
    const { m } = scope;
    return this.notice(request, reply, scope, 403, m.submitSignInTitle, {
      text: m.submitSignInText,
      link: { href: '/admin/', text: m.submitSignIn },
    });
  }

  /** The form, with what was typed and what is wrong with it. */
  async form(
    request: FastifyRequest,
    reply: FastifyReply,
    scope: PageScope,
    actor: Actor | null,
    status: number,
    values: SubmissionFields,
    problems: FieldProblem[],
  ): Promise<FastifyReply> {
    const { m } = scope;
    const { assets } = this;
    const choices = await submitChoices(this.app.services.storage.db, scope.lang, MAX_CHOICES);
    const shown = shownProblems(m, problems);
    const data = {
      action: this.formPath(scope),
      values: { ...values, homepage: '', altcha: '' },
      types: { start: dateInputType(values.start, values.all_day), end: dateInputType(values.end, values.all_day) },
      errors: shown.byField,
      summary: shown.summary,
      choices,
      actor: actor === null ? null : { name: fill(m.submitAs, { name: actor.username }) },
      challenge: `${this.formPath(scope)}challenge`,
      assets: {
        stylesheet: assets.altchaStylesheet.path,
        script: assets.altchaScript.path,
        language: assets.altchaLanguages.get(scope.lang)?.path ?? null,
        form: assets.script.path,
        pbkdf2: assets.pbkdf2Worker.path,
        sha: assets.shaWorker.path,
      },
    };
    return this.answer(request, reply, scope, status, { template: 'submit', title: m.submitTitle, data });
  }
}

/** The form (GET, POST), its thank-you page and the widget's challenge. */
function formRoutes(fastify: FastifyInstance, answers: SubmitAnswers): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const options = { schema: { ...PAGE, querystring: PageQuery }, config: PUBLIC, preValidation: answers.keepCaller };

  app.get('/events/submit', options, async (request, reply) => {
    const scope = answers.scopeOf(request);
    const actor = await answers.visitor(request);
    const refusal = answers.closed(request, reply, scope, actor);
    if (refusal) return refusal;
    const sent = param(request.query, 'sent');
    if (sent === 'pending' || sent === 'unconfirmed') {
      const { m } = scope;
      return answers.notice(request, reply, scope, 200, m.submitTitle, {
        text: sent === 'pending' ? m.submitSentPending : m.submitSentUnconfirmed,
        role: 'status',
        link: { href: answers.formPath(scope), text: m.submitAnother },
      });
    }
    return answers.form(request, reply, scope, actor, 200, EMPTY, []);
  });

  // No body schema: any body (none, a form, JSON) is read field by field; an empty one is the empty form.
  app.post('/events/submit', { ...options, schema: PAGE }, async (request, reply) => {
    const scope = answers.scopeOf(request);
    const actor = await answers.visitor(request);
    const refusal = answers.closed(request, reply, scope, actor);
    if (refusal) return refusal;
    const fields = formFields(request.body);
    const userAgent = String(request.headers['user-agent'] ?? '').slice(0, USER_AGENT_READ);
    const meta = { ip: request.ip, lang: scope.lang, actor, userAgent };
    let outcome;
    try {
      outcome = await answers.submissions.submit(fields, meta, { ...request.ctx, actor });
    } catch (error) {
      // What was typed is answered back whatever failed: nothing is lost.
      request.log.error({ err: error }, 'submission failed');
      return answers.form(request, reply, scope, actor, 500, fields, [{ field: 'form', code: 'server_error' }]);
    }
    if (outcome.ok)
      return reply
        .code(303)
        .header('Location', `${answers.formPath(scope)}?sent=${outcome.state}`)
        .send();
    if (outcome.retryAfterSeconds !== undefined) void reply.header('Retry-After', String(outcome.retryAfterSeconds));
    return answers.form(request, reply, scope, actor, outcome.status, fields, outcome.problems);
  });

  // The widget's challenge: a new one each time, never kept by a cache.
  app.get('/events/submit/challenge', options, async (request, reply) => {
    const scope = answers.scopeOf(request);
    const refusal = answers.closed(request, reply, scope, await answers.visitor(request));
    if (refusal) return refusal;
    const challenge = await answers.submissions.challenge();
    return reply.header('Cache-Control', 'no-store').type('application/json; charset=utf-8').send(challenge);
  });
}

/** The links of the mails: the submitter's double opt-in, the moderators' List-Unsubscribe. */
function mailLinkRoutes(fastify: FastifyInstance, answers: SubmitAnswers): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const options = { schema: { ...PAGE, querystring: PageQuery }, config: PUBLIC };

  // Whatever the setting is now, a link already sent works.
  app.get('/events/submit/confirm', options, async (request, reply) => {
    const scope = answers.scopeOf(request);
    const { m } = scope;
    const token = param(request.query, 'token').slice(0, TOKEN_READ);
    const result = await answers.submissions.confirm(token, request.ctx);
    const [status, text] =
      result === 'confirmed'
        ? [200, m.submitConfirmed]
        : result === 'already'
          ? [200, m.submitConfirmAlready]
          : [404, m.submitConfirmUnknown];
    const role = status === 200 ? 'status' : 'alert';
    return answers.notice(request, reply, scope, status, m.submitConfirmTitle, { text, role });
  });

  // A page with a button (a link followed by a mail scanner changes nothing); the button's POST,
  // and a mail client's RFC 8058 one-click POST (`List-Unsubscribe=One-Click`, without Origin: not
  // refused as cross-site), do it.
  app.get('/events/submit/unsubscribe', options, async (request, reply) => {
    const scope = answers.scopeOf(request);
    const { m } = scope;
    return answers.notice(request, reply, scope, 200, m.submitUnsubscribeTitle, {
      text: m.submitUnsubscribeText,
      button: m.submitUnsubscribe,
      // The same address, its language root and token included.
      action: request.originalUrl,
    });
  });

  app.post('/events/submit/unsubscribe', options, async (request, reply) => {
    const scope = answers.scopeOf(request);
    const { m } = scope;
    const done = await answers.submissions.unsubscribe(param(request.query, 'token').slice(0, TOKEN_READ));
    return answers.notice(request, reply, scope, done ? 200 : 404, m.submitUnsubscribeTitle, {
      text: done ? m.submitUnsubscribed : m.submitUnsubscribeUnknown,
      role: done ? 'status' : 'alert',
    });
  });
}

export function submitPages(fastify: FastifyInstance, pages: PageRenderer, assets: SubmitAssets): void {
  const answers = new SubmitAnswers(fastify, pages, assets);
  formRoutes(fastify, answers);
  mailLinkRoutes(fastify, answers);
}
