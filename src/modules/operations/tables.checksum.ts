import { createHash } from 'node:crypto';
import type { Row } from './tables.repository.js';

/** A value as either database gives it back: whole numbers of a BIGINT as numbers, bytes as base64. */
function normalized(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (value instanceof Date) return value.toISOString();
  return value;
}

/**
 * Row count and checksum of a table's content, computed the same way on either database: the sum
 * (mod 2^128) of a SHA-256 of each row's normalized values in a fixed column order. A sum does not
 * depend on the order rows come in, which differs where keys are text (PostgreSQL's collation
 * against SQLite's bytes).
 */
export class TableChecksum {
  rows = 0;
  private sum = 0n;

  constructor(private readonly columns: string[]) {}

  add(batch: Row[]): void {
    for (const row of batch) {
      const digest = createHash('sha256')
        .update(JSON.stringify(this.columns.map((c) => normalized(row[c]))))
        .digest();
      this.sum = (this.sum + BigInt(`0x${digest.subarray(0, 16).toString('hex')}`)) & ((1n << 128n) - 1n);
    }
    this.rows += batch.length;
  }

  get value(): string {
    return this.sum.toString(16).padStart(32, '0');
  }
}
