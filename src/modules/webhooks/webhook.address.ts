import { hostProblem } from '../../lib/outbound.js';

/**
 * Where a webhook may be sent (SSRF): `https:` to public addresses; `http:` and loopback or
 * private addresses only when CAL_WEBHOOKS_ALLOW_PRIVATE is on; cloud metadata addresses never.
 * Checked here when a subscription is saved, and again at every delivery by the outbound helper
 * (src/lib/outbound.ts) on the address the name resolves to then, inside the connection's own
 * lookup.
 */

/** Why a subscription URL is refused, or null. */
export function urlProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url is not a URL.';
  }
  if (raw.length > 2000) return 'url is longer than 2000 characters.';
  if (url.username !== '' || url.password !== '') return 'url must not hold credentials.';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowPrivate))
    return allowPrivate ? 'url must be http: or https:.' : 'url must be https:.';
  const problem = hostProblem(url, { allowPrivate });
  return problem ? `url must not point there: ${problem.message}.` : null;
}
