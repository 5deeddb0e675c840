import { isIP } from 'node:net';
import path from 'node:path';
import { isHttpUrl } from './lib/url.js';
import { isValidTimezone } from './lib/dates/zones.js';

/** Every language a site may offer; `CAL_LANGUAGES` must be a subset. */
export const KNOWN_LANGUAGES = [
  'en',
  'fr',
  'it',
  'es',
  'de',
  'nl',
  'pt',
  'pl',
  'sv',
  'da',
  'fi',
  'nb',
  'cs',
  'ja',
  'zh',
  'ru',
] as const;

const MIB = 1024 * 1024;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly languages: readonly string[];
  readonly defaultLanguage: string;
  readonly timezone: string;
  readonly adminUser: string;
  readonly adminPassword: string | undefined;
  readonly geoloc: boolean;
  readonly siteUrl: string | undefined;
  readonly authFailLimit: number;
  /** Event-loop delay (ms, mean over a sample) the service's own work accounts for, above which requests get 503; 0 turns the check off. */
  readonly maxEventLoopDelayMs: number;
  /** V8 heap in use (MB) above which requests get 503; 0 turns the check off. */
  readonly maxHeapUsedMb: number;
  /** PostgreSQL: most connections this instance opens (its writers run side by side up to it). */
  readonly pgPoolSize: number;
  /** SQLite: most worker threads that run reads outside transactions beside the event loop; 0: all on the main connection. */
  readonly sqliteReaders: number;
  /** Most common words whose search totals each instance counts ahead in its background (event-counts.service.ts); 0: none. */
  readonly commonSearches: number;
  /** Most events one calendar feed holds (the nearest to today first); X-Cal-Total says how many matched. */
  readonly feedMaxEvents: number;
  /** Most occurrences one recurring series may have (a longer rule is a 400). */
  readonly recurrenceMax: number;
  /** How far ahead (days from now) a series' occurrences are materialized; a background step extends it. */
  readonly recurrenceHorizonDays: number;
  /** Days of change history the sync feed keeps; older tokens are 410 sync-token-expired. */
  readonly changesRetentionDays: number;
  /** Webhook URLs may be http: and reach loopback and private addresses (tests, private networks). */
  readonly webhooksAllowPrivate: boolean;
  /** Import sources may be loopback and private addresses (tests, private networks). */
  readonly importAllowPrivate: boolean;
  /** Most bytes one answer of a REST source (a page) may have. */
  readonly importMaxPageBytes: number;
  /** Most bytes one iCalendar feed may have. */
  readonly importMaxIcsBytes: number;
  /** GET /metrics (Prometheus text) is served; off by default. */
  readonly metrics: boolean;
  /** Serve /metrics on this port (on HOST) instead of the main one; 0: the main port. */
  readonly metricsPort: number;
  /** Addresses per sitemap file (CAL_SITEMAP_PAGE_SIZE; the protocol allows 50,000 and 50 MB). */
  readonly sitemapPageSize: number;
  readonly logLevel: (typeof LOG_LEVELS)[number];
  /** Origins (besides the service's own) whose pages may send writes from a browser. */
  readonly trustedOrigins: readonly string[];
  /** CSP `frame-ancestors`: who may show the pages in a frame (`'self'`, `'none'`, or origins). */
  readonly frameAncestors: readonly string[];
  /**
   * CSP `frame-ancestors` of the pages asked for as embeds (`?embed=1`): the sites that may show
   * the calendar in an `<iframe>`. Defaults to CAL_FRAME_ANCESTORS.
   */
  readonly embedOrigins: readonly string[];
  /**
   * The map view's tile server, a URL template with `{z}`, `{x}` and `{y}` (Leaflet's), and its
   * attribution; the map is drawn over a list that works without it.
   */
  readonly mapTiles: { readonly url: string; readonly attribution: string };
  /** Most milliseconds a client may take to send a whole request (headers and body); 0 turns it off. */
  readonly requestTimeoutMs: number;
  /** Minutes without a request after which a sign-in session has ended. */
  readonly sessionIdleMinutes: number;
  /** Days after sign-in at which a session ends however much it is used (the cookie's Max-Age). */
  readonly sessionMaxDays: number;
  /**
   * Fastify's `trustProxy`: false (the default), true (believe X-Forwarded-* from anyone: only
   * behind a proxy that overwrites them), or the addresses and ranges of the proxies to believe.
   * It decides the client address (failure limits) and whether a request came over HTTPS (the
   * session cookie's `Secure`).
   */
  readonly trustProxy: boolean | readonly string[];
  /** The SMTP server mail goes through (`smtp://` or `smtps://`, credentials in the URL); unset: mail is off. */
  readonly smtpUrl: string | undefined;
  /** The sender of every mail (`Calendar <calendar@example.org>`); mail is on only with both set. */
  readonly mailFrom: string | undefined;
  /** Most submissions one address network, and one e-mail, may send an hour (the public form). */
  readonly submissionLimit: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

/** CAL_MAP_TILES and CAL_MAP_ATTRIBUTION: the map view's tile template and its credit. */
function mapTileSettings(
  url = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  attribution = '© OpenStreetMap contributors',
  problems: string[],
): Config['mapTiles'] {
  // `off`: the map draws its markers on a blank background (offline machines, tests, Lighthouse).
  const template = /^https?:\/\/[^\s"'<>]+$/.test(url) && ['{z}', '{x}', '{y}'].every((p) => url.includes(p));
  if (url !== 'off' && !template)
    problems.push('CAL_MAP_TILES: expected off or an http(s) URL template with {z}, {x} and {y}');
  if (attribution.length > 300) problems.push('CAL_MAP_ATTRIBUTION: at most 300 characters');
  return { url, attribution };
}

/** CAL_SMTP_URL and CAL_MAIL_FROM: both or neither (mail on or off). */
function mailSettings(
  smtpUrl: string | undefined,
  mailFrom: string | undefined,
  problems: string[],
): { smtpUrl: string | undefined; mailFrom: string | undefined } {
  if (smtpUrl !== undefined && !/^smtps?:\/\/\S+$/.test(smtpUrl))
    problems.push('CAL_SMTP_URL: expected smtp://[user:password@]host[:port] or smtps://…');
  if (mailFrom !== undefined && !/^(?:[^<>\r\n]{0,200}<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/.test(mailFrom))
    problems.push('CAL_MAIL_FROM: expected an address, or a name and <address>');
  if ((smtpUrl === undefined) !== (mailFrom === undefined))
    problems.push('CAL_SMTP_URL and CAL_MAIL_FROM: set both to turn mail on, or neither');
  return { smtpUrl, mailFrom };
}

/**
 * Reads the contract's variables from `env`, applies the defaults and reports every bad value at
 * once (so an operator fixes them in one go). Pure: callers pass `process.env` or a test object.
 */
export function loadConfig(env: Env, isValidZone: (tz: string) => boolean = isValidTimezone): Config {
  const problems: string[] = [];
  const value = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  /** An integer setting within [min, max], its default when unset; a bad one is reported. */
  const int = (name: string, fallback: number, min: number, max: number): number =>
    integer(value(name) ?? String(fallback), name, min, max, problems);
  /** A 0/1 (or true/false) setting, off when unset; a bad one is reported. */
  const flag = (name: string): boolean => {
    const raw = value(name) ?? '0';
    if (!['0', '1', 'true', 'false'].includes(raw)) problems.push(`${name}: expected 0 or 1`);
    return raw === '1' || raw === 'true';
  };

  const port = int('PORT', 8080, 0, 65535);
  const authFailLimit = int('CAL_AUTH_FAIL_LIMIT', 10, 1, 1_000_000);
  const maxEventLoopDelayMs = int('CAL_MAX_EVENT_LOOP_DELAY_MS', 500, 0, 600_000);
  const maxHeapUsedMb = int('CAL_MAX_HEAP_USED_MB', 0, 0, 1_000_000);
  const pgPoolSize = int('CAL_PG_POOL_SIZE', 10, 1, 1000);
  // Read before the problems are reported (a value read after them was taken as 0 whatever it was).
  const sqliteReaders = int('CAL_SQLITE_READERS', 2, 0, 64);
  const commonSearches = int('CAL_COMMON_SEARCHES', 32, 0, 100);
  const feedMaxEvents = int('CAL_FEED_MAX_EVENTS', 2000, 1, 100_000);
  const recurrenceMax = int('CAL_RECURRENCE_MAX', 1000, 1, 100_000);
  const recurrenceHorizonDays = int('CAL_RECURRENCE_HORIZON_DAYS', 730, 1, 36_600);
  const changesRetentionDays = int('CAL_CHANGES_RETENTION_DAYS', 30, 1, 3_650);

  const languages = (value('CAL_LANGUAGES') ?? 'en,fr,it,es,de')
    .split(',')
    .map((l) => l.trim().toLowerCase())
    .filter(Boolean);
  const unknown = languages.filter((l) => !(KNOWN_LANGUAGES as readonly string[]).includes(l));
  if (unknown.length > 0)
    problems.push(
      `CAL_LANGUAGES: unknown language code(s) ${unknown.join(', ')} (known: ${KNOWN_LANGUAGES.join(', ')})`,
    );
  if (languages.length === 0) problems.push('CAL_LANGUAGES: at least one language is needed');
  if (new Set(languages).size !== languages.length) problems.push('CAL_LANGUAGES: a language is listed twice');

  const defaultLanguage = (value('CAL_DEFAULT_LANGUAGE') ?? languages[0] ?? 'en').toLowerCase();
  if (!languages.includes(defaultLanguage))
    problems.push(`CAL_DEFAULT_LANGUAGE: "${defaultLanguage}" is not one of CAL_LANGUAGES`);

  const timezone = value('CAL_TIMEZONE') ?? 'UTC';
  if (!isValidZone(timezone)) problems.push(`CAL_TIMEZONE: "${timezone}" is not a valid time zone`);

  const databaseUrl = value('DATABASE_URL');
  if (databaseUrl !== undefined && !isPostgresUrl(databaseUrl))
    problems.push('DATABASE_URL: expected postgres://user@host:port/database');

  const siteUrl = value('CAL_SITE_URL');
  if (siteUrl !== undefined && !isHttpUrl(siteUrl)) problems.push('CAL_SITE_URL: expected an http(s) URL');

  const webhooksAllowPrivate = flag('CAL_WEBHOOKS_ALLOW_PRIVATE');
  const importAllowPrivate = flag('CAL_IMPORT_ALLOW_PRIVATE');
  // At most 500 MiB: a larger answer could not even be held as one string.
  const importMaxPageBytes = int('CAL_IMPORT_MAX_PAGE_BYTES', 20 * MIB, 1024, 500 * MIB);
  const importMaxIcsBytes = int('CAL_IMPORT_MAX_ICS_BYTES', 100 * MIB, 1024, 500 * MIB);
  const metrics = flag('CAL_METRICS');
  const metricsPort = int('CAL_METRICS_PORT', 0, 0, 65535);
  // 10,000: a file of events with five languages' alternates stays near 10 MB, far from 50 MB.
  const sitemapPageSize = int('CAL_SITEMAP_PAGE_SIZE', 10_000, 1, 50_000);
  const geoloc = flag('CAL_GEOLOC');

  const logLevel = (value('LOG_LEVEL') ?? 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL: expected one of ${LOG_LEVELS.join(', ')}`);
  const adminUser = value('CAL_ADMIN_USER') ?? 'admin';
  if (!/^[A-Za-z0-9_.@-]{1,60}$/.test(adminUser))
    problems.push('CAL_ADMIN_USER: letters, digits and _ . @ - only (at most 60)');

  const trustedOrigins = (value('CAL_TRUSTED_ORIGINS') ?? '').split(/[\s,]+/).filter(Boolean);
  const badOrigins = trustedOrigins.filter((o) => originOf(o) !== o.toLowerCase().replace(/\/+$/, ''));
  if (badOrigins.length > 0)
    problems.push(
      `CAL_TRUSTED_ORIGINS: expected origins such as https://www.example.org, not ${badOrigins.join(', ')}`,
    );

  const frameAncestors = frameSources('CAL_FRAME_ANCESTORS', value('CAL_FRAME_ANCESTORS'), ["'self'"], problems);

  const embedOrigins = frameSources('CAL_EMBED_ORIGINS', value('CAL_EMBED_ORIGINS'), frameAncestors, problems);
  const mapTiles = mapTileSettings(value('CAL_MAP_TILES'), value('CAL_MAP_ATTRIBUTION'), problems);

  const requestTimeoutMs = int('CAL_REQUEST_TIMEOUT_MS', 30_000, 0, 3_600_000);
  const sessionIdleMinutes = int('CAL_SESSION_IDLE_MINUTES', 720, 1, 525_600);
  const sessionMaxDays = int('CAL_SESSION_MAX_DAYS', 14, 1, 3_650);
  if (sessionIdleMinutes > sessionMaxDays * 1440)
    problems.push('CAL_SESSION_IDLE_MINUTES: longer than CAL_SESSION_MAX_DAYS, so it would never apply');
  const trustProxy = proxySetting(value('CAL_TRUST_PROXY'), problems);
  const mail = mailSettings(value('CAL_SMTP_URL'), value('CAL_MAIL_FROM'), problems);
  const submissionLimit = int('CAL_SUBMISSION_LIMIT', 5, 1, 100_000);

  if (problems.length > 0) throw new ConfigError(problems);

  return Object.freeze({
    port,
    host: value('HOST') ?? '127.0.0.1',
    dataDir: path.resolve(value('DATA_DIR') ?? './data'),
    databaseUrl,
    languages: Object.freeze(languages),
    defaultLanguage,
    timezone,
    adminUser,
    adminPassword: env['CAL_ADMIN_PASSWORD'] === '' ? undefined : env['CAL_ADMIN_PASSWORD'],
    geoloc,
    siteUrl: siteUrl?.replace(/\/+$/, ''),
    authFailLimit,
    maxEventLoopDelayMs,
    maxHeapUsedMb,
    pgPoolSize,
    sqliteReaders,
    commonSearches,
    feedMaxEvents,
    recurrenceMax,
    recurrenceHorizonDays,
    changesRetentionDays,
    webhooksAllowPrivate,
    importAllowPrivate,
    importMaxPageBytes,
    importMaxIcsBytes,
    metrics,
    metricsPort,
    sitemapPageSize,
    logLevel,
    trustedOrigins: Object.freeze(trustedOrigins.map((o) => originOf(o)!)),
    frameAncestors: Object.freeze(frameAncestors),
    embedOrigins: Object.freeze(embedOrigins),
    mapTiles: Object.freeze(mapTiles),
    ...mail,
    submissionLimit,
    requestTimeoutMs,
    sessionIdleMinutes,
    sessionMaxDays,
    trustProxy: typeof trustProxy === 'boolean' ? trustProxy : Object.freeze(trustProxy),
  });
}

/** Names proxy-addr knows for groups of addresses. */
const ADDRESS_GROUPS = ['loopback', 'linklocal', 'uniquelocal'];

/** CAL_TRUST_PROXY: 0/false (default), 1/true, or a list of proxy addresses, CIDR ranges and group names. */
function proxySetting(raw: string | undefined, problems: string[]): boolean | string[] {
  if (raw === undefined || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  const entries = raw.split(/[\s,]+/).filter(Boolean);
  const bad = entries.filter((entry) => !ADDRESS_GROUPS.includes(entry) && !isAddressOrRange(entry));
  if (bad.length > 0)
    problems.push(
      `CAL_TRUST_PROXY: expected 0, 1, or proxy addresses such as 10.0.0.1, 10.0.0.0/8, loopback; not ${bad.join(', ')}`,
    );
  return entries;
}

function isAddressOrRange(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** A CSP source a frame-ancestors list may hold: a keyword, or a scheme and host with an optional `*.` and port. */
/** A list of CSP frame sources from the environment (`'self'`, `'none'` alone, or origins), or `fallback`. */
function frameSources(
  name: string,
  raw: string | undefined,
  fallback: readonly string[],
  problems: string[],
): string[] {
  if (raw === undefined) return [...fallback];
  const sources = raw.split(/[\s,]+/).filter(Boolean);
  const bad = sources.filter((a) => !FRAME_SOURCE.test(a));
  if (bad.length > 0)
    problems.push(`${name}: expected 'self', 'none' or origins such as https://www.example.org, not ${bad.join(', ')}`);
  if (sources.includes("'none'") && sources.length > 1) problems.push(`${name}: 'none' stands alone`);
  return sources;
}

const FRAME_SOURCE = /^(?:'self'|'none'|https?:\/\/(?:\*\.)?[a-z0-9.-]+(?::\d{1,5})?)$/i;

/** `scheme://host[:port]` of an http(s) URL, lower-cased; null for anything else. */
function originOf(raw: string): string | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin.toLowerCase() : null;
  } catch {
    return null;
  }
}

function integer(raw: string, name: string, min: number, max: number, problems: string[]): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) {
    problems.push(`${name}: "${raw}" is not an integer between ${min} and ${max}`);
    return min;
  }
  return n;
}

function isPostgresUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
  } catch {
    return false;
  }
}
