import type { FastifyInstance, FastifyRequest } from 'fastify';

const COUNTED = Symbol('in-flight');

/**
 * Counts handlers still running. On shutdown the server stops taking connections first; a request
 * whose client has gone away may still be running its handler then, and the storage must stay open
 * until it finishes (its write transaction commits or rolls back whole).
 */
export class InFlight {
  private count = 0;
  private waiters: (() => void)[] = [];

  register(app: FastifyInstance): void {
    app.addHook('preHandler', async (request) => {
      (request as FastifyRequest & { [COUNTED]?: boolean })[COUNTED] = true;
      this.count += 1;
    });
    app.addHook('onSend', async (request) => {
      const counted = request as FastifyRequest & { [COUNTED]?: boolean };
      if (!counted[COUNTED]) return;
      counted[COUNTED] = false;
      this.count -= 1;
      if (this.count === 0) for (const resolve of this.waiters.splice(0)) resolve();
    });
  }

  /** Resolves when no handler is running. */
  drained(): Promise<void> {
    return this.count === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}
