import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { connect, migrate } from './db/connect.js';
import { isValidTimezone } from './lib/dates.js';
import { trimAfterCollections } from './lib/malloc-trim.js';
import { ensureAdministrator } from './modules/users/user.service.js';
import { strandedRecords } from './modules/languages/language.service.js';
import { maskedConfiguration } from './modules/operations/operations.configuration.js';
import { holdPidFile } from './modules/operations/operations.pid-file.js';
import { shutdown } from './modules/operations/operations.shutdown.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env, isValidTimezone);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const startedAt = performance.now();
  // Loaded only where metrics are on: it brings prom-client (metrics.routes.ts).
  const observeQuery = config.metrics
    ? (await import('./modules/operations/metrics.service.js')).observeQuery
    : undefined;
  const storage = await connect({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    pgPoolSize: config.pgPoolSize,
    sqliteReaders: config.sqliteReaders,
    ...(observeQuery ? { onQuery: (_sql: string, ms: number) => observeQuery(ms) } : {}),
  });
  await migrate(storage.db);
  const app = await buildApp(config, { storage });
  app.log.info({ configuration: maskedConfiguration(config) }, 'configuration');

  const admin = await ensureAdministrator(storage.db, config.adminUser, config.adminPassword);
  if (admin === 'missing') {
    app.log.warn(
      `No administrator yet: set CAL_ADMIN_PASSWORD and restart, or run "npx cal-events user add ${config.adminUser} --role administrator".`,
    );
  } else if (admin !== 'present') {
    app.log.info({ user: config.adminUser, action: admin }, 'administrator ensured from CAL_ADMIN_PASSWORD');
  }
  const stranded = await strandedRecords(storage.db, config.languages);
  if (stranded > 0)
    app.log.warn(
      { records: stranded },
      'records in languages no longer in CAL_LANGUAGES stay stored and readable by id',
    );

  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down: finishing requests in flight');
    await shutdown(app, storage);
  });

  // restore refuses to replace the embedded database of a running service: it looks for this file.
  if (!config.databaseUrl) holdPidFile(config.dataDir);
  const address = await app.listen({ port: config.port, host: config.host });
  // Gives back the memory a load freed, which glibc would keep resident (src/lib/malloc-trim.ts).
  trimAfterCollections({ onTrim: (ms, released) => app.log.debug({ ms, released }, 'malloc trimmed') });
  app.log.info(
    {
      address,
      database: storage.dialect,
      languages: config.languages,
      startupMs: Math.round(performance.now() - startedAt),
      rssMb: Math.round(process.memoryUsage().rss / 1048576),
    },
    'ready',
  );
}

await main();
