/** Thrown by {@link withTimeout} when the work took too long. */
export class TimeoutError extends Error {}

/**
 * Resolves or rejects as `work` does, or rejects with a TimeoutError after `ms`: what an operator's
 * probe or scrape reads from the database must answer even when the database does not.
 */
export async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_resolve, reject) => (timer = setTimeout(() => reject(new TimeoutError(`no answer within ${ms} ms`)), ms)),
  );
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
