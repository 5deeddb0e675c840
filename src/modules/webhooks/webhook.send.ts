import { Webhook } from 'standardwebhooks';
import { OutboundError, outboundRequest } from '../../lib/outbound.js';

/**
 * One POST of a signed payload (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`, signed by the `standardwebhooks` package) through the outbound helper,
 * which checks the address at connect time. Redirects are not followed (a receiver that moved
 * is a failed delivery, not a lead to follow with our signature), at most 1 KB of the answer is
 * kept, and the whole exchange has 10 s.
 */

export const TIMEOUT_MS = 10_000;
const KEPT_BYTES = 1024;

export interface SendResult {
  /** The HTTP status, or null when none came (refused address, timeout, network error). */
  status: number | null;
  ok: boolean;
  error: string | null;
  response: string;
  latencyMs: number;
}

export function signedHeaders(secret: string, msgId: string, at: Date, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'cal-events-webhooks/1',
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(msgId, at, body),
  };
}

export async function send(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  allowPrivate: boolean,
  timeoutMs = TIMEOUT_MS,
): Promise<SendResult> {
  const started = performance.now();
  const done = (status: number | null, error: string | null, response = ''): SendResult => ({
    status,
    ok: status !== null && status >= 200 && status < 300,
    error,
    response,
    latencyMs: Math.round(performance.now() - started),
  });
  try {
    const answer = await outboundRequest(
      rawUrl,
      { allowPrivate },
      { method: 'POST', headers, body, maxBytes: KEPT_BYTES, overflow: 'truncate', maxRedirects: 0, timeoutMs },
    );
    return done(answer.status, null, answer.body.toString('utf8'));
  } catch (error) {
    if (error instanceof OutboundError) return done(null, error.message);
    throw error;
  }
}
