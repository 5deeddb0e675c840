import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * Content codings of the page cache's stored answers: a cached answer is compressed once per
 * coding and kept beside its bytes, so a hit sends stored bytes whatever the client accepts
 * (answers made afresh are compressed on the way out by @fastify/compress, src/app.ts).
 */

export type Coding = 'br' | 'gzip';

/** Smallest body worth compressing: below it the coding's framing costs about what it saves. */
export const MIN_COMPRESSED = 1024;
/** Characters of Accept-Encoding read at most (browsers send a few dozen). */
const MAX_HEADER = 256;
/**
 * Above this, a lighter brotli (quality 5 instead of 9): a body is compressed on the request that
 * first asks for it in that coding, and quality 9 took about 90 ms on the event loop for a 270 KB
 * month page on a busy machine, quality 5 about 10 ms for some 6 % more bytes (issue 30).
 */
const LARGE = 64 * 1024;

/**
 * The coding to send for an Accept-Encoding header (RFC 9110 §12.5.3): the accepted one with the
 * highest weight, brotli on a tie; null for none (identity). `*` stands for a coding not named.
 */
export function preferredCoding(header: string | string[] | undefined): Coding | null {
  if (header === undefined) return null;
  const text = (Array.isArray(header) ? header.join(',') : header).slice(0, MAX_HEADER).toLowerCase();
  const weights = new Map<string, number>();
  for (const item of text.split(',')) {
    const [name, ...params] = item.split(';').map((part) => part.trim());
    if (!name) continue;
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: Coding) => weights.get(coding) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gzip = weightOf('gzip');
  if (br <= 0 && gzip <= 0) return null;
  return br >= gzip ? 'br' : 'gzip';
}

/** The body in a coding: brotli at a high quality (paid once per cached answer), gzip at zlib's default. */
export function encodeBody(body: Buffer, coding: Coding): Buffer {
  if (coding === 'gzip') return gzipSync(body);
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: body.length > LARGE ? 5 : 9,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      // A window as large as the body and no larger: the same bytes out, and the encoder's buffers
      // (4 MB at the default window) sized to a 5 KB answer when that is what it compresses.
      [constants.BROTLI_PARAM_LGWIN]: windowBits(body.length),
    },
  });
}

/** The brotli window (log2 of its bytes, 10–22 as the format allows; 16 bytes of it are not usable) that holds `length` bytes. */
export function windowBits(length: number): number {
  return Math.min(22, Math.max(10, Math.ceil(Math.log2(length + 16))));
}
