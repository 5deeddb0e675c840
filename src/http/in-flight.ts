import type { RouteOptions } from 'fastify';

/**
 * Counts route handlers still running. On shutdown the server stops taking connections first; a
 * handler whose client has gone away may still be running then, and the storage must stay open
 * until it finishes (its write transaction commits or rolls back whole).
 */
export class InFlight {
  private count = 0;
  private waiters: (() => void)[] = [];

  /** Wraps a route's handler so that every run, however it ends, is counted (used from onRoute). */
  track(route: RouteOptions): void {
    const handler = route.handler;
    const enter = () => {
      this.count += 1;
    };
    const leave = () => {
      this.count -= 1;
      if (this.count === 0) for (const resolve of this.waiters.splice(0)) resolve();
    };
    route.handler = async function tracked(this: unknown, request, reply) {
      enter();
      try {
        return await handler.call(this as never, request, reply);
      } finally {
        leave();
      }
    };
  }

  /** Resolves when no handler is running. */
  drained(): Promise<void> {
    return this.count === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}
