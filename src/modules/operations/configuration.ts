import type { Config } from '../../config.js';

/**
 * The configuration as the start-up line states it: every setting, with the secrets masked (the
 * administrator's password, the password in DATABASE_URL), so a log shows how an instance runs
 * without handing out its keys.
 */
export function maskedConfiguration(config: Config): Record<string, unknown> {
  return {
    ...config,
    adminPassword: config.adminPassword === undefined ? undefined : '***',
    databaseUrl: config.databaseUrl === undefined ? undefined : maskUrl(config.databaseUrl),
  };
}

/** A database URL with its password as `***`. */
export function maskUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return '***';
  }
}
