import {
  OutboundError,
  outboundRequest,
  MAX_REDIRECTS,
  type OutboundPolicy,
  type OutboundResponse,
} from '../../lib/outbound.js';
import { excerpt, redactUrl } from '../../lib/redact.js';

/**
 * Reading a source over HTTP, through the outbound helper (src/lib/outbound.ts: the address guard
 * of CAL_IMPORT_ALLOW_PRIVATE at every redirect hop and at connect time, a byte cap per answer,
 * a deadline): three tries with backoff for what a retry can fix (network errors, timeouts, 429
 * and 5xx), and one-line errors that say what to do for what it cannot (HTML instead of JSON,
 * truncated JSON, 401/403, a refused address, an answer over the cap). Credentials travel in
 * the header and never appear in a message; URLs in messages are redacted (redactUrl), and what
 * the source said is quoted as a short excerpt, never whole.
 */

export class SourceError extends Error {}

export interface HttpOptions {
  /** `Basic …` or undefined. */
  authorization?: string | undefined;
  timeoutMs?: number;
  tries?: number;
  /** Milliseconds before the second try; doubled for each next one. */
  backoffMs?: number;
  /** Where a source may be (CAL_IMPORT_ALLOW_PRIVATE). */
  policy: OutboundPolicy;
  /** Most bytes of one answer, and the setting that raises it (named in the error). */
  maxBytes: number;
  maxBytesSetting: string;
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The message of an outbound failure, with what would lift it when a setting would. */
function outboundMessage(error: OutboundError, options: HttpOptions): string {
  if (error.reason === 'destination' && error.destination === 'private')
    return `${error.message} (CAL_IMPORT_ALLOW_PRIVATE=1 allows importing from a private network).`;
  if (error.reason === 'too-large')
    return `${error.message}: raise ${options.maxBytesSetting} if the source is that large.`;
  return `${error.message}.`;
}

/**
 * GET `url` with retries; answers every status but those retried. `accept` is the Accept header;
 * `timeoutMs` the default deadline of one try.
 */
async function getWithRetries(
  url: string,
  options: HttpOptions,
  accept: string,
  timeoutMs: number,
): Promise<OutboundResponse> {
  const tries = options.tries ?? 3;
  let backoff = options.backoffMs ?? 500;
  let last = '';
  for (let attempt = 1; attempt <= tries; attempt += 1) {
    let response: OutboundResponse;
    try {
      response = await outboundRequest(url, options.policy, {
        headers: { accept, ...(options.authorization ? { authorization: options.authorization } : {}) },
        maxBytes: options.maxBytes,
        maxRedirects: MAX_REDIRECTS,
        timeoutMs: options.timeoutMs ?? timeoutMs,
      });
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      if (!error.retryable) throw new SourceError(outboundMessage(error, options));
      last = error.message;
      if (attempt < tries) await sleep(backoff);
      backoff *= 2;
      continue;
    }
    if (RETRYABLE.has(response.status) && attempt < tries) {
      last = `${redactUrl(url)} answered ${response.status}`;
      const retryAfter = Number(response.headers.get('retry-after'));
      await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, 10_000) : backoff);
      backoff *= 2;
      continue;
    }
    return response;
  }
  throw new SourceError(`${last}, after ${tries} tries.`);
}

/** GET a JSON document. `allow` lists statuses answered as they are (e.g. 404 for a probe). */
export async function getJson(url: string, options: HttpOptions, allow: number[] = []): Promise<JsonResponse> {
  const response = await getWithRetries(url, options, 'application/json', 30_000);
  const shown = redactUrl(url);
  if (response.status === 401 || response.status === 403) {
    throw new SourceError(
      options.authorization
        ? `${shown} refused the credentials (${response.status}): check --user and --password (an application password of a user who may read every record).`
        : `${shown} needs credentials (${response.status}): pass --user and --password (an application password).`,
    );
  }
  const text = response.body.toString('utf8');
  const type = response.headers.get('content-type') ?? '';
  if (!allow.includes(response.status) && response.status >= 400) {
    throw new SourceError(`${shown} answered ${response.status}${type.includes('json') ? `: ${brief(text)}` : ''}.`);
  }
  if (/^\s*</.test(text)) {
    throw new SourceError(
      `${shown} answered HTML, not JSON: give the REST root of the site (e.g. https://example.org/wp-json/), and check that the REST API is not blocked.`,
    );
  }
  try {
    return { status: response.status, headers: response.headers, body: JSON.parse(text) };
  } catch {
    throw new SourceError(
      `${shown} answered JSON that does not parse (${text.length} bytes${text.length > 0 ? `, ending "${excerpt(text.slice(-20), 20)}"` : ''}): the answer was cut off, or the site adds output to its REST answers.`,
    );
  }
}

/** The code and message of a JSON error answer, as an excerpt. */
function brief(text: string): string {
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    return excerpt([body.code, body.message].filter((part) => typeof part === 'string' && part !== '').join(': '));
  } catch {
    return excerpt(text, 100);
  }
}

/** `Basic …` for a user and an application password (spaces in WordPress's format are kept). */
export function basicAuth(user: string | undefined, password: string | undefined): string | undefined {
  if (!user || password === undefined) return undefined;
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** GET a text document (an iCalendar feed), with the same retries. */
export async function getText(url: string, options: HttpOptions): Promise<string> {
  const response = await getWithRetries(url, options, 'text/calendar, */*;q=0.5', 60_000);
  if (response.status >= 300) throw new SourceError(`${redactUrl(url)} answered ${response.status}.`);
  return response.body.toString('utf8');
}
