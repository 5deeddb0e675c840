import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  byteBoundedCache,
  cachePerOwner,
  entryBoundedCache,
  ENTRY_BYTES,
  stringBytes,
} from '../../src/lib/cache-budget.js';

describe('cache budgets', () => {
  it('should count a string one byte a character in Latin-1 and two beyond', () => {
    assert.equal(stringBytes('café'), 16 + 4);
    assert.equal(stringBytes('東京'), 16 + 4);
  });

  it('should drop the least recently used entries beyond a budget in bytes, whatever their number', () => {
    const cache = byteBoundedCache<string, string>(20_000, (value, key) => stringBytes(key) + stringBytes(value));
    for (let i = 0; i < 100; i += 1) cache.set(`k${i}`, 'x');
    assert.equal(cache.size, 100, 'small entries: all of them');
    cache.set('big', 'x'.repeat(19_000));
    assert.ok(cache.calculatedSize <= 20_000, `${cache.calculatedSize}`);
    assert.ok(cache.has('big') && !cache.has('k0'), 'the oldest went first');
    assert.ok(cache.size < 10, `${cache.size} left beside it`);
    assert.ok(cache.calculatedSize >= 19_000 + ENTRY_BYTES);
  });

  it('should keep a number of entries without allocating their slots up front', () => {
    const cache = entryBoundedCache<number, number>(1_000_000, { ttl: 60_000 });
    for (let i = 0; i < 1_000; i += 1) cache.set(i, i);
    assert.equal(cache.size, 1_000);
    const small = entryBoundedCache<number, number>(3);
    for (let i = 0; i < 5; i += 1) small.set(i, i);
    assert.deepEqual([...small.keys()].sort(), [2, 3, 4]);
  });

  it('should keep one cache per owner, each within the budget of its keys', () => {
    const cacheOf = cachePerOwner<object, number>(10 * (stringBytes('key-00') + ENTRY_BYTES));
    const [first, second] = [{}, {}];
    assert.equal(cacheOf(first), cacheOf(first));
    assert.notEqual(cacheOf(first), cacheOf(second));
    for (let i = 0; i < 20; i++) cacheOf(first).set(`key-${String(i).padStart(2, '0')}`, i);
    assert.equal(cacheOf(first).size, 10);
    assert.equal(cacheOf(first).has('key-19'), true);
    assert.equal(cacheOf(second).size, 0);
  });
});
