import { getHeapStatistics } from 'node:v8';
import type { FastifyInstance } from 'fastify';
import underPressure from '@fastify/under-pressure';
import { ApiError } from './errors.js';

/** Seconds a refused client is asked to wait: about two samples, by when the pressure is re-measured. */
const RETRY_AFTER_S = 2;
/** How often the event-loop delay and the heap are sampled. */
const SAMPLE_INTERVAL_MS = 500;
/** After start-up, how long event-loop delay samples are not trusted (they span the start-up itself). */
const WARM_UP_MS = 3 * SAMPLE_INTERVAL_MS;
/** With CAL_MAX_HEAP_USED_MB unset (0), refuse work when the heap nears V8's limit. */
const HEAP_SHARE_OF_LIMIT = 0.9;

/** 503 in the contract's body; logged as a warning by the error handler, not as a failure. */
export class ServiceUnavailable extends ApiError {
  constructor() {
    super(503, 'rest_service_unavailable', 'The service is overloaded. Try again shortly.', {}, { 'Retry-After': String(RETRY_AFTER_S) });
  }
}

export interface OverloadLimits {
  maxEventLoopDelayMs: number;
  maxHeapUsedMb: number;
}

/**
 * Under overload the service says so instead of queueing without bound: while the event loop's
 * mean delay over the last sample, or the heap in use, is above its limit, every request is
 * answered 503 at once, before authentication (a scrypt would add to the load) and before any
 * database work. Registered first, so its hook runs before every other.
 *
 * Event-loop utilisation is deliberately not a criterion: a service answering at full speed on a
 * busy core is near 100 % utilised and still keeps its latency; the delay is what a client feels.
 */
export async function registerOverloadGuard(app: FastifyInstance, limits: OverloadLimits): Promise<void> {
  // Start-up (loading code, migrating, connecting) blocks the loop for a second or so; the samples
  // that span it say nothing of the load, so a delay is not held against the first requests.
  let readyAt = Number.POSITIVE_INFINITY;
  app.addHook('onReady', async () => {
    readyAt = Date.now();
  });
  const heapLimit = limits.maxHeapUsedMb > 0 ? limits.maxHeapUsedMb * 1024 * 1024 : Math.floor(getHeapStatistics().heap_size_limit * HEAP_SHARE_OF_LIMIT);
  await app.register(underPressure, {
    maxEventLoopDelay: limits.maxEventLoopDelayMs,
    maxHeapUsedBytes: heapLimit,
    sampleInterval: SAMPLE_INTERVAL_MS,
    retryAfter: RETRY_AFTER_S,
    customError: ServiceUnavailable,
    pressureHandler: (request, _reply, type) => {
      if (type === 'eventLoopDelay' && Date.now() - readyAt < WARM_UP_MS) return undefined;
      // A busy process is alive: liveness must not get it restarted (readiness takes it out of rotation).
      if (request.url === '/health/live') return undefined;
      return Promise.reject(new ServiceUnavailable());
    },
  });
}
