import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { FastifyInstance } from 'fastify';
import { ServiceUnavailable } from './errors.js';
import { threadCpuMs } from '../lib/cpu-clock.js';

/** How often the event-loop delay, the main thread's CPU time and the heap are sampled. */
const SAMPLE_INTERVAL_MS = 500;
/** The delay histogram's timer period: a timer is due this often, so this much of each gap is not a delay. */
const DELAY_RESOLUTION_MS = 10;
/** After start-up, how long event-loop delay samples are not trusted (they span the start-up itself). */
export const WARM_UP_MS = 3 * SAMPLE_INTERVAL_MS;
/** With CAL_MAX_HEAP_USED_MB unset (0), refuse work when the heap nears V8's limit. */
const HEAP_SHARE_OF_LIMIT = 0.9;

export interface OverloadLimits {
  maxEventLoopDelayMs: number;
  maxHeapUsedMb: number;
}

/** The guard's last sample. */
export interface PressureSample {
  /** Mean event-loop delay (ms): how late the loop's timers ran, whatever kept them waiting. */
  delayMs: number;
  /**
   * CPU time the main thread used over the sample's wall time (1: one core throughout; the
   * process's where Node cannot read one thread's: cpu-clock.ts).
   */
  cpuShare: number;
  /** The delay the service's own work accounts for: `delayMs` times `cpuShare` (at most 1). */
  ownDelayMs: number;
  heapUsedBytes: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The overload guard's last sample, for diagnostics and tests. */
    overloadSample(): PressureSample;
  }
}

/**
 * Under overload the service says so instead of queueing without bound: while the event-loop delay
 * its own work accounts for, over the last two samples, or the heap in use, is above its limit, every
 * request is answered 503 at once, before authentication (a scrypt would add to the load) and before
 * any database work. Registered first, so its hook runs before every other.
 *
 * The delay alone does not tell whose work held the loop: timers also run late while the operating
 * system runs other processes, and refusing this service's clients then sheds nothing (one client
 * reading pages in turn on a busy host was refused nearly every time). Nor does event-loop
 * utilisation: it counts wall time inside callbacks, so a callback the process was taken off the CPU
 * in the middle of counts as busy (measured: mostly 0.9 and more for 50 ms callbacks one after the
 * other beside eight busy processes on two cores, while the process had 2-5 % of a core). The CPU
 * time the process used does tell: the delay is counted in proportion to it, whole when the process
 * ran throughout the sample (its own work, or its own threads), a twentieth when it had a twentieth
 * of a core. A backlog of its own work on a host shared with busy neighbours is still refused once
 * it is long enough to outweigh that share (bench/overload.ts measures both).
 */
export async function registerOverloadGuard(app: FastifyInstance, limits: OverloadLimits): Promise<void> {
  // Start-up (loading code, migrating, connecting) blocks the loop for a second or so; the samples
  // that span it say nothing of the load, so a delay is not held against the first requests.
  let readyAt = Number.POSITIVE_INFINITY;
  app.addHook('onReady', async () => {
    readyAt = Date.now();
  });
  const heapLimit =
    limits.maxHeapUsedMb > 0
      ? limits.maxHeapUsedMb * 1024 * 1024
      : Math.floor(getHeapStatistics().heap_size_limit * HEAP_SHARE_OF_LIMIT);

  const histogram = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
  histogram.enable();
  let sampledAt = performance.now();
  let cpuAt = threadCpuMs();
  let sample: PressureSample = { delayMs: 0, cpuShare: 0, ownDelayMs: 0, heapUsedBytes: 0 };
  let refusing = false;
  let delayedBefore = false;
  const measure = (): void => {
    const now = performance.now();
    const elapsed = Math.max(1, now - sampledAt);
    // The main thread's own CPU time: reader threads and V8's background work do not make the
    // loop's delay its own (cpu-clock.ts).
    const cpuMs = threadCpuMs() - cpuAt;
    // No timer ran at all since the last sample: the loop was held for all of it.
    const delayMs = histogram.count > 0 ? Math.max(0, histogram.mean / 1e6 - DELAY_RESOLUTION_MS) : elapsed;
    const cpuShare = cpuMs / elapsed;
    sample = {
      delayMs,
      cpuShare,
      ownDelayMs: delayMs * Math.min(1, cpuShare),
      heapUsedBytes: process.memoryUsage().heapUsed,
    };
    histogram.reset();
    sampledAt = now;
    cpuAt = threadCpuMs();
    const delayed =
      limits.maxEventLoopDelayMs > 0 &&
      sample.ownDelayMs > limits.maxEventLoopDelayMs &&
      Date.now() - readyAt >= WARM_UP_MS;
    // Refused only once the delay has lasted two samples (a second): a backlog that sheds nothing
    // by itself lasts that long, while one sample over the limit is as likely a single slow
    // statement already over, or a stall of the host the CPU share could not tell apart (a process
    // taken off the CPU for 460 ms in the middle of its work had 15 % of its delay counted as its own).
    refusing = (delayed && delayedBefore) || sample.heapUsedBytes > heapLimit;
    delayedBefore = delayed;
  };
  const timer = setInterval(measure, SAMPLE_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    histogram.disable();
  });
  app.decorate('overloadSample', () => sample);

  app.addHook('onRequest', (request, _reply, done) => {
    // A busy process is alive: liveness must not get it restarted (readiness takes it out of rotation).
    done(refusing && request.url !== '/health/live' ? new ServiceUnavailable() : undefined);
  });
}
