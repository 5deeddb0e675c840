import { startRealisticService } from './realistic-service.js';

/**
 * The bytes a client receives for typical answers of the realistic calendar, as they are, gzipped
 * and brotli-compressed by the service (@fastify/compress, src/app.ts), and the time one compressed
 * answer adds, for the note:
 *
 *   npx tsx bench/compression-sizes.ts
 */
const service = await startRealisticService();
try {
  const { app } = service.service;
  const month = service.seed.months[0];
  const pages = service.seed.pages;
  const page = await app.inject({ url: '/events/' });
  const stylesheet = /<link rel="stylesheet" href="([^"]+)"/.exec(page.body)?.[1] ?? '/events/';
  const urls: [string, string][] = [
    ['API, 10 events', '/cal/events/v1/events?per_page=10'],
    ['API, 50 events', '/cal/events/v1/events?per_page=50'],
    ['month page', `/events/month/${month}/`],
    ['week page', pages['week'] ?? '/events/week/'],
    ['list page', '/events/list/'],
    ['event page', pages['event'] ?? '/events/'],
    ['iCalendar feed', '/cal/events/v1/events?format=ical'],
    ['JSON-LD list', '/cal/events/v1/events?format=jsonld'],
    ['stylesheet', stylesheet],
    ['sitemap file', '/sitemap-en-2.xml'],
  ];
  console.log('| answer | identity | gzip | brotli | brotli, ms added |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [name, url] of urls) {
    const sizes: number[] = [];
    let added = 0;
    for (const encoding of ['identity', 'gzip', 'br']) {
      // Warm (the page cache), then timed: what a cached answer costs with this encoding.
      await app.inject({ url, headers: { 'accept-encoding': encoding } });
      const started = performance.now();
      const rounds = 20;
      let res = await app.inject({ url, headers: { 'accept-encoding': encoding } });
      for (let i = 1; i < rounds; i += 1) res = await app.inject({ url, headers: { 'accept-encoding': encoding } });
      const ms = (performance.now() - started) / rounds;
      if (encoding === 'identity') added = -ms;
      if (encoding === 'br') added += ms;
      sizes.push(res.rawPayload.length);
    }
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log(`| ${name} (${url}) | ${kb(sizes[0]!)} | ${kb(sizes[1]!)} | ${kb(sizes[2]!)} | ${added.toFixed(2)} |`);
  }
} finally {
  await service.close();
}
