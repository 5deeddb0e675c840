import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The pages' own static files (one stylesheet), read once at start-up and served under a name
 * that holds a hash of their content: a new version is a new URL, so browsers may keep each one
 * for a year without asking again.
 */

export interface Asset {
  /** `/assets/calendar.3f2a9c1b7d.css` */
  path: string;
  type: string;
  body: Buffer;
  etag: string;
}

/** Where the page files live beside this module (the build copies them next to the compiled code). */
export function pagesFile(relative: string): string {
  return fileURLToPath(new URL(relative, import.meta.url));
}

function load(file: string, type: string): Asset {
  const body = readFileSync(pagesFile(`./assets/${file}`));
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 10);
  const dot = file.lastIndexOf('.');
  return { path: `/assets/${file.slice(0, dot)}.${hash}${file.slice(dot)}`, type, body, etag: `"${hash}"` };
}

export interface Assets {
  stylesheet: Asset;
  byPath: Map<string, Asset>;
}

export function loadAssets(): Assets {
  const stylesheet = load('calendar.css', 'text/css; charset=utf-8');
  return { stylesheet, byPath: new Map([[stylesheet.path, stylesheet]]) };
}

export const IMMUTABLE = 'public, max-age=31536000, immutable';
