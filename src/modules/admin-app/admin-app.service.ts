import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The admin single-page application, as `npm run build` left it (admin/ built by Vite into
 * dist/admin): its index page, read once, with a placeholder for the CSP nonce of each answer,
 * and the folder of its hashed files.
 */

const NONCE_PLACEHOLDER = '__CAL_CSP_NONCE__';

export interface AdminApp {
  /** Folder of the hashed scripts and styles (served for a year, immutable). */
  assetsDir: string;
  /** Whether the build made this file (the names are read once: a build is never changed in place). */
  hasAsset(file: string): boolean;
  /** The index page with this answer's nonce in it. */
  page(nonce: string): string;
}

/**
 * Where the build puts the admin, seen from this file: dist/admin from the compiled server
 * (dist/src/modules/admin-app/), and the same dist/admin when the server runs from its sources
 * (src/modules/admin-app/) as in tests and `npm run dev`; tests pass a folder of their own (AppDeps.adminDir).
 */
export function defaultAdminDir(): string {
  // Compiled, this file is dist/src/modules/admin-app/*.js; from its sources (tsx), src/modules/admin-app/*.ts.
  const compiled = import.meta.url.endsWith('.js');
  return fileURLToPath(new URL(compiled ? '../../../admin/' : '../../../dist/admin/', import.meta.url));
}

/** The built admin in `dir`, or null when it has not been built (the routes then say how to build it). */
export function loadAdminApp(dir: string): AdminApp | null {
  const indexFile = path.join(dir, 'index.html');
  if (!existsSync(indexFile)) return null;
  const [before, after] = splitOnce(readFileSync(indexFile, 'utf8'), NONCE_PLACEHOLDER);
  const assetsDir = path.join(dir, 'assets');
  const files = new Set(existsSync(assetsDir) ? readdirSync(assetsDir) : []);
  return {
    assetsDir,
    hasAsset: (file) => files.has(file),
    page: (nonce) => (after === undefined ? before : before + nonce + after),
  };
}

function splitOnce(text: string, marker: string): [string, string | undefined] {
  const at = text.indexOf(marker);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + marker.length)];
}

/** A fresh nonce per answer: 128 random bits, as CSP asks. */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * The admin's own Content-Security-Policy, stricter than nothing and wider than the public pages'
 * only where the application needs it: scripts from this origin only (no inline script, no eval),
 * style elements only with this answer's nonce (emotion and FullCalendar insert them), style
 * attributes (MUI positions popovers with them), requests to this origin only, images from
 * anywhere an event's image may be, no frames of it anywhere else.
 */
export function adminPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src-elem 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "style-src 'self'",
    "img-src 'self' https: http: data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
