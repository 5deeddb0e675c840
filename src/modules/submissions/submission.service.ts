import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { createChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { verify as verifyAltcha } from 'altcha-lib/frameworks/shared';
import type { Actor } from '../../auth/roles.js';
import { can } from '../../auth/roles.js';
import type { Config } from '../../config.js';
import type { Db, EventRow } from '../../db/database.js';
import { inTransaction, withCommitStep } from '../../db/transaction.js';
import type { RequestContext } from '../../http/context.js';
import { ApiError, conflict, notFound } from '../../http/errors.js';
import type { Settings } from '../../http/site-settings.js';
import { nowUtc } from '../../lib/clock.js';
import { checkEventInput } from '../events/event.input.js';
import { createEvent, eventObject, findEvent, trashEventIn, updateEventIn } from '../events/event.service.js';
import { findLinked, updateLinked } from '../linked/linked.service.js';
import { formatWhen } from '../mail/mail.render.js';
import type { MailEvent } from '../mail/mail.schema.js';
import type { Mailer } from '../mail/mail.service.js';
import { ORGANIZER } from '../organizers/organizer.kind.js';
import type { RecurrencePolicy } from '../recurrence/recurrence.input.js';
import { resolveTermInputs } from '../terms/term.embed.js';
import { findTerm } from '../terms/term.service.js';
import { CATEGORIES } from '../terms/term.taxonomy.js';
import { VENUE } from '../venues/venue.kind.js';
import type { SettingsStore } from '../settings/settings.service.js';
import { checkForm, FIELD_OF_PARAM } from './submission.input.js';
import * as store from './submission.repository.js';
import type { SubmissionRow } from './submission.repository.js';
import type {
  FieldProblem,
  Submission,
  SubmissionFields,
  SubmissionPatch,
  SubmissionState,
  SubmitOutcome,
} from './submission.schema.js';

/**
 * Events from the public form (issue 29), from a visitor's POST to a moderator's decision.
 *
 * A submission is an ordinary event with status `pending`, owned by the signed-in submitter or by
 * the `submissions` account, so every reader that hides drafts from the public (API, feeds,
 * pages, change feed, webhooks) hides it too; its submitter's contact and the checks' results live
 * in the `submissions` table, which no public reader touches. The event, the submission and the
 * mails it causes are written in one transaction.
 *
 * Abuse, cheapest check first: the honeypot (nothing read), the form's own bounds (nothing read),
 * spam blocks and rate limits (one indexed statement each), the proof of work (a signature and one
 * hash), then the events' checks and the duplicate check. A refused attempt stores nothing.
 */

export const SUBMISSIONS_ACCOUNT = 'submissions';

export interface SubmissionMeta {
  ip: string;
  lang: string;
  actor: Actor | null;
  userAgent: string;
}

export interface SubmissionDeps {
  db: Db;
  config: Config;
  settings: SettingsStore;
  mailer: Mailer;
  policy: RecurrencePolicy;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** How long a proof-of-work challenge may be solved and sent back. */
const CHALLENGE_TTL_MS = 20 * 60_000;
/** The ALTCHA payload is a few hundred bytes of base64 JSON; anything much longer is not one. */
const ALTCHA_MAX = 4_000;
/** Moderators' digests: once a day, at this hour of the site's time zone or later. */
const DIGEST_HOUR = 8;

const sha = (text: string): string => createHash('sha256').update(text).digest('base64url');

/**
 * What the rate limits and blocks count by. An IPv6 client holds a /64 (its whole network counts
 * as one address, or a spammer would rotate through 2^64 of them); an e-mail is folded (case, and
 * a `+tag` that reaches the same mailbox).
 */
export function ipKey(ip: string): string {
  if (isIP(ip) === 6) {
    const expanded = ip.includes('::')
      ? ip.replace('::', `:${'0:'.repeat(9 - ip.split(':').length)}`).replace(/^:|:$/g, '')
      : ip;
    return sha(`ip\n${expanded.split(':').slice(0, 4).join(':').toLowerCase()}`);
  }
  return sha(`ip\n${ip}`);
}

export function emailKey(email: string): string {
  const [local = '', domain = ''] = email
    .trim()
    .toLowerCase()
    .split(/@(?=[^@]*$)/);
  return sha(`email\n${local.replace(/\+.*$/, '')}@${domain}`);
}

const refuse = (
  status: 400 | 403 | 409 | 429,
  problems: FieldProblem[],
  retryAfterSeconds?: number,
): SubmitOutcome => ({
  ok: false,
  status,
  problems,
  ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
});

/** A check that failed inside the write: the transaction rolls back and the visitor gets `outcome`. */
class Refusal extends Error {
  constructor(readonly outcome: SubmitOutcome) {
    super('refused');
  }
}

export class Submissions {
  constructor(private readonly deps: SubmissionDeps) {}

  policy(settings: Settings): { mode: Settings['submissions']; confirm: boolean; mailOn: boolean } {
    return { mode: settings.submissions, confirm: settings.submission_confirm, mailOn: this.deps.mailer.enabled };
  }

  /** Off: nobody; users: anyone signed in (subscribers included); anyone: anyone. */
  mayOpen(settings: Settings, actor: Actor | null): boolean {
    return settings.submissions === 'anyone' || (settings.submissions === 'users' && actor !== null);
  }

  private async altchaSecret(): Promise<string> {
    return this.deps.settings.secret('altcha');
  }

  /**
   * A proof-of-work challenge (ALTCHA, PBKDF2): the browser spends about a second finding the
   * counter; the server checks it with one derivation. Signed with the site's secret, so any
   * instance can verify what another issued; it expires after 20 minutes.
   */
  async challenge(): Promise<unknown> {
    return createChallenge({
      algorithm: 'PBKDF2/SHA-256',
      cost: 1_000,
      counter: 1_000 + Math.floor(Math.random() * 4_000),
      deriveKey,
      expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
      hmacSignatureSecret: await this.altchaSecret(),
    });
  }

  /** Whether an ALTCHA payload verifies, once: a solution sent twice is refused the second time. */
  private async verifyProof(payload: string): Promise<boolean> {
    if (payload.length > ALTCHA_MAX) return false;
    const result = await verifyAltcha(payload, deriveKey, await this.altchaSecret(), undefined, undefined);
    if (result.error !== null) return false;
    const { challenge } = result.payload as { challenge: { parameters: { nonce: string } } };
    const now = new Date();
    return store.spendChallenge(
      this.deps.db,
      sha(`altcha\n${challenge.parameters.nonce}`),
      nowUtc(new Date(now.getTime() + CHALLENGE_TTL_MS)),
      nowUtc(now),
    );
  }

  async submit(fields: SubmissionFields, meta: SubmissionMeta, ctx: RequestContext): Promise<SubmitOutcome> {
    const { db, config } = this.deps;
    const settings = ctx.settings;
    if (!this.mayOpen(settings, meta.actor)) return refuse(403, [{ field: 'form', code: 'closed' }]);
    if (fields.homepage !== '') return refuse(400, [{ field: 'form', code: 'refused' }]);

    const signedIn = meta.actor !== null;
    const checked = checkForm(fields, signedIn);
    if (checked.problems.length > 0) return refuse(400, checked.problems);

    const email = signedIn ? '' : fields.email.trim();
    const keys = { ip: ipKey(meta.ip), email: signedIn ? sha(`user\n${meta.actor!.id}`) : emailKey(email) };
    const now = new Date();
    if (await store.isBlocked(db, [keys.ip, keys.email], nowUtc(now)))
      return refuse(403, [{ field: 'form', code: 'refused' }]);
    // Moderators are not limited: they may enter a season's programme through the form.
    const limited = !can(meta.actor, 'edit_others_posts');
    const hourAgo = nowUtc(new Date(now.getTime() - HOUR_MS));
    if (limited) {
      const recent = await store.recentCounts(db, keys.ip, keys.email, hourAgo);
      if (recent.ip >= config.submissionLimit || recent.email >= config.submissionLimit)
        return refuse(429, [{ field: 'form', code: 'rate_limited' }], 3_600);
    }
    let verified = false;
    if (fields.altcha !== '') {
      verified = await this.verifyProof(fields.altcha);
      if (!verified) return refuse(400, [{ field: 'altcha', code: 'challenge_failed' }]);
    }

    const linkProblems = await this.checkChoices(checked, ctx.lang);
    if (linkProblems.length > 0) return refuse(400, linkProblems);

    const accountId = signedIn ? meta.actor!.id : await store.submissionsAccount(db, SUBMISSIONS_ACCOUNT, nowUtc(now));
    // The event is written as a contributor's: whatever it asks, it is pending.
    const writer: RequestContext = {
      ...ctx,
      actor: { id: accountId, username: signedIn ? meta.actor!.username : SUBMISSIONS_ACCOUNT, role: 'contributor' },
    };
    // Only tags that exist are linked now: a new one would be public the moment it is made.
    const tags = await resolveTermInputs(db, 'post_tag', checked.payload['tags'] ?? [], ctx.lang);
    const payload = { ...checked.payload, tags: tags?.ids ?? [] };
    let changes;
    try {
      changes = await checkEventInput(db, payload, writer, null, false, this.deps.policy);
    } catch (error) {
      return refuse(400, eventProblems(error));
    }
    const startLocal = String(changes.columns.start_local ?? '');
    const title = changes.title ?? '';
    const same = await store.sameTitleAndStart(db, ctx.lang, startLocal, title);
    if (same !== null) return refuse(409, [{ field: 'title', code: 'duplicate' }]);
    const nearby = await store.sameTitleOnDay(db, ctx.lang, startLocal.slice(0, 10), title);

    const confirm = !signedIn && settings.submission_confirm && this.deps.mailer.enabled;
    const token = confirm ? randomBytes(24).toString('base64url') : null;
    const state: 'pending' | 'unconfirmed' = confirm ? 'unconfirmed' : 'pending';
    // Read before the write transaction: SQLite's one connection is that transaction's until it ends.
    const submitterEmail = signedIn ? await this.userEmail(meta.actor!.id) : email;
    await this.deps.settings.secret('mail');
    let submissionId = 0;
    try {
      const { row } = await withCommitStep(
        async (trx, result) => {
          const { row: event, organizerIds } = result as { row: EventRow; organizerIds: number[] };
          // Again inside the write, in turn per sender: concurrent posts must not all pass the checks above.
          await store.lockSender(trx, [keys.ip, keys.email, sha(`${ctx.lang}\n${startLocal}\n${title.toLowerCase()}`)]);
          if (limited) {
            const recent = await store.recentCounts(trx, keys.ip, keys.email, hourAgo);
            if (recent.ip >= config.submissionLimit || recent.email >= config.submissionLimit)
              throw new Refusal(refuse(429, [{ field: 'form', code: 'rate_limited' }], 3_600));
          }
          if ((await store.sameTitleAndStart(trx, ctx.lang, startLocal, title, event.id)) !== null)
            throw new Refusal(refuse(409, [{ field: 'title', code: 'duplicate' }]));
          const created = await this.createdLinks(trx, event, organizerIds);
          submissionId = await store.insert(trx, {
            event_id: event.id,
            lang: ctx.lang,
            state,
            name: signedIn ? meta.actor!.username : fields.name.trim(),
            email: submitterEmail,
            user_id: signedIn ? meta.actor!.id : null,
            ip: meta.ip,
            ip_key: keys.ip,
            email_key: keys.email,
            user_agent: meta.userAgent.slice(0, 300),
            verified: verified ? 1 : 0,
            confirmed: signedIn ? 1 : 0,
            confirm_hash: token === null ? null : sha(token),
            duplicate_of: nearby,
            links: checked.links,
            new_venue: created.venue,
            new_organizers: JSON.stringify(created.organizers),
            new_tags: JSON.stringify(tags?.names ?? []),
            reason: '',
            created_utc: nowUtc(now),
            decided_utc: null,
            decided_by: null,
          });
          const submission = (await store.findById(trx, submissionId))!;
          if (token !== null)
            await this.mailSubmitter(trx, submission, event, ctx, {
              kind: 'submission_confirm',
              confirmUrl: `${ctx.pageUrl(ctx.lang, 'events/submit/confirm')}?token=${token}`,
            });
          else await this.announce(trx, submission, event, ctx);
          return true;
        },
        () => createEvent(db, changes, writer, this.deps.policy),
      );
      return { ok: true, submissionId, eventId: row.id, state };
    } catch (error) {
      if (error instanceof Refusal) return error.outcome;
      if (error instanceof ApiError && error.status < 500) return refuse(400, eventProblems(error));
      throw error;
    }
  }

  /** A chosen venue, organizer or category must be a published one of the page's language. */
  private async checkChoices(checked: ReturnType<typeof checkForm>, lang: string): Promise<FieldProblem[]> {
    const { db } = this.deps;
    const problems: FieldProblem[] = [];
    const published = (row: { status: string; lang: string } | undefined) =>
      row !== undefined && row.status === 'publish' && row.lang === lang;
    if (checked.venueId !== null && !published(await findLinked(db, VENUE, checked.venueId)))
      problems.push({ field: 'venue_id', code: 'unknown_venue' });
    if (checked.organizerId !== null && !published(await findLinked(db, ORGANIZER, checked.organizerId)))
      problems.push({ field: 'organizer_id', code: 'unknown_organizer' });
    if (checked.categoryId !== null) {
      const term = await findTerm(db, CATEGORIES, checked.categoryId);
      if (!term || term.lang !== lang) problems.push({ field: 'category_id', code: 'unknown_category' });
    }
    return problems;
  }

  /** The venue and organizers this submission created (not public yet), as opposed to chosen ones. */
  private async createdLinks(
    trx: Db,
    event: EventRow,
    organizerIds: number[],
  ): Promise<{ venue: number | null; organizers: number[] }> {
    const unpublished = async (kind: typeof VENUE, id: number) =>
      (await findLinked(trx, kind, id))?.status !== 'publish';
    const venue = event.venue_id !== null && (await unpublished(VENUE, event.venue_id)) ? event.venue_id : null;
    const organizers: number[] = [];
    for (const id of organizerIds) if (await unpublished(ORGANIZER, id)) organizers.push(id);
    return { venue, organizers };
  }

  private async userEmail(userId: number): Promise<string> {
    return (await store.userEmail(this.deps.db, userId)) ?? '';
  }

  private mailEvent(event: EventRow, lang: string): MailEvent {
    return { title: event.title, when: formatWhen(event.start_local, event.timezone, event.all_day === 1, lang) };
  }

  private site(ctx: RequestContext): { name: string; url: string } {
    return { name: ctx.globalHost, url: ctx.pageUrl(ctx.defaultLanguage, '').replace(/\/+$/, '/') };
  }

  private async mailSubmitter(
    trx: Db,
    submission: SubmissionRow,
    event: EventRow,
    ctx: RequestContext,
    mail:
      | { kind: 'submission_received' }
      | { kind: 'submission_confirm'; confirmUrl: string }
      | { kind: 'submission_published'; url: string }
      | { kind: 'submission_rejected'; reason: string },
  ): Promise<void> {
    const common = { name: submission.name, event: this.mailEvent(event, submission.lang) };
    await this.deps.mailer.queue(
      trx,
      { address: submission.email, lang: submission.lang },
      { ...common, ...mail },
      this.site(ctx),
    );
  }

  /** A submission now waits for a moderator: the submitter is told, and the moderators who asked. */
  private async announce(trx: Db, submission: SubmissionRow, event: EventRow, ctx: RequestContext): Promise<void> {
    await this.mailSubmitter(trx, submission, event, ctx, { kind: 'submission_received' });
    for (const moderator of await store.moderatorsWanting(trx, 'each'))
      await this.deps.mailer.queue(
        trx,
        { address: moderator.email, lang: ctx.defaultLanguage },
        {
          kind: 'moderator_submission',
          event: this.mailEvent(event, ctx.defaultLanguage),
          submitter: `${submission.name} <${submission.email}>`,
          verified: submission.verified === 1,
          duplicate: submission.duplicate_of !== null,
          queueUrl: this.queueUrl(ctx),
          unsubscribeUrl: await this.unsubscribeUrl(ctx, moderator.id),
        },
        this.site(ctx),
      );
  }

  private queueUrl(ctx: RequestContext): string {
    return `${ctx.site}/admin/submissions`;
  }

  private async unsubscribeToken(userId: number): Promise<string> {
    const mac = createHmac('sha256', await this.deps.settings.secret('mail')).update(`unsubscribe\n${userId}`);
    return `${userId}.${mac.digest('base64url')}`;
  }

  private async unsubscribeUrl(ctx: RequestContext, userId: number): Promise<string> {
    return `${ctx.pageUrl(ctx.defaultLanguage, 'events/submit/unsubscribe')}?token=${await this.unsubscribeToken(userId)}`;
  }

  /** A moderator's List-Unsubscribe link: their submission mails stop. False for a link we did not sign. */
  async unsubscribe(token: string): Promise<boolean> {
    const match = /^([1-9]\d{0,9})\.[A-Za-z0-9_-]{43}$/.exec(token.slice(0, 100));
    if (!match) return false;
    const expected = Buffer.from(await this.unsubscribeToken(Number(match[1])));
    const given = Buffer.from(token);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
    return store.setSubmissionMail(this.deps.db, Number(match[1]), 'none');
  }

  /** The double opt-in link: the submission joins the moderators' queue. */
  async confirm(token: string, ctx: RequestContext): Promise<'confirmed' | 'already' | 'unknown'> {
    if (!/^[A-Za-z0-9_-]{32}$/.test(token)) return 'unknown';
    const submission = await store.findByConfirmHash(this.deps.db, sha(token));
    if (!submission) return 'unknown';
    if (submission.state !== 'unconfirmed') return 'already';
    const event = await findEvent(this.deps.db, submission.event_id);
    await this.deps.settings.secret('mail'); // before the transaction, as in submit()
    const moved = await inTransaction(this.deps.db, async (trx) => {
      if (!(await store.update(trx, submission.id, ['unconfirmed'], { state: 'pending', confirmed: 1 }))) return false;
      await this.announce(trx, { ...submission, state: 'pending', confirmed: 1 }, event, ctx);
      return true;
    });
    return moved ? 'confirmed' : 'already';
  }

  // ---- Moderation (cal/admin/v1/submissions) -------------------------------------------------

  async list(state: SubmissionState | 'all', page: number, perPage: number, ctx: RequestContext) {
    const which = state === 'all' ? null : state;
    const [rows, total] = await Promise.all([
      store.page(this.deps.db, which, (page - 1) * perPage, perPage),
      store.count(this.deps.db, which),
    ]);
    const items: Submission[] = [];
    for (const row of rows) items.push(await this.toSubmission(row, ctx));
    return { items, total };
  }

  async get(id: number, ctx: RequestContext): Promise<Submission> {
    return this.toSubmission(await this.find(id), ctx);
  }

  private async find(id: number): Promise<SubmissionRow> {
    const row = await store.findById(this.deps.db, id);
    if (!row) throw notFound('cal_submission_not_found', 'No submission has this id.');
    return row;
  }

  /**
   * A moderator's decision, in one transaction: merges first (the event relinked to existing
   * records, the submission's new ones trashed), then the state: approved publishes the event and
   * what it still links of its own; rejected trashes it and mails the reason; spam trashes it and
   * blocks its address and e-mail. The submitter's mail is queued in the same transaction.
   */
  async decide(id: number, patch: SubmissionPatch, ctx: RequestContext): Promise<Submission> {
    const { db, policy } = this.deps;
    const submission = await this.find(id);
    const open = submission.state === 'pending' || submission.state === 'unconfirmed';
    if (patch.state !== undefined && !open)
      throw conflict('cal_submission_decided', `This submission was already ${submission.state}.`);
    if ((patch.venue !== undefined || patch.organizers !== undefined) && !open)
      throw conflict('cal_submission_decided', `This submission was already ${submission.state}.`);
    const event = await findEvent(db, submission.event_id);
    const relink: Record<string, unknown> = {};
    if (patch.venue !== undefined) relink['venue'] = patch.venue;
    if (patch.organizers !== undefined) relink['organizer'] = patch.organizers;
    if (patch.state === 'approved') {
      relink['status'] = 'publish';
      const named = JSON.parse(submission.new_tags) as string[];
      if (named.length > 0) relink['tags'] = [...(await this.tagIds(event, ctx)), ...named];
    }
    const changes =
      Object.keys(relink).length > 0 ? await checkEventInput(db, relink, ctx, event, false, policy) : null;
    const newOrganizers = JSON.parse(submission.new_organizers) as number[];

    await inTransaction(db, async (trx) => {
      let row = event;
      if (changes) row = await updateEventIn(trx, event, changes, ctx);
      const merged = {
        venue: patch.venue !== undefined && submission.new_venue !== null && patch.venue !== submission.new_venue,
        organizers: patch.organizers !== undefined ? newOrganizers.filter((o) => !patch.organizers!.includes(o)) : [],
      };
      if (merged.venue) await this.setLinkedStatus(trx, VENUE, submission.new_venue!, 'trash', ctx);
      for (const o of merged.organizers) await this.setLinkedStatus(trx, ORGANIZER, o, 'trash', ctx);
      const set: Partial<SubmissionRow> = {};
      if (merged.venue) set.new_venue = null;
      if (merged.organizers.length > 0)
        set.new_organizers = JSON.stringify(newOrganizers.filter((o) => !merged.organizers.includes(o)));
      if (patch.state !== undefined) {
        Object.assign(set, {
          state: patch.state,
          decided_utc: nowUtc(),
          decided_by: ctx.actor?.id ?? null,
          reason: patch.reason?.trim() ?? '',
        });
      }
      if (Object.keys(set).length > 0 && !(await store.update(trx, id, ['pending', 'unconfirmed'], set)))
        throw conflict('cal_submission_decided', 'This submission was decided meanwhile.');
      const decided = { ...submission, ...set };
      if (patch.state === 'approved') {
        // What the submission created and still links goes public with its event.
        if (!merged.venue && submission.new_venue !== null && row.venue_id === submission.new_venue)
          await this.setLinkedStatus(trx, VENUE, submission.new_venue, 'publish', ctx);
        for (const o of newOrganizers.filter((o) => !merged.organizers.includes(o)))
          await this.setLinkedStatus(trx, ORGANIZER, o, 'publish', ctx);
        await this.mailSubmitter(trx, decided, row, ctx, {
          kind: 'submission_published',
          url: ctx.pageUrl(row.lang, `event/${encodeURIComponent(row.slug)}`),
        });
      } else if (patch.state === 'rejected' || patch.state === 'spam') {
        if (row.status !== 'trash') row = await trashEventIn(trx, row, ctx);
        if (patch.state === 'rejected')
          await this.mailSubmitter(trx, decided, row, ctx, { kind: 'submission_rejected', reason: decided.reason });
        else {
          const days = ctx.settings.spam_block_days;
          await store.block(
            trx,
            [submission.ip_key, submission.email_key],
            nowUtc(new Date(Date.now() + days * DAY_MS)),
            id,
          );
        }
      }
    });
    return this.get(id, ctx);
  }

  private async tagIds(event: EventRow, ctx: RequestContext): Promise<number[]> {
    const object = (await eventObject(this.deps.db, event, ctx, true)) as { tags?: { id: number }[] };
    return (object.tags ?? []).map((t) => t.id);
  }

  private async setLinkedStatus(
    trx: Db,
    kind: typeof VENUE,
    id: number,
    status: 'publish' | 'trash',
    ctx: RequestContext,
  ): Promise<void> {
    const row = await findLinked(trx, kind, id);
    if (!row || row.status === status) return;
    await updateLinked(trx, kind, row, { common: { status }, fields: {}, flags: {}, geo: {} }, ctx);
  }

  private async toSubmission(row: SubmissionRow, ctx: RequestContext): Promise<Submission> {
    const event = await findEvent(this.deps.db, row.event_id);
    const object = (await eventObject(this.deps.db, event, ctx, true)) as {
      venue?: { id?: number; venue?: string; status?: string } | unknown[];
      organizer?: { id?: number; organizer?: string; status?: string }[];
    };
    const venue = object.venue && !Array.isArray(object.venue) && object.venue.id ? object.venue : null;
    return {
      id: row.id,
      event_id: row.event_id,
      lang: row.lang,
      state: row.state as SubmissionState,
      created: row.created_utc,
      decided: row.decided_utc,
      reason: row.reason,
      submitter: { name: row.name, email: row.email, user_id: row.user_id, ip: row.ip },
      checks: {
        verified: row.verified === 1,
        confirmed: row.confirmed === 1,
        duplicate_of: row.duplicate_of,
        links: row.links,
      },
      event: {
        id: event.id,
        title: event.title,
        status: event.status,
        start_date: event.start_local,
        end_date: event.end_local,
        all_day: event.all_day === 1,
        timezone: event.timezone,
        venue: venue ? { id: venue.id!, name: venue.venue ?? '', status: venue.status ?? '' } : null,
        organizers: (object.organizer ?? []).map((o) => ({
          id: o.id!,
          name: o.organizer ?? '',
          status: o.status ?? '',
        })),
      },
      new_venue: row.new_venue,
      new_organizers: JSON.parse(row.new_organizers) as number[],
      new_tags: JSON.parse(row.new_tags) as string[],
    };
  }

  /**
   * A moderator may publish a submitted event in the event editor ("Edit event", then Publish)
   * instead of pressing Approve, or trash it from the events list: the submission follows, so
   * the queue does not keep it and the submitter hears of a publication. Run every minute by each
   * instance; the state change is guarded, so one instance mails once. Trashing sends no mail (it
   * is also how a moderator clears spam). Returns how many submissions it closed.
   */
  async reconcile(ctx: RequestContext): Promise<number> {
    const { db } = this.deps;
    let closed = 0;
    for (const submission of await store.decidedElsewhere(db, 50)) {
      const { id } = submission;
      const event = await findEvent(db, submission.event_id);
      const state = submission.event_status === 'publish' ? 'approved' : 'rejected';
      const set = { state, decided_utc: nowUtc(), decided_by: null, reason: '' };
      await inTransaction(db, async (trx) => {
        if (!(await store.update(trx, id, ['pending', 'unconfirmed'], set))) return;
        closed += 1;
        if (state === 'approved')
          await this.mailSubmitter(trx, { ...submission, ...set }, event, ctx, {
            kind: 'submission_published',
            url: ctx.pageUrl(event.lang, `event/${encodeURIComponent(event.slug)}`),
          });
      });
    }
    return closed;
  }

  // ---- Moderators' daily digest ---------------------------------------------------------------

  /**
   * Queues each digest moderator's mail of the day once (the outbox's dedupe key makes two
   * instances queue it once), from the site's DIGEST_HOUR: what came in over the last day and is
   * still waiting. Nothing is sent on a day nothing came in. Returns how many were queued.
   */
  async queueDigests(ctx: RequestContext, at: Date = new Date()): Promise<number> {
    const { db, mailer } = this.deps;
    if (!mailer.enabled) return 0;
    const local = new Intl.DateTimeFormat('en-CA', {
      timeZone: ctx.settings.timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(at);
    const part = (type: string) => local.find((p) => p.type === type)?.value ?? '';
    if (Number(part('hour')) < DIGEST_HOUR) return 0;
    const day = `${part('year')}-${part('month')}-${part('day')}`;
    const moderators = await store.moderatorsWanting(db, 'digest');
    if (moderators.length === 0) return 0;
    const waiting = await store.waitingSince(db, nowUtc(new Date(at.getTime() - DAY_MS)), 50);
    if (waiting.length === 0) return 0;
    const total = await store.count(db, 'pending');
    const items = [];
    for (const s of waiting) {
      const event = await findEvent(db, s.event_id);
      items.push({
        event: this.mailEvent(event, ctx.defaultLanguage),
        submitter: `${s.name} <${s.email}>`,
        verified: s.verified === 1,
        duplicate: s.duplicate_of !== null,
      });
    }
    let queued = 0;
    for (const moderator of moderators) {
      const dedupe = `digest:${moderator.id}:${day}`;
      if (await mailer.isQueued(dedupe)) continue;
      const mail = {
        kind: 'moderator_digest' as const,
        items,
        waiting: total,
        queueUrl: this.queueUrl(ctx),
        unsubscribeUrl: await this.unsubscribeUrl(ctx, moderator.id),
      };
      if (
        await inTransaction(db, (trx) =>
          mailer.queue(trx, { address: moderator.email, lang: ctx.defaultLanguage }, mail, this.site(ctx), dedupe),
        )
      )
        queued += 1;
    }
    return queued;
  }
}

/** The events' checks' refusals, as the form's problems (the API's parameter names mapped to fields). */
function eventProblems(error: unknown): FieldProblem[] {
  if (!(error instanceof ApiError)) throw error;
  const params = (error.data['params'] ?? {}) as Record<string, string>;
  const problems = Object.entries(params).map(([param, detail]) => ({
    field: FIELD_OF_PARAM[param] ?? ('form' as const),
    code: 'invalid' as const,
    detail,
  }));
  return problems.length > 0 ? problems : [{ field: 'form', code: 'invalid', detail: error.message }];
}
