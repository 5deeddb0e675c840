import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../../../src/app.js';
import { connect } from '../../../src/db/connect.js';
import { backgroundContext } from '../../../src/http/context.js';
import type { SubmissionFields } from '../../../src/modules/submissions/submission.schema.js';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';
import { startSmtp, type TestSmtp } from '../../helpers/smtp.js';
import type { FastifyInstance } from 'fastify';
import { BLANK_SUBMISSION } from '../../helpers/submission.js';

/**
 * The mail outbox against a real SMTP server that goes down and comes back, with two instances
 * on one database each running its worker: nothing is lost, nothing is sent twice. Also the
 * moderators' mails (each submission, the daily digest once, List-Unsubscribe) and double opt-in.
 */

const FIELDS: SubmissionFields = {
  ...BLANK_SUBMISSION,
  title: 'Outbox test',
  start: '2032-03-01T10:00',
  end: '2032-03-01T11:00',
  timezone: 'UTC',
  name: 'Sam',
  email: 'sam@example.org',
};

/** A header as the mail carried it (mailparser reads List-* headers into objects). */
const rawHeader = (mail: { headerLines: readonly { key: string; line: string }[] }, name: string): string =>
  mail.headerLines.find((h) => h.key === name)?.line.replace(/^[^:]*:\s*/, '') ?? '';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const backend of backends()) {
  describe(`mail outbox (${backend})`, () => {
    let t: TestApp;
    let other: FastifyInstance;
    let otherStorage: Awaited<ReturnType<typeof connect>>;
    let smtp: TestSmtp;
    let editor: { id: number; authorization: string };
    let n = 0;
    const submit = async (fields: Partial<SubmissionFields> = {}) => {
      n += 1;
      const ctx = backgroundContext(t.config, 'en', await t.app.services.settings.get());
      const meta = { ip: `198.51.100.${n}`, lang: 'en', actor: null, userAgent: 'test' };
      const outcome = await t.app.services.submissions.submit(
        { ...FIELDS, title: `Outbox test ${n}`, email: `sender${n}@example.org`, ...fields },
        meta,
        ctx,
      );
      assert.ok(outcome.ok, JSON.stringify(outcome));
      return outcome;
    };
    const outbox = () => t.storage.db.selectFrom('mail_outbox').selectAll().orderBy('id').execute();

    before(async () => {
      smtp = await startSmtp();
      t = await createTestApp(backend, {
        CAL_SMTP_URL: smtp.url,
        CAL_MAIL_FROM: 'calendar@example.org',
        CAL_SUBMISSION_LIMIT: '1000',
      });
      // A second instance on the same database, with its own worker.
      otherStorage = await connect({ dataDir: t.config.dataDir, databaseUrl: t.config.databaseUrl });
      other = await buildApp(t.config, { storage: otherStorage, logger: false });
      await other.ready();
      const admin = (await t.asUser('administrator')).authorization;
      await t.request({
        method: 'PATCH',
        url: '/cal/admin/v1/settings',
        auth: admin,
        payload: { submissions: 'anyone' },
      });
      editor = await t.asUser('editor');
    });
    after(async () => {
      await other.close();
      await otherStorage.close();
      await t.close();
      await smtp.stop();
    });

    it('keeps every mail while the server is down and sends each once when it is back', async () => {
      await smtp.stop();
      const start = smtp.mails.length;
      for (let i = 0; i < 6; i += 1) await submit();
      // Both workers try, fail, and schedule a retry; nothing is lost.
      const until = Date.now() + 10_000;
      while ((await outbox()).some((m) => m.last_error === null) && Date.now() < until) await sleep(100);
      const waiting = await outbox();
      assert.equal(waiting.length, 6);
      for (const mail of waiting) {
        assert.equal(mail.status, 'pending');
        assert.ok(mail.attempts >= 1);
        assert.ok(mail.last_error, 'the failure is recorded');
      }
      await smtp.start();
      // The backoff (seconds) is the worker's business; the test need not wait it out.
      await t.storage.db.updateTable('mail_outbox').set({ next_attempt_utc: '2000-01-01 00:00:00' }).execute();
      await smtp.waitFor(start + 6);
      await sleep(2_500);
      const received = smtp.mails.slice(start);
      assert.equal(received.length, 6, 'each mail once, with two workers');
      assert.deepEqual(received.map((m) => m.envelopeTo[0]).sort(), waiting.map((m) => m.to_address).sort());
      assert.ok((await outbox()).every((m) => m.status === 'sent' && m.message_id));
    });

    it('mails moderators who asked for each submission, and queues a digest once a day', async () => {
      await t.request({
        method: 'PATCH',
        url: `/cal/admin/v1/users/${editor.id}`,
        auth: (await t.asUser('administrator')).authorization,
        payload: { email: 'editor@example.org', submission_mail: 'each' },
      });
      const start = smtp.mails.length;
      await submit({ title: 'For the moderator' });
      await smtp.waitFor(start + 2);
      const note = smtp.mails.slice(start).find((m) => m.envelopeTo.includes('editor@example.org'))!;
      assert.match(note.subject ?? '', /For the moderator/);
      assert.match(rawHeader(note, 'list-unsubscribe'), /unsubscribe\/?\?token=/);

      const own = await t.request({
        method: 'PATCH',
        url: '/cal/admin/v1/users/me',
        auth: editor.authorization,
        payload: { submission_mail: 'digest' },
      });
      assert.equal(own.data.submission_mail, 'digest');
      const morning = new Date();
      morning.setUTCHours(9, 0, 0, 0);
      const ctx = backgroundContext(t.config, 'en', await t.app.services.settings.get());
      const results = await Promise.all([
        t.app.services.submissions.queueDigests(ctx, morning),
        other.services.submissions.queueDigests(ctx, morning),
      ]);
      assert.equal(results[0]! + results[1]!, 1, 'two instances queue one digest');
      assert.equal(await t.app.services.submissions.queueDigests(ctx, morning), 0, 'not twice a day');
      const early = new Date(morning);
      early.setUTCHours(3);
      early.setUTCDate(early.getUTCDate() + 1);
      assert.equal(await t.app.services.submissions.queueDigests(ctx, early), 0, 'not before the hour');
      const before = smtp.mails.length;
      await smtp.waitFor(before + 1);
      const digest = smtp.mails.at(-1)!;
      assert.deepEqual(digest.envelopeTo, ['editor@example.org']);
      assert.equal(rawHeader(digest, 'list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
      const token = /token=([^>\s]+)/.exec(rawHeader(digest, 'list-unsubscribe'))![1]!;
      assert.equal(await t.app.services.submissions.unsubscribe(`${token}x`), false);
      assert.equal(await t.app.services.submissions.unsubscribe(decodeURIComponent(token)), true);
      const me = await t.request({ url: '/cal/admin/v1/users/me', auth: editor.authorization });
      assert.equal(me.data.submission_mail, 'none');
    });

    it('holds an anonymous submission until its address is confirmed (double opt-in)', async () => {
      const admin = (await t.asUser('administrator')).authorization;
      await t.request({
        method: 'PATCH',
        url: '/cal/admin/v1/settings',
        auth: admin,
        payload: { submission_confirm: true },
      });
      await sleep(1_100); // settings are re-read at most every second
      const start = smtp.mails.length;
      const outcome = await submit({ title: 'Needs confirming', email: 'carol@example.org' });
      assert.equal(outcome.ok && outcome.state, 'unconfirmed');
      const queue = await t.request({ url: '/cal/admin/v1/submissions', auth: editor.authorization });
      assert.ok(!queue.data.some((s: { event_id: number }) => outcome.ok && s.event_id === outcome.eventId));
      await smtp.waitFor(start + 1);
      const mail = smtp.mails.slice(start).find((m) => m.envelopeTo.includes('carol@example.org'))!;
      const token = /confirm\/?\?token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
      assert.ok(token, `${mail.subject}\n${mail.text}`);
      const ctx = backgroundContext(t.config, 'en', await t.app.services.settings.get());
      assert.equal(await t.app.services.submissions.confirm('A'.repeat(32), ctx), 'unknown');
      assert.equal(await t.app.services.submissions.confirm(token, ctx), 'confirmed');
      assert.equal(await other.services.submissions.confirm(token, ctx), 'already');
      const after = await t.request({ url: '/cal/admin/v1/submissions', auth: editor.authorization });
      const mine = after.data.find((s: { event_id: number }) => outcome.ok && s.event_id === outcome.eventId);
      assert.equal(mine.checks.confirmed, true);
      await t.request({
        method: 'PATCH',
        url: '/cal/admin/v1/settings',
        auth: admin,
        payload: { submission_confirm: false },
      });
    });
  });
}
