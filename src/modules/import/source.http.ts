/**
 * Reading a source over HTTP: JSON only, three tries with backoff for what a retry can fix
 * (network errors, timeouts, 429 and 5xx), and one-line errors that say what to do for what it
 * cannot (HTML instead of JSON, truncated JSON, 401/403). Credentials travel in the header and
 * never appear in a message: URLs in messages are the ones we built, without user info.
 */

export class SourceError extends Error {}

export interface HttpOptions {
  /** `Basic …` or undefined. */
  authorization?: string | undefined;
  timeoutMs?: number;
  tries?: number;
  /** Milliseconds before the second try; doubled for each next one. */
  backoffMs?: number;
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A URL for messages: no user info, no query values that could carry secrets beyond ours. */
export function shown(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(bad URL)';
  }
}

/** GET a JSON document. `allow` lists statuses answered as they are (e.g. 404 for a probe). */
export async function getJson(url: string, options: HttpOptions = {}, allow: number[] = []): Promise<JsonResponse> {
  const tries = options.tries ?? 3;
  let backoff = options.backoffMs ?? 500;
  let last = '';
  for (let attempt = 1; attempt <= tries; attempt += 1) {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { accept: 'application/json', ...(options.authorization ? { authorization: options.authorization } : {}) },
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
        redirect: 'follow',
      });
    } catch (error) {
      last = `${shown(url)}: ${(error as Error).name === 'TimeoutError' ? 'no answer in time' : ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message}`;
      if (attempt < tries) await sleep(backoff);
      backoff *= 2;
      continue;
    }
    if (RETRYABLE.has(response.status) && attempt < tries) {
      last = `${shown(url)} answered ${response.status}`;
      await response.body?.cancel();
      const retryAfter = Number(response.headers.get('retry-after'));
      await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, 10_000) : backoff);
      backoff *= 2;
      continue;
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      throw new SourceError(
        options.authorization
          ? `${shown(url)} refused the credentials (${response.status}): check --user and --password (an application password of a user who may read every record).`
          : `${shown(url)} needs credentials (${response.status}): pass --user and --password (an application password).`,
      );
    }
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    if (!allow.includes(response.status) && response.status >= 400) {
      throw new SourceError(`${shown(url)} answered ${response.status}${type.includes('json') ? `: ${brief(text)}` : ''}.`);
    }
    if (/^\s*</.test(text)) {
      throw new SourceError(`${shown(url)} answered HTML, not JSON: give the REST root of the site (e.g. https://example.org/wp-json/), and check that the REST API is not blocked.`);
    }
    try {
      return { status: response.status, headers: response.headers, body: JSON.parse(text) };
    } catch {
      throw new SourceError(`${shown(url)} answered JSON that does not parse (${text.length} bytes${text.length > 0 ? `, ending "${text.slice(-20)}"` : ''}): the answer was cut off, or the site adds output to its REST answers.`);
    }
  }
  throw new SourceError(`${last}, after ${tries} tries.`);
}

function brief(text: string): string {
  try {
    const body = JSON.parse(text) as { code?: string; message?: string };
    return [body.code, body.message].filter(Boolean).join(': ').slice(0, 200);
  } catch {
    return text.slice(0, 100);
  }
}

/** `Basic …` for a user and an application password (spaces in WordPress's format are kept). */
export function basicAuth(user: string | undefined, password: string | undefined): string | undefined {
  if (!user || password === undefined) return undefined;
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** GET a text document (an iCalendar feed), with the same retries. */
export async function getText(url: string, options: HttpOptions = {}): Promise<string> {
  const tries = options.tries ?? 3;
  let backoff = options.backoffMs ?? 500;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const response = await fetch(url, { headers: { accept: 'text/calendar, */*;q=0.5' }, signal: AbortSignal.timeout(options.timeoutMs ?? 60_000), redirect: 'follow' });
      if (response.ok) return await response.text();
      await response.body?.cancel();
      if (!RETRYABLE.has(response.status) || attempt >= tries) throw new SourceError(`${shown(url)} answered ${response.status}.`);
    } catch (error) {
      if (error instanceof SourceError) throw error;
      if (attempt >= tries) throw new SourceError(`${shown(url)}: ${((error as Error).cause as Error | undefined)?.message ?? (error as Error).message}, after ${tries} tries.`);
    }
    await sleep(backoff);
    backoff *= 2;
  }
}
