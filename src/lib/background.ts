import type { FastifyInstance } from 'fastify';

/**
 * What the outboxes (webhook deliveries, mail) share: the wait before a new attempt, and the
 * loop each instance runs in its background to drain what is due.
 */

/** The wait before attempt `attempts + 1`: 5 s doubling, at most an hour, times 0.5-1.5 (jitter). */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  return Math.round(Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 3_600_000) * (0.5 + random()));
}

/**
 * Runs `round` every `everyMs` while the app is up, one round at a time, again at once while a
 * round did some work (it answers how much): a backlog drains without waiting a tick per batch.
 * Closing the app waits for the round in progress.
 */
export function runInBackground(
  app: FastifyInstance,
  name: string,
  round: () => Promise<number>,
  everyMs = 1_000,
): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | null = null;
  let closing = false;
  const tick = () => {
    if (running) return;
    running = (async () => {
      while (!closing && (await round()) > 0) {
        /* drain what is due */
      }
    })()
      .catch((error: unknown) => app.log.error({ err: error }, `${name} failed`))
      .finally(() => (running = null));
  };
  app.addHook('onReady', async () => {
    timer = setInterval(tick, everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    closing = true;
    clearInterval(timer);
    await running;
  });
}
