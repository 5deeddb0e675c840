import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';
import { startSmtp, type TestSmtp } from '../../helpers/smtp.js';
import { backgroundContext } from '../../../src/http/context.js';
import type { SubmissionFields } from '../../../src/modules/submissions/submission.schema.js';
import { BLANK_SUBMISSION } from '../../helpers/submission.js';

/**
 * The submissions service and its moderation API against a real database and a real SMTP server:
 * what a submission stores, what it refuses, what moderators see and decide, and the mails.
 */

const FIELDS: SubmissionFields = {
  ...BLANK_SUBMISSION,
  title: 'Jazz on the quay',
  description: 'An evening of jazz.\n\nTickets: https://tickets.example.org/jazz',
  start: '2031-06-05T19:00',
  end: '2031-06-05T22:00',
  timezone: 'Europe/Paris',
  venue_name: 'Quai des Arts',
  venue_address: '1 quai Voltaire',
  venue_city: 'Paris',
  venue_country: 'France',
  organizer_name: 'Jazz Club',
  organizer_email: 'club@example.org',
  organizer_website: 'https://jazz.example.org',
  tags: 'jazz, music',
  cost: '10',
  website: 'https://jazz.example.org/quay',
  name: 'Alice Martin',
  email: 'alice@example.org',
};

let ip = 0;
/** A fresh address per submission unless a test means the same one. */
const meta = (over: Partial<{ ip: string; lang: string }> = {}) => ({
  ip: over.ip ?? `198.51.100.${(ip += 1)}`,
  lang: over.lang ?? 'en',
  actor: null,
  userAgent: 'test',
});

for (const backend of backends()) {
  describe(`submissions and moderation (${backend})`, () => {
    let t: TestApp;
    let smtp: TestSmtp;
    let admin: string;
    let editor: string;
    const ctx = async (lang = 'en') => backgroundContext(t.config, lang, await t.app.services.settings.get());
    let sender = 0;
    /** A fresh e-mail per submission unless the test names one. */
    const submit = async (fields: Partial<SubmissionFields> = {}, m = meta()) =>
      t.app.services.submissions.submit(
        { ...FIELDS, email: `sender${(sender += 1)}@example.org`, ...fields },
        m,
        await ctx(m.lang),
      );
    /** The mail to `to` whose subject matches, once it arrived. */
    const mailTo = async (to: string, subject: RegExp) => {
      const until = Date.now() + 15_000;
      for (;;) {
        const mail = smtp.mails.find((m) => m.envelopeTo.includes(to) && subject.test(m.subject ?? ''));
        if (mail) return mail;
        if (Date.now() > until)
          throw new Error(
            `no mail to ${to} matching ${subject}: ${smtp.mails.map((m) => `${m.envelopeTo} ${m.subject}`).join('; ')}`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    before(async () => {
      smtp = await startSmtp();
      t = await createTestApp(backend, {
        CAL_SMTP_URL: smtp.url,
        CAL_MAIL_FROM: 'Calendar <calendar@example.org>',
        CAL_SUBMISSION_LIMIT: '3',
      });
      admin = (await t.asUser('administrator')).authorization;
      editor = (await t.asUser('editor')).authorization;
      const res = await t.request({
        method: 'PATCH',
        url: '/cal/admin/v1/settings',
        auth: admin,
        payload: { submissions: 'anyone' },
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.data.submissions, 'anyone');
    });
    after(async () => {
      await t.close();
      await smtp.stop();
    });

    it('stores a pending event, the contact apart, and mails the submitter', async () => {
      const outcome = await submit({ email: 'alice@example.org' });
      assert.equal(outcome.ok, true);
      if (!outcome.ok) return;
      assert.equal(outcome.state, 'pending');
      // The public sees nothing of it; an editor sees a pending event.
      const anonymous = await t.request({ url: `/cal/events/v1/events/${outcome.eventId}` });
      assert.ok([401, 403, 404].includes(anonymous.statusCode), String(anonymous.statusCode));
      const seen = await t.request({ url: `/cal/events/v1/events/${outcome.eventId}`, auth: editor });
      assert.equal(seen.data.status, 'pending');
      assert.doesNotMatch(seen.body, /alice@example\.org|Alice Martin/);
      assert.match(seen.data.description, /<a href="https:\/\/tickets\.example\.org\/jazz" rel="nofollow ugc">/);
      const queue = await t.request({ url: '/cal/admin/v1/submissions', auth: editor });
      assert.equal(queue.statusCode, 200);
      const mine = queue.data.find((s: { event_id: number }) => s.event_id === outcome.eventId);
      assert.equal(mine.submitter.email, 'alice@example.org');
      assert.equal(mine.checks.verified, false);
      assert.equal(mine.checks.links, 1);
      assert.ok(mine.new_venue > 0);
      assert.equal(mine.new_organizers.length, 1);
      assert.equal(queue.headers['x-cal-total'], String(queue.data.length));
      const mail = await mailTo('alice@example.org', /Jazz on the quay/);
      assert.ok(mail.text && mail.html);
    });

    it('is refused, storing nothing, for the honeypot, a duplicate, bad input and the rate limit', async () => {
      const count = async () =>
        (await t.request({ url: '/cal/admin/v1/submissions?state=all', auth: editor })).data.length;
      const stored = await count();
      const honeypot = await submit({ homepage: 'http://spam.example', title: 'Other' });
      assert.deepEqual(honeypot, { ok: false, status: 400, problems: [{ field: 'form', code: 'refused' }] });
      const duplicate = await submit({ email: 'alice2@example.org' });
      assert.equal(duplicate.ok, false);
      assert.equal(!duplicate.ok && duplicate.status, 409);
      const bad = await submit({
        title: '',
        start: 'tomorrow',
        email: 'nope',
        description: 'http://a.x http://b.x http://c.x http://d.x',
      });
      assert.equal(bad.ok, false);
      if (!bad.ok)
        assert.deepEqual(bad.problems.map((p) => `${p.field}:${p.code}`).sort(), [
          'description:too_many_links',
          'email:invalid_email',
          'start:invalid_date',
          'title:required',
        ]);
      const same = meta({ ip: '203.0.113.9' });
      for (let i = 0; i < 3; i += 1)
        assert.equal((await submit({ title: `Talk ${i}`, email: `bob${i}@example.org` }, same)).ok, true);
      const limited = await submit({ title: 'Talk 4', email: 'bob9@example.org' }, same);
      assert.equal(!limited.ok && limited.status, 429);
      assert.equal(await count(), stored + 3);
    });

    it('limits concurrent posts from one address exactly (the checks are made again inside the write)', async () => {
      const same = meta({ ip: '203.0.113.44' });
      const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => submit({ title: `Burst ${i}` }, same)));
      assert.equal(outcomes.filter((o) => o.ok).length, 3);
      assert.ok(outcomes.filter((o) => !o.ok).every((o) => !o.ok && o.status === 429));
      const twins = await Promise.all([1, 2, 3].map(() => submit({ title: 'Twin concert' })));
      assert.equal(twins.filter((o) => o.ok).length, 1, 'one of three identical posts');
    });

    it('accepts a solved proof of work once, and refuses a forged or replayed one', async () => {
      const challenge = (await t.app.services.submissions.challenge()) as Parameters<
        typeof solveChallenge
      >[0]['challenge'];
      const solution = await solveChallenge({ challenge, deriveKey });
      assert.ok(solution);
      const payload = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
      const ok = await submit({ title: 'Proven', altcha: payload });
      assert.equal(ok.ok, true);
      const listed = await t.request({ url: `/cal/admin/v1/submissions/${ok.ok ? ok.submissionId : 0}`, auth: editor });
      assert.equal(listed.data.checks.verified, true);
      const replay = await submit({ title: 'Proven again', altcha: payload });
      assert.equal(!replay.ok && replay.problems[0]!.code, 'challenge_failed');
      const forged = await submit({ title: 'Forged', altcha: Buffer.from('{"challenge":{}}').toString('base64') });
      assert.equal(!forged.ok && forged.problems[0]!.code, 'challenge_failed');
    });

    it('approves: the event and its new venue go public, the submitter gets the link (in French)', async () => {
      const outcome = await submit(
        { title: 'Concert au parc', venue_name: 'Parc Monceau', email: 'claire@example.org' },
        meta({ lang: 'fr' }),
      );
      assert.ok(outcome.ok, JSON.stringify(outcome));
      const res = await t.request({
        method: 'PATCH',
        url: `/cal/admin/v1/submissions/${outcome.submissionId}`,
        auth: editor,
        payload: { state: 'approved' },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.data.state, 'approved');
      assert.equal(res.data.event.status, 'publish');
      const event = await t.request({ url: `/fr/cal/events/v1/events/${outcome.eventId}` });
      assert.equal(event.statusCode, 200);
      assert.equal(event.data.venue.status, 'publish');
      const mail = await mailTo('claire@example.org', /publié/);
      assert.match(mail.text ?? '', /\/fr\/event\//);
      const again = await t.request({
        method: 'PATCH',
        url: `/cal/admin/v1/submissions/${outcome.submissionId}`,
        auth: editor,
        payload: { state: 'rejected' },
      });
      assert.equal(again.statusCode, 409);
    });

    it('rejects with a reason the submitter receives; spam blocks the sender', async () => {
      const rejected = await submit({ title: 'Not an event', email: 'dan@example.org' });
      assert.ok(rejected.ok, JSON.stringify(rejected));
      const res = await t.request({
        method: 'PATCH',
        url: `/cal/admin/v1/submissions/${rejected.submissionId}`,
        auth: editor,
        payload: { state: 'rejected', reason: 'This is an advertisement, not an event.' },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.data.event.status, 'trash');
      const mail = await mailTo('dan@example.org', /not published: Not an event/);
      assert.match(mail.text ?? '', /This is an advertisement, not an event\./);

      const spamMeta = meta({ ip: '192.0.2.77' });
      const spam = await submit({ title: 'Cheap pills', email: 'spammer@example.net' }, spamMeta);
      assert.ok(spam.ok);
      const marked = await t.request({
        method: 'PATCH',
        url: `/cal/admin/v1/submissions/${spam.submissionId}`,
        auth: editor,
        payload: { state: 'spam' },
      });
      assert.equal(marked.data.state, 'spam');
      const sameAddress = await submit({ title: 'More pills', email: 'other@example.net' }, spamMeta);
      assert.deepEqual(!sameAddress.ok && sameAddress.problems, [{ field: 'form', code: 'refused' }]);
      const sameEmail = await submit({ title: 'Even more pills', email: 'Spammer+x@example.net' });
      assert.equal(!sameEmail.ok && sameEmail.status, 403);
    });

    it('follows a submission published in the event editor, or trashed from the events list', async () => {
      const published = await submit({ title: 'Edited then published', email: 'erin@example.org' });
      const trashed = await submit({ title: 'Trashed from the list' });
      assert.ok(published.ok && trashed.ok);
      const patch = await t.request({
        method: 'PATCH',
        url: `/cal/events/v1/events/${published.eventId}`,
        auth: editor,
        payload: { title: 'Edited, then published', status: 'publish' },
      });
      assert.equal(patch.statusCode, 200, patch.body);
      const gone = await t.request({ method: 'DELETE', url: `/cal/events/v1/events/${trashed.eventId}`, auth: editor });
      assert.equal(gone.statusCode, 200, gone.body);
      // Each instance does this every minute in the background; here, at once.
      await t.app.services.submissions.reconcile(await ctx());
      assert.equal(await t.app.services.submissions.reconcile(await ctx()), 0, 'once');
      const after = async (id: number) =>
        (await t.request({ url: `/cal/admin/v1/submissions/${id}`, auth: editor })).data.state;
      assert.equal(await after(published.submissionId), 'approved');
      assert.equal(await after(trashed.submissionId), 'rejected');
      const mail = await mailTo('erin@example.org', /published: Edited, then published/);
      assert.match(mail.text ?? '', /\/event\//);
    });

    it('merges a new venue into an existing one', async () => {
      const existing = await t.request({
        method: 'POST',
        url: '/cal/events/v1/venues',
        auth: editor,
        payload: { venue: 'Salle Pleyel', status: 'publish' },
      });
      const outcome = await submit({ title: 'Piano recital', venue_name: 'Pleyel hall' });
      assert.ok(outcome.ok, JSON.stringify(outcome));
      const before = await t.request({ url: `/cal/admin/v1/submissions/${outcome.submissionId}`, auth: editor });
      const res = await t.request({
        method: 'PATCH',
        url: `/cal/admin/v1/submissions/${outcome.submissionId}`,
        auth: editor,
        payload: { venue: existing.data.id },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.data.event.venue.id, existing.data.id);
      assert.equal(res.data.new_venue, null);
      const dropped = await t.request({ url: `/cal/events/v1/venues/${before.data.new_venue}`, auth: editor });
      assert.equal(dropped.data.status, 'trash');
    });

    it('keeps the contact out of the public API, and the queue from the other roles', async () => {
      const author = (await t.asUser('author')).authorization;
      for (const auth of [undefined, author]) {
        const res = await t.request({ url: '/cal/admin/v1/submissions', auth });
        assert.ok([401, 403].includes(res.statusCode), String(res.statusCode));
      }
      const list = await t.request({ url: '/cal/events/v1/events?per_page=50&start_date=2031-01-01' });
      assert.doesNotMatch(list.body, /alice@example\.org|Alice Martin|spammer/);
    });

    it('refuses a bad decision with a 400 and changes nothing', async () => {
      const outcome = await submit({ title: 'Bad decisions' });
      assert.ok(outcome.ok);
      const url = `/cal/admin/v1/submissions/${outcome.submissionId}`;
      for (const payload of [
        { state: 'published' },
        { state: 'rejected', reason: 'x'.repeat(2001) },
        { venue: 'twelve' },
        { organizers: Array.from({ length: 21 }, (_, i) => i + 1) },
      ]) {
        const res = await t.request({ method: 'PATCH', url, auth: editor, payload });
        assert.equal(res.statusCode, 400, JSON.stringify(payload));
        assert.equal(res.data.code, 'rest_invalid_param');
      }
      for (const query of ['state=bogus', 'per_page=500', 'page=0'])
        assert.equal(
          (await t.request({ url: `/cal/admin/v1/submissions?${query}`, auth: editor })).statusCode,
          400,
          query,
        );
      assert.equal((await t.request({ url: '/cal/admin/v1/submissions/999999', auth: editor })).statusCode, 404);
      const still = await t.request({ url, auth: editor });
      assert.equal(still.data.state, 'pending');
      assert.equal(still.data.event.status, 'pending');
    });

    it('reports the mail status', async () => {
      const res = await t.request({ url: '/cal/admin/v1/mail', auth: editor });
      assert.equal(res.data.enabled, true);
      assert.equal(res.data.from, 'Calendar <calendar@example.org>');
      assert.ok(res.data.outbox.sent >= 1);
    });
  });
}
