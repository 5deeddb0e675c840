import { messagePack } from './page.i18n-pack.js';

/** The words of the list, photo and map views, the Subscribe menu and embeds, in each language of the catalogue (page.i18n.ts merges them). */
export const VIEWS_MESSAGES = messagePack({
  en: {},
  fr: {},
  it: {},
  es: {},
  de: {},
});
