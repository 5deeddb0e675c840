import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
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

function load(file: string, type: string, body: Buffer = readFileSync(pagesFile(`./assets/${file}`))): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 10);
  const dot = file.lastIndexOf('.');
  return { path: `/assets/${file.slice(0, dot)}.${hash}${file.slice(dot)}`, type, body, etag: `"${hash}"` };
}

export interface Assets {
  stylesheet: Asset;
  byPath: Map<string, Asset>;
}

/**
 * The stylesheet: calendar.css, then every other `.css` of ./assets by name (each feature keeps
 * its rules in its own file), served as one file so a page asks for one stylesheet.
 */
function stylesheetBody(): Buffer {
  const others = readdirSync(pagesFile('./assets/'))
    .filter((name) => name.endsWith('.css') && name !== 'calendar.css')
    .sort();
  return Buffer.concat(['calendar.css', ...others].map((name) => readFileSync(pagesFile(`./assets/${name}`))));
}

export function loadAssets(): Assets {
  const stylesheet = load('calendar.css', 'text/css; charset=utf-8', stylesheetBody());
  return { stylesheet, byPath: new Map([[stylesheet.path, stylesheet]]) };
}

export const IMMUTABLE = 'public, max-age=31536000, immutable';
