import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The pages' own static files (one stylesheet; the map view's script, and Leaflet's script,
 * stylesheet and images; the submission form's script and ALTCHA's files), read once at start-up and served under a name that holds a hash of
 * their content: a new version is a new URL, so browsers may keep each one for a year without
 * asking again.
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

/** The map view's files: only its page asks for them. */
export interface MapAssets {
  /** Our assets/map.js, which draws the map from the page's data-* attributes. */
  script: Asset;
  leafletScript: Asset;
  /** Leaflet's stylesheet, its images' addresses rewritten to their served names. */
  leafletStylesheet: Asset;
  markerIcon: Asset;
  markerIcon2x: Asset;
  markerShadow: Asset;
}

/**
 * The submission form's files: our assets/submit.js, and ALTCHA's widget in its `external` build
 * (no styles injected inline, no workers made from blob: URLs), its stylesheet, its proof-of-work
 * workers (served from here, so the pages' `script-src 'self'` covers them) and its words in the
 * site languages (English is built in). Only the form's page asks for them.
 */
export interface SubmitAssets {
  script: Asset;
  altchaScript: Asset;
  altchaStylesheet: Asset;
  pbkdf2Worker: Asset;
  shaWorker: Asset;
  altchaLanguages: Map<string, Asset>;
}

export interface Assets {
  stylesheet: Asset;
  map: MapAssets;
  submit: SubmitAssets;
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

const SCRIPT = 'text/javascript; charset=utf-8';
const LEAFLET_IMAGES = ['marker-icon.png', 'marker-icon-2x.png', 'marker-shadow.png', 'layers.png', 'layers-2x.png'];

/**
 * Leaflet's own files, found through Node's resolution from this module (from src/ under tsx as
 * from dist/ once built), never copied: the installed version is the one served.
 */
function leafletAssets(): { script: Asset; stylesheet: Asset; images: Map<string, Asset> } {
  const dist = dirname(createRequire(import.meta.url).resolve('leaflet/dist/leaflet.js'));
  const images = new Map(
    LEAFLET_IMAGES.map((name) => [
      name,
      load(`leaflet-${name}`, 'image/png', readFileSync(join(dist, 'images', name))),
    ]),
  );
  // Its stylesheet names its images relatively (images/layers.png): they are served under hashed names.
  const css = readFileSync(join(dist, 'leaflet.css'), 'utf8').replace(
    /url\(images\/([\w-]+\.png)\)/g,
    (whole, name: string) => `url(${images.get(name)?.path ?? whole})`,
  );
  return {
    // Without its source map's address: the map is not served, and a tool following it would find a 404.
    script: load(
      'leaflet.js',
      SCRIPT,
      Buffer.from(readFileSync(join(dist, 'leaflet.js'), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n')),
    ),
    stylesheet: load('leaflet.css', 'text/css; charset=utf-8', Buffer.from(css)),
    images,
  };
}

/** ALTCHA's translation file of each site language it has one for. */
const ALTCHA_LANGUAGES: Record<string, string> = { fr: 'fr-fr', it: 'it', es: 'es-es', de: 'de' };

/** ALTCHA's files, found and served as Leaflet's are (the installed version is the one served). */
function submitAssets(): SubmitAssets {
  const dist = join(dirname(createRequire(import.meta.url).resolve('altcha/external')), '..');
  const script = (name: string, file: string) =>
    load(
      name,
      SCRIPT,
      Buffer.from(readFileSync(join(dist, file), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n')),
    );
  return {
    script: load('submit.js', SCRIPT),
    altchaScript: script('altcha.js', 'external/altcha.min.js'),
    altchaStylesheet: load('altcha.css', 'text/css; charset=utf-8', readFileSync(join(dist, 'external/altcha.css'))),
    pbkdf2Worker: script('altcha-pbkdf2.js', 'workers/pbkdf2.js'),
    shaWorker: script('altcha-sha.js', 'workers/sha.js'),
    altchaLanguages: new Map(
      Object.entries(ALTCHA_LANGUAGES).map(([lang, file]) => [lang, script(`altcha-${file}.js`, `i18n/${file}.js`)]),
    ),
  };
}

export function loadAssets(): Assets {
  const stylesheet = load('calendar.css', 'text/css; charset=utf-8', stylesheetBody());
  const leaflet = leafletAssets();
  const map: MapAssets = {
    script: load('map.js', SCRIPT),
    leafletScript: leaflet.script,
    leafletStylesheet: leaflet.stylesheet,
    markerIcon: leaflet.images.get('marker-icon.png')!,
    markerIcon2x: leaflet.images.get('marker-icon-2x.png')!,
    markerShadow: leaflet.images.get('marker-shadow.png')!,
  };
  const submit = submitAssets();
  const all = [
    stylesheet,
    map.script,
    leaflet.script,
    leaflet.stylesheet,
    ...leaflet.images.values(),
    submit.script,
    submit.altchaScript,
    submit.altchaStylesheet,
    submit.pbkdf2Worker,
    submit.shaWorker,
    ...submit.altchaLanguages.values(),
  ];
  return { stylesheet, map, submit, byPath: new Map(all.map((asset) => [asset.path, asset])) };
}

export const IMMUTABLE = 'public, max-age=31536000, immutable';
