import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { ConfigError, loadConfig, type Config } from '../src/config.js';
import { connect, migrate, type Storage } from '../src/db/connect.js';
import { isValidTimezone } from '../src/lib/dates.js';
import { addApplicationPassword, createUser, findUserByName } from '../src/modules/users/user.service.js';
import { startImageServer } from './seed-images.js';
import { seedRealistic, type RealisticSeed } from './seed-realistic.js';

/**
 * The service as `npm start` runs it, in this process, with an administrator the seed can use:
 * for the realistic seed's command line, the page-quality test and the screenshots.
 */

/**
 * Chromium's switches for a machine without a network (as the probe of this kind of machine
 * starts it): headless, as root, and no calls home that a closed network refuses many at a time.
 */
export const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface OpenService {
  app: FastifyInstance;
  storage: Storage;
  config: Config;
  /** Basic header of the seed's own administrator. */
  authorization: string;
  close(): Promise<void>;
}

/**
 * Loads the configuration from `env`, opens and migrates the database, builds the app and makes
 * sure of the seed's administrator (`realistic-seed`; a new application password on every run).
 */
export async function openService(env: Record<string, string>): Promise<OpenService> {
  const config = loadConfig({ LOG_LEVEL: 'silent', CAL_MAX_EVENT_LOOP_DELAY_MS: '0', ...env }, isValidTimezone);
  const storage = await connect({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  await migrate(storage.db);
  // LOG_LEVEL=error in env: a page's 500 shows its stack (the answer itself never carries it).
  const logger = config.logLevel === 'silent' ? false : { level: config.logLevel };
  const app = await buildApp(config, { storage, logger });
  await app.ready();
  const username = 'realistic-seed';
  const existing = await findUserByName(storage.db, username);
  const password = existing
    ? await addApplicationPassword(storage.db, existing.id, 'seed')
    : (await createUser(storage.db, { username, role: 'administrator' })).application_password;
  return {
    app,
    storage,
    config,
    authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
    async close() {
      await app.close();
      await storage.close();
    },
  };
}

/**
 * CAL_MAP_TILES=off (the map drawn as its list only: no tile server is reachable here), when this
 * build's configuration knows the value; an empty object otherwise.
 */
export function tilesOff(): Record<string, string> {
  try {
    loadConfig({ CAL_MAP_TILES: 'off' }, isValidTimezone);
    return { CAL_MAP_TILES: 'off' };
  } catch (error) {
    if (error instanceof ConfigError) return {};
    throw error;
  }
}

export interface RealisticService {
  /** `http://127.0.0.1:PORT` */
  base: string;
  seed: RealisticSeed;
  service: OpenService;
  close(): Promise<void>;
}

/**
 * A service on a fresh SQLite database in a temporary folder, listening on a free port, filled
 * with the realistic seed (its pictures served on another port), the map without tiles, the
 * site's zone Europe/Paris.
 */
export async function startRealisticService(
  options: { month?: string; env?: Record<string, string> } = {},
): Promise<RealisticService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-realistic-'));
  const images = await startImageServer();
  // The seed's city is Strasbourg: its zone, so pages show local times as a site there would.
  const service = await openService({
    DATA_DIR: dataDir,
    CAL_TIMEZONE: 'Europe/Paris',
    ...tilesOff(),
    ...options.env,
  });
  const base = (await service.app.listen({ port: 0, host: '127.0.0.1' })).replace(/\/$/, '');
  const seed = await seedRealistic(service.app, {
    authorization: service.authorization,
    imageBase: images.base,
    ...(options.month ? { month: options.month } : {}),
  });
  return {
    base,
    seed,
    service,
    async close() {
      await service.close();
      await images.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
