/**
 * Whether `value` looks like an e-mail address (one @, a dot in the domain). Deliberately loose:
 * addresses are informative; what needs one (a user's address, a JSON-LD or calendar `mailto:`)
 * asks this, and organizers' free-text e-mail fields are stored as sent.
 */
export function isEmailAddress(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

/** Whether `value` is an absolute http(s) URL (what website fields and site addresses must be). */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
