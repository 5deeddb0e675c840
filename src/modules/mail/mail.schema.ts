/**
 * The mails the service sends, as data: each kind with what its text needs. A mail is rendered in
 * its recipient's language when it is queued (mail.render.ts), and the rendered subject and bodies
 * are what the outbox keeps: what was decided is what is sent, however late.
 */

/** An event as a mail names it. */
export interface MailEvent {
  title: string;
  /** Its start as the reader's language writes it, in the event's own time zone (e.g. "Saturday 5 December 2026, 19:00"). */
  when: string;
}

export type Mail =
  /** To the submitter: we have it, it waits for a moderator. */
  | { kind: 'submission_received'; name: string; event: MailEvent }
  /** To an anonymous submitter when double opt-in is on: confirm the address by following `confirmUrl`. */
  | { kind: 'submission_confirm'; name: string; event: MailEvent; confirmUrl: string }
  /** To the submitter: published, with the event's public page. */
  | { kind: 'submission_published'; name: string; event: MailEvent; url: string }
  /** To the submitter: not published, with the moderator's reason (may be empty). */
  | { kind: 'submission_rejected'; name: string; event: MailEvent; reason: string }
  /** To a moderator who asked for each one: a new submission waits, with a link to the admin's queue. */
  | {
      kind: 'moderator_submission';
      event: MailEvent;
      submitter: string;
      verified: boolean;
      duplicate: boolean;
      queueUrl: string;
      unsubscribeUrl: string;
    }
  /** To a moderator who asked for a digest: what came in over the last day and is still waiting. */
  | {
      kind: 'moderator_digest';
      items: { event: MailEvent; submitter: string; verified: boolean; duplicate: boolean }[];
      waiting: number;
      queueUrl: string;
      unsubscribeUrl: string;
    };

export type MailKind = Mail['kind'];

/** A mail ready for the outbox: what nodemailer is given, minus the sender. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post on moderators' mails. */
  headers: Record<string, string>;
}
