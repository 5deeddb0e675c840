import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

/**
 * A real SMTP server for tests (npm smtp-server), keeping every mail it accepts parsed by an
 * independent parser (mailparser): what a mail client would see. It can be stopped and started
 * again on the same port, as a mail server that goes down and comes back.
 */
export interface TestSmtp {
  port: number;
  url: string;
  mails: (ParsedMail & { envelopeTo: string[] })[];
  /** Waits until at least `count` mails arrived (or throws after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const mails: TestSmtp['mails'] = [];
  let server: SMTPServer | null = null;
  let port = 0;
  const listen = async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const to = session.envelope.rcptTo.map((r) => r.address);
        simpleParser(stream)
          .then((mail) => {
            mails.push(Object.assign(mail, { envelopeTo: to }));
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server!.server.address() as AddressInfo).port;
  };
  await listen();
  return {
    get port() {
      return port;
    },
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    mails,
    async waitFor(count, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      while (mails.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} mails, got ${mails.length}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
      server = null;
    },
    start: listen,
  };
}
