import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Webhook } from 'standardwebhooks';
import { addressProblem, guardedLookup } from './webhook.address.js';

/**
 * One POST of a signed payload (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`, signed by the `standardwebhooks` package). Redirects are not followed,
 * at most 1 KB of the answer is kept, and the whole exchange has 10 s.
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

export function send(rawUrl: string, body: string, headers: Record<string, string>, allowPrivate: boolean, timeoutMs = TIMEOUT_MS): Promise<SendResult> {
  const started = performance.now();
  const done = (status: number | null, error: string | null, response = ''): SendResult => ({
    status,
    ok: status !== null && status >= 200 && status < 300,
    error,
    response,
    latencyMs: Math.round(performance.now() - started),
  });
  const url = new URL(rawUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An address in the URL is connected to without a lookup: check it here.
  const literal = net.isIP(host) !== 0 ? addressProblem(host, allowPrivate) : null;
  if (literal) return Promise.resolve(done(null, literal));
  return new Promise((resolve) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: guardedLookup(allowPrivate) as never, timeout: timeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      response.on('data', (chunk: Buffer) => {
        if (kept < KEPT_BYTES) {
          chunks.push(chunk.subarray(0, KEPT_BYTES - kept));
          kept += Math.min(chunk.length, KEPT_BYTES - kept);
        }
      });
      response.on('end', () => resolve(done(response.statusCode ?? null, null, Buffer.concat(chunks).toString('utf8'))));
      response.on('error', (error) => resolve(done(response.statusCode ?? null, error.message)));
    });
    const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    request.on('error', (error) => resolve(done(null, error.message)));
    request.on('close', () => clearTimeout(deadline));
    request.end(body);
  });
}
