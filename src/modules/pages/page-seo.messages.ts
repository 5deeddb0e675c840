import { messagePack } from './page.i18n-pack.js';

/** The words of the pages' head: descriptions, Open Graph, robots and sitemaps, in each language of the catalogue (page.i18n.ts merges them). */
export const SEO_MESSAGES = messagePack({
  en: {},
  fr: {},
  it: {},
  es: {},
  de: {},
});
