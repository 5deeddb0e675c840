import { messagePack } from './page.i18n-pack.js';

/** The words of the event, venue and organizer pages, in each language of the catalogue (page.i18n.ts merges them). */
export const EVENT_MESSAGES = messagePack({
  en: { free: 'Free' },
  fr: { free: 'Gratuit' },
  it: { free: 'Gratuito' },
  es: { free: 'Gratis' },
  de: { free: 'Kostenlos' },
});
