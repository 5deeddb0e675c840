import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { bulkCache, SQLITE_BULK_CACHE_KIB, SQLITE_CACHE_KIB, tuneSqliteMemory } from '../../src/db/sqlite-memory.js';

describe('SQLite memory settings', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-sqlite-memory-'));
  const sqlite = new SQLite(path.join(dir, 'memory.sqlite'));
  after(() => {
    sqlite.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('should replace better-sqlite3’s 16 MB page cache and keep reads out of memory maps', () => {
    assert.equal(sqlite.pragma('cache_size', { simple: true }), -16000, 'better-sqlite3’s build default');
    sqlite.pragma('mmap_size = 1048576');
    tuneSqliteMemory(sqlite);
    assert.equal(sqlite.pragma('cache_size', { simple: true }), -SQLITE_CACHE_KIB);
    assert.ok(SQLITE_CACHE_KIB <= 4096);
    assert.equal(sqlite.pragma('mmap_size', { simple: true }), 0);
  });

  it('should give a long run of writes the larger cache while it runs, overlapping runs included, then take it back', async () => {
    tuneSqliteMemory(sqlite);
    const bulk = bulkCache(sqlite);
    const cache = () => sqlite.pragma('cache_size', { simple: true });
    let release!: () => void;
    const first = bulk(() => new Promise<void>((resolve) => (release = resolve)));
    assert.equal(cache(), -SQLITE_BULK_CACHE_KIB);
    await bulk(async () => assert.equal(cache(), -SQLITE_BULK_CACHE_KIB));
    assert.equal(cache(), -SQLITE_BULK_CACHE_KIB, 'the first run still goes on');
    release();
    await first;
    assert.equal(cache(), -SQLITE_CACHE_KIB);
    await assert.rejects(
      bulk(() => Promise.reject(new Error('refused'))),
      /refused/,
    );
    assert.equal(cache(), -SQLITE_CACHE_KIB, 'given back when the work fails too');
  });
});
