import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import { canTrim, trimAfterCollections, trimNow } from '../../src/lib/malloc-trim.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** The process's anonymous resident memory (kB): what malloc's heap adds to. */
const rssAnonKb = () => Number(/RssAnon:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))![1]);

const glibc = (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header.glibcVersionRuntime;

describe('malloc_trim (src/lib/malloc-trim.ts)', { skip: glibc ? false : 'not glibc: nothing to trim' }, () => {
  it('should be callable here (glibc, through koffi)', () => {
    assert.equal(canTrim(), true);
  });

  it('should give back the free pages between buffers still in use', async () => {
    // As a service's transient answers among long-lived cache entries: 64 KB chunks (below
    // malloc's mmap threshold, so in its heap) between small buffers that stay.
    let transient: Buffer[] = [];
    const kept: Buffer[] = [];
    for (let i = 0; i < 400; i += 1) {
      transient.push(Buffer.allocUnsafeSlow(64 * 1024).fill(1));
      kept.push(Buffer.allocUnsafeSlow(2048).fill(2));
    }
    transient = [];
    gc();
    gc();
    await sleep(200);
    const before = rssAnonKb();
    const { released } = await trimNow();
    const after = rssAnonKb();
    assert.equal(released, true);
    // 25 MB were freed; glibc kept them resident until the trim.
    assert.ok(before - after > 10 * 1024, `RssAnon ${before} kB before the trim, ${after} kB after`);
    // Read after the trim, so the kept buffers stay alive (and between the freed ones) until then.
    assert.equal(kept.length, 400);
  });

  it('should trim after a collection, once it has settled', async () => {
    let trims = 0;
    const stop = trimAfterCollections({ everyMs: 0, settleMs: 10, onTrim: () => void (trims += 1) });
    try {
      gc();
      for (let i = 0; i < 100 && trims === 0; i += 1) await sleep(20);
      assert.ok(trims >= 1, 'a trim followed the collection');
    } finally {
      stop();
    }
  });

  it('should trim once more after a collection that came while a trim was waiting', async () => {
    let trims = 0;
    const stop = trimAfterCollections({ everyMs: 200, settleMs: 10, onTrim: () => void (trims += 1) });
    const until = async (count: number) => {
      for (let i = 0; i < 150 && trims < count; i += 1) await sleep(20);
    };
    try {
      gc();
      await until(1);
      // The first waits for `everyMs`; the second comes while it waits, and must still be followed by a trim.
      gc();
      await sleep(30);
      gc();
      await until(3);
      assert.equal(trims, 3);
    } finally {
      stop();
    }
  });
});
