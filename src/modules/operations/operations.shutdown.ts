import type { FastifyInstance } from 'fastify';
import type { Storage } from '../../db/connect.js';

/** How long responses get, once every handler is done, before the connections left are closed. */
const LINGER_MS = 1_000;

/**
 * Stops the service on SIGTERM (server.ts): the instance turns not ready and stops taking
 * connections, the requests in flight finish, then the storage closes, so a write under way
 * commits or rolls back whole.
 */
export async function shutdown(app: FastifyInstance, storage: Storage): Promise<void> {
  // Readiness answers 503 from now on (also set by the preClose hook; here before anything else).
  app.services.lifecycle.draining = true;
  const closed = app.close();
  await app.services.inFlight.drained();
  // Handlers are done; a connection still open now holds a request its client never finished
  // sending, and would keep the server from closing: give responses a moment, then close them.
  setTimeout(() => app.server.closeAllConnections(), LINGER_MS).unref();
  await closed;
  app.log.info('connections closed');
  await storage.close();
  app.log.info('storage closed');
}
