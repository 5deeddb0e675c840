import type { Config } from '../../config.js';
import { redactUrl } from '../../lib/redact.js';

/**
 * The configuration as the start-up line states it: every setting, with the secrets masked (the
 * administrator's password, the password and secret query values in DATABASE_URL), so a log
 * shows how an instance runs without handing out its keys.
 */
export function maskedConfiguration(config: Config): Record<string, unknown> {
  return {
    ...config,
    adminPassword: config.adminPassword === undefined ? undefined : '***',
    databaseUrl: config.databaseUrl === undefined ? undefined : maskUrl(config.databaseUrl),
  };
}

/**
 * A database URL with its password as `***`, in the user info and in the query too
 * (`?password=`, `sslpassword=`, and any other secret-looking parameter); the user is kept.
 */
export function maskUrl(raw: string): string {
  const masked = redactUrl(raw, { keepUser: true, mask: '***' });
  return masked === '(bad URL)' ? '***' : masked;
}
