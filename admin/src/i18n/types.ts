/** The admin's languages: the site languages of the default configuration. */
export const LOCALES = [
  { locale: 'en', name: 'English' },
  { locale: 'fr', name: 'Français' },
  { locale: 'it', name: 'Italiano' },
  { locale: 'es', name: 'Español' },
  { locale: 'de', name: 'Deutsch' },
] as const;

export type Locale = (typeof LOCALES)[number]['locale'];

/** Nested messages, as polyglot reads them (`resources.events.fields.title`). */
export interface MessageTree {
  [key: string]: string | MessageTree;
}

/** One feature's messages in every language; English is complete, the others fall back to it key by key. */
export type FeatureMessages = Record<Locale, MessageTree>;
