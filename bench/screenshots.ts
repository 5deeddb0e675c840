import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, startRealisticService } from './realistic-service.js';

/**
 * Pictures of every public view on the realistic seed, for the README and the note:
 * `npx tsx bench/screenshots.ts [--month YYYY-MM] [--out docs/screenshots]`. Each view at 375 px
 * (a phone: the first screen only) and 1280 px (a desktop: the whole page, cut at MAX_HEIGHT so a
 * long list stays a small file). Seeds a fresh database in a temporary folder; Debian's Chromium
 * (CHROMIUM_PATH to use another); Japanese and Korean titles need Debian's fonts-noto-cjk.
 */

const VIEWS = ['month', 'week', 'list', 'photo', 'map', 'day', 'event', 'venue', 'embed-snippet'] as const;
const WIDTHS = [
  { width: 375, height: 812, fullPage: false },
  { width: 1280, height: 900, fullPage: true },
];
const MAX_HEIGHT = 1600;

function argument(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
}

async function main(args: string[]): Promise<void> {
  const out = path.resolve(argument(args, '--out') ?? 'docs/screenshots');
  const month = argument(args, '--month');
  fs.mkdirSync(out, { recursive: true });
  const service = await startRealisticService(month ? { month } : {});
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
  });
  let bytes = 0;
  try {
    for (const { width, height, fullPage } of WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      for (const view of VIEWS) {
        const response = await page.goto(`${service.base}${service.seed.pages[view]}`, { waitUntil: 'load' });
        const file = path.join(out, `${view}-${width}.png`);
        if (response?.status() !== 200) {
          process.stdout.write(`${view} at ${width}: ${response?.status()}, no picture\n`);
          continue;
        }
        const pageHeight = fullPage
          ? Math.min(MAX_HEIGHT, await page.evaluate('document.documentElement.scrollHeight'))
          : height;
        await page.screenshot({
          path: file,
          fullPage,
          ...(fullPage ? { clip: { x: 0, y: 0, width, height: Number(pageHeight) } } : {}),
        });
        const size = fs.statSync(file).size;
        bytes += size;
        process.stdout.write(`${path.relative(process.cwd(), file)} ${Math.round(size / 1024)} KB\n`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await service.close();
  }
  process.stdout.write(`${Math.round(bytes / 1024)} KB in all\n`);
}

await main(process.argv.slice(2));
