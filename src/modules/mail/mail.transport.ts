import type { Transporter } from 'nodemailer';
import type { ClaimedMail } from './mail.repository.js';

/**
 * Mail goes out through nodemailer's SMTP transport to the operator's server (CAL_SMTP_URL). The
 * address is the operator's, never a client's, so it does not go through the outbound guard that
 * keeps client-given URLs off private networks. Bounded waits: a server that accepts the
 * connection and then says nothing costs a worker round at most a minute.
 */

export interface SendResult {
  ok: boolean;
  messageId: string;
  error: string;
  /** The server refused this mail for good (5xx): trying again would be refused again. */
  permanent: boolean;
}

export class MailTransport {
  private constructor(
    private readonly transporter: Transporter,
    private readonly from: string,
  ) {}

  /**
   * A transport to the server of `smtpUrl`. nodemailer is loaded here, when the first mail is due,
   * not with the service: 1.9 MB of heap that a calendar which sends no mail never needs.
   */
  static async open(smtpUrl: string, from: string): Promise<MailTransport> {
    const { default: nodemailer } = await import('nodemailer');
    const transporter = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    return new MailTransport(transporter, from);
  }

  async send(mail: ClaimedMail): Promise<SendResult> {
    try {
      const info = (await this.transporter.sendMail({
        from: this.from,
        to: mail.to_address,
        subject: mail.subject,
        text: mail.text_body,
        html: mail.html_body,
        headers: JSON.parse(mail.headers) as Record<string, string>,
      })) as { messageId?: string };
      return { ok: true, messageId: info.messageId ?? '', error: '', permanent: false };
    } catch (error) {
      const { responseCode, message } = error as { responseCode?: number; message?: string };
      return {
        ok: false,
        messageId: '',
        error: String(message ?? error).slice(0, 500),
        permanent: typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600,
      };
    }
  }

  close(): void {
    this.transporter.close();
  }
}
