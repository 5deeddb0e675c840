import { messagePack } from './page.i18n-pack.js';

/**
 * The words of the pages' head: descriptions, Open Graph, robots and sitemaps, in each language of
 * the catalogue (page.i18n.ts merges them). `{subject}` is what the page's title names before the
 * site's name (a month, a week, a day, a venue…), `{site}` the site's name.
 */
export const SEO_MESSAGES = messagePack({
  en: {
    seoMonth: 'Events in {subject}, day by day, with their times and places. {site}.',
    seoWeek: 'Events of the week {subject}, day by day, with their times and places. {site}.',
    seoView: '{subject}: the events, with their dates, times and places. {site}.',
    seoLocale: 'en_US',
  },
  fr: {
    seoMonth: 'Les événements de {subject}, jour par jour, avec leurs horaires et leurs lieux. {site}.',
    seoWeek: 'Les événements de la semaine {subject}, jour par jour, avec leurs horaires et leurs lieux. {site}.',
    seoView: '{subject} : les événements, avec leurs dates, horaires et lieux. {site}.',
    seoLocale: 'fr_FR',
  },
  it: {
    seoMonth: 'Gli eventi di {subject}, giorno per giorno, con orari e luoghi. {site}.',
    seoWeek: 'Gli eventi della settimana {subject}, giorno per giorno, con orari e luoghi. {site}.',
    seoView: '{subject}: gli eventi, con date, orari e luoghi. {site}.',
    seoLocale: 'it_IT',
  },
  es: {
    seoMonth: 'Los eventos de {subject}, día a día, con sus horarios y lugares. {site}.',
    seoWeek: 'Los eventos de la semana {subject}, día a día, con sus horarios y lugares. {site}.',
    seoView: '{subject}: los eventos, con sus fechas, horarios y lugares. {site}.',
    seoLocale: 'es_ES',
  },
  de: {
    seoMonth: 'Veranstaltungen im {subject}, Tag für Tag, mit Uhrzeiten und Orten. {site}.',
    seoWeek: 'Veranstaltungen der Woche {subject}, Tag für Tag, mit Uhrzeiten und Orten. {site}.',
    seoView: '{subject}: die Veranstaltungen mit Datum, Uhrzeit und Ort. {site}.',
    seoLocale: 'de_DE',
  },
});
