import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { backoffMs, runInBackground } from '../../lib/background.js';
import { nowUtc } from '../../lib/clock.js';
import * as outbox from './mail.repository.js';
import { renderMail } from './mail.render.js';
import type { Mail } from './mail.schema.js';
import { MailTransport } from './mail.transport.js';

/**
 * The service's mail: queued in the transaction of what causes it (a submission, a decision), so
 * a mail is sent if and only if its cause committed, and sent by each instance's worker, which
 * claims what is due (each mail once across instances), retries with backoff for two days while
 * the server is down or refuses for a while, and gives up at once on a permanent refusal.
 * Without CAL_SMTP_URL and CAL_MAIL_FROM mail is off: nothing is queued, and the admin says so.
 */

const LEASE_MS = 120_000;
const GIVE_UP_MS = 48 * 3_600_000;
const BATCH = 20;
/** Sent and failed mails are kept this long (the admin's counts, a look at what went out), then purged. */
const KEEP_MS = 30 * 24 * 3_600_000;
const PURGE_EVERY_MS = 3_600_000;

const stamp = (at: Date, plusMs = 0): string => nowUtc(new Date(at.getTime() + plusMs));

export interface Recipient {
  address: string;
  lang: string;
}

export class Mailer {
  /** Opened when the first mail is due (and again after a failed opening); rounds that overlap share it. */
  private transport: Promise<MailTransport> | null = null;
  private purged = 0;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
  ) {}

  get enabled(): boolean {
    return this.config.smtpUrl !== undefined && this.config.mailFrom !== undefined;
  }

  /**
   * Renders `mail` in the recipient's language and queues it in `trx`. Nothing when mail is off or
   * the address is empty. With `dedupe`, a mail already queued under that key is not queued again.
   */
  async queue(
    trx: Db,
    to: Recipient,
    mail: Mail,
    site: { name: string; url: string },
    dedupe: string | null = null,
  ): Promise<boolean> {
    if (!this.enabled || to.address === '') return false;
    const lang = this.config.languages.includes(to.lang) ? to.lang : this.config.defaultLanguage;
    const rendered = renderMail(mail, lang, site);
    return outbox.enqueue(trx, {
      to_address: to.address,
      lang,
      kind: mail.kind,
      subject: rendered.subject,
      text_body: rendered.text,
      html_body: rendered.html,
      headers: JSON.stringify(rendered.headers),
      dedupe,
      created_utc: nowUtc(),
    });
  }

  isQueued(dedupe: string): Promise<boolean> {
    return outbox.isQueued(this.db, dedupe);
  }

  async status(): Promise<{
    enabled: boolean;
    from: string | null;
    outbox: { pending: number; sent: number; failed: number };
  }> {
    const counts = await outbox.countByStatus(this.db);
    return {
      enabled: this.enabled,
      from: this.config.mailFrom ?? null,
      outbox: { pending: counts['pending'] ?? 0, sent: counts['sent'] ?? 0, failed: counts['failed'] ?? 0 },
    };
  }

  /** One round: claims what is due at `at`, sends it, records each outcome; returns how many were tried. */
  async sendDue(at: Date = new Date()): Promise<number> {
    if (!this.enabled) return 0;
    if (at.getTime() - this.purged >= PURGE_EVERY_MS) {
      this.purged = at.getTime();
      await outbox.purge(this.db, stamp(at, -KEEP_MS));
    }
    const claimed = await outbox.claimDue(this.db, stamp(at), stamp(at, LEASE_MS), BATCH);
    if (claimed.length === 0) return 0;
    this.transport ??= MailTransport.open(this.config.smtpUrl!, this.config.mailFrom!).catch((error: unknown) => {
      this.transport = null;
      throw error;
    });
    const transport = await this.transport;
    for (const [i, mail] of claimed.entries()) {
      const result = await transport.send(mail);
      if (result.ok) await outbox.markSent(this.db, mail.id, result.messageId, stamp(new Date()));
      else if (result.permanent || at.getTime() - Date.parse(`${mail.created_utc.replace(' ', 'T')}Z`) >= GIVE_UP_MS)
        await outbox.markFailed(this.db, mail.id, result.error);
      else {
        // A server that is down fails every mail alike: the rest wait for their next turn untried.
        for (const later of claimed.slice(i))
          await outbox.scheduleRetry(this.db, later.id, result.error, stamp(at, backoffMs(later.attempts)));
        return 0;
      }
    }
    return claimed.length;
  }

  /** Sends every second in the background of this instance. */
  start(app: FastifyInstance): void {
    runInBackground(app, 'mail', () => this.sendDue());
    app.addHook('onClose', async () => (await this.transport?.catch(() => null))?.close());
  }
}
