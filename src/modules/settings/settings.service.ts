import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { bumpDataVersion } from '../../db/data-version.js';
import type { Settings } from '../../http/site-settings.js';
import { randomBytes } from 'node:crypto';
import { readSettings, settingOnce, writeSetting } from './settings.repository.js';

export type { Settings };

const SETTING_KEYS = [
  'timezone',
  'geoloc',
  'geoloc_radius',
  'geoloc_unit',
  'site_url',
  'submissions',
  'submission_confirm',
  'spam_block_days',
] as const satisfies readonly (keyof Settings)[];

/** Settings are re-read at most this often, so every instance sees a change within a second. */
const TTL_MS = 1_000;

/** The site settings: stored rows over the start-up defaults of the configuration. */
export class SettingsStore {
  private cached: { at: number; value: Settings } | null = null;
  private readonly secrets = new Map<string, string>();

  constructor(
    private readonly db: Db,
    private readonly config: Config,
  ) {}

  defaults(): Settings {
    return {
      timezone: this.config.timezone,
      geoloc: this.config.geoloc,
      geoloc_radius: 25,
      geoloc_unit: 'mi',
      site_url: this.config.siteUrl ?? null,
      submissions: 'off',
      submission_confirm: false,
      spam_block_days: 30,
    };
  }

  async get(): Promise<Settings> {
    if (this.cached && Date.now() - this.cached.at < TTL_MS) return this.cached.value;
    const rows = await readSettings(this.db, SETTING_KEYS);
    const value: Settings = this.defaults();
    for (const row of rows) (value as unknown as Record<string, unknown>)[row.key] = JSON.parse(row.value);
    // An operator's CAL_SITE_URL always wins over a stored one.
    if (this.config.siteUrl) value.site_url = this.config.siteUrl;
    this.cached = { at: Date.now(), value };
    return value;
  }

  /**
   * A random secret of the site, made once and shared by every instance through the database (the
   * proof-of-work challenges' signatures, the links in mails): never answered by GET /settings,
   * whose keys are listed above; a copy or backup carries it, so links stay valid after a move.
   */
  async secret(name: string): Promise<string> {
    const known = this.secrets.get(name);
    if (known) return known;
    const value = JSON.parse(
      await settingOnce(this.db, `secret.${name}`, JSON.stringify(randomBytes(32).toString('base64url'))),
    ) as string;
    this.secrets.set(name, value);
    return value;
  }

  async update(patch: Partial<Settings>): Promise<Settings> {
    await this.db.transaction().execute(async (trx) => {
      for (const [key, value] of Object.entries(patch)) {
        if (value === undefined) continue;
        await writeSetting(trx, key, JSON.stringify(value));
      }
      await bumpDataVersion(trx);
    });
    this.cached = null;
    return this.get();
  }
}
