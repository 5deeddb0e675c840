import { messagePack } from './page.i18n-pack.js';

/** The words of the month and week grids, in each language of the catalogue (page.i18n.ts merges them). */
export const MONTH_MESSAGES = messagePack({
  en: {},
  fr: {},
  it: {},
  es: {},
  de: {},
});
