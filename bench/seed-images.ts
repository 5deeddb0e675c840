import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Pictures for the realistic seed that work with no network: the service stores an image as a
 * URL (SPEC item 10) and never downloads it, so the pages' `<img>` point wherever the seed said.
 * This serves one small SVG per name (a gradient and a few shapes, its colours derived from the
 * name), so a page with pictures loads completely on a closed machine, and Lighthouse sees no
 * failed request. SVG: a few hundred bytes each, sharp at any size, no image library needed.
 */

const NAME = /^[a-z0-9-]{1,60}$/;
export const IMAGE_WIDTH = 1200;
export const IMAGE_HEIGHT = 800;

function hash(text: string): number {
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h;
}

/** The picture of `name`: deterministic, so screenshots stay the same from run to run. */
export function imageSvg(name: string): string {
  const h = hash(name);
  const hue = h % 360;
  const hue2 = (hue + 40 + ((h >> 9) % 80)) % 360;
  const cx = 200 + ((h >> 3) % 800);
  const cy = 150 + ((h >> 13) % 400);
  const r = 120 + ((h >> 7) % 180);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" viewBox="0 0 ${IMAGE_WIDTH} ${IMAGE_HEIGHT}">`,
    '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">',
    `<stop offset="0" stop-color="hsl(${hue} 70% 55%)"/><stop offset="1" stop-color="hsl(${hue2} 65% 30%)"/>`,
    '</linearGradient></defs>',
    `<rect width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" fill="url(#g)"/>`,
    `<circle cx="${cx}" cy="${cy}" r="${r}" fill="hsl(${hue2} 80% 80%)" opacity="0.35"/>`,
    `<rect x="0" y="${IMAGE_HEIGHT - 220}" width="${IMAGE_WIDTH}" height="220" fill="hsl(${hue} 40% 15%)" opacity="0.45"/>`,
    '</svg>',
  ].join('');
}

export interface ImageServer {
  /** `http://127.0.0.1:PORT/images/`: the seed's `imageBase`. */
  base: string;
  close(): Promise<void>;
}

/** Serves `/images/<name>.svg` on 127.0.0.1 (port 0: any free port). */
export async function startImageServer(port = 0, host = '127.0.0.1'): Promise<ImageServer> {
  const server = http.createServer((request, response) => {
    const match = /^\/images\/([^/?]+)\.svg(?:\?.*)?$/.exec(request.url ?? '');
    if (!match || !NAME.test(match[1]!) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const body = imageSvg(match[1]!);
    response
      .writeHead(200, {
        'content-type': 'image/svg+xml',
        'content-length': Buffer.byteLength(body),
        'cache-control': 'public, max-age=31536000, immutable',
        'cross-origin-resource-policy': 'cross-origin',
      })
      .end(request.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const { port: actual } = server.address() as AddressInfo;
  return {
    base: `http://${host}:${actual}/images/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
