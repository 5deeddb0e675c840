import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { bumpDataVersion } from '../../db/data-version.js';
import type { Settings } from '../../http/site-settings.js';
import { readSettings, writeSetting } from './settings.repository.js';

export type { Settings };

/** Settings are re-read at most this often, so every instance sees a change within a second. */
const TTL_MS = 1_000;

/** The site settings: stored rows over the start-up defaults of the configuration. */
export class SettingsStore {
  private cached: { at: number; value: Settings } | null = null;

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
    };
  }

  async get(): Promise<Settings> {
    if (this.cached && Date.now() - this.cached.at < TTL_MS) return this.cached.value;
    const rows = await readSettings(this.db, ['timezone', 'geoloc', 'geoloc_radius', 'geoloc_unit', 'site_url']);
    const value: Settings = this.defaults();
    for (const row of rows) (value as unknown as Record<string, unknown>)[row.key] = JSON.parse(row.value);
    // An operator's CAL_SITE_URL always wins over a stored one.
    if (this.config.siteUrl) value.site_url = this.config.siteUrl;
    this.cached = { at: Date.now(), value };
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
