import { messagePack } from './page.i18n-pack.js';

/** The words of the map view, in each language of the catalogue (page.i18n.ts merges them). */
export const MAP_MESSAGES = messagePack({
  en: {},
  fr: {},
  it: {},
  es: {},
  de: {},
});
