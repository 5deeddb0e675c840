/**
 * What may be shown of text that is secret or comes from elsewhere: URLs without their
 * credentials and token-like query values (stored import options, messages, the start-up line),
 * and excerpts of what a remote server answered (kept short, so that a source cannot fill the
 * database, a log or a terminal through an error message).
 */

export const REDACTED = 'REDACTED';

/** Words of a query parameter's name that make its value a secret (`access_token`, `X-Amz-Signature`, `apiKey`, `sslpassword`…). */
const SECRET_WORD =
  /token|secret|passw|pwd|signature|credential|apikey|key$|^(sig|auth|authorization|pass|session|sessionid|sid|jwt|hmac)$/;

/** Whether a query parameter named so probably carries a secret. */
export function isSecretParam(name: string): boolean {
  // Words split at separators and at camelCase humps, so `apiKey` and `api_key` read alike.
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.some((w) => SECRET_WORD.test(w)) || SECRET_WORD.test(name.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

export interface RedactOptions {
  /** Keep the user name and mask only the password (a database URL); otherwise both go. */
  keepUser?: boolean;
  /** What replaces a secret value (default `REDACTED`). */
  mask?: string;
}

/**
 * `raw` fit to be stored or shown: no password (and no user name unless `keepUser`, since a token
 * is often passed as one), every secret-looking query value replaced by the mask, no fragment
 * (never sent, and OAuth puts tokens there). Not a URL: `(bad URL)`, never the text itself.
 */
export function redactUrl(raw: string, options: RedactOptions = {}): string {
  const mask = options.mask ?? REDACTED;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '(bad URL)';
  }
  if (options.keepUser) {
    if (url.password !== '') url.password = mask;
  } else {
    url.username = '';
    url.password = '';
  }
  url.hash = '';
  const secret = [...url.searchParams.keys()].filter(isSecretParam);
  // Only a query that holds a secret is re-serialized (URLSearchParams re-encodes all of it).
  if (secret.length > 0) for (const name of new Set(secret)) url.searchParams.set(name, mask);
  return url.toString();
}

/** Most characters of a remote answer quoted in a message. */
export const EXCERPT_CHARS = 200;

/**
 * A remote server's text as a message may quote it: one line (control characters and runs of
 * white space as one space) of at most `max` characters, an ellipsis marking a cut.
 */
export function excerpt(text: string, max = EXCERPT_CHARS): string {
  // Only the start is looked at, so a 100 MB answer costs no more than a short one.
  const head = text.slice(0, max * 4 + 16).replace(/[\s\p{Cc}]+/gu, ' ');
  return head.length > max || text.length > max * 4 + 16 ? `${head.slice(0, max - 1).trimEnd()}…` : head;
}
