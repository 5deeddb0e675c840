import polyglotI18nProvider from 'ra-i18n-polyglot';
import { resolveBrowserLocale, type TranslationMessages } from 'react-admin';
import englishMessages from 'ra-language-english';
import frenchMessages from 'ra-language-french';
import italianMessages from 'ra-language-italian';
import spanishMessages from 'ra-language-spanish';
import germanMessages from 'ra-language-german';
import { LOCALES, type Locale, type MessageTree } from './types';
import { FEATURE_MESSAGES } from './messages';
import { FRAMEWORK_GAPS } from './framework.messages';

/** Later trees win, key by key: a pack missing a key (the Italian, Spanish and German packs are older) keeps English's. */
function merge(...trees: (MessageTree | undefined)[]): MessageTree {
  const result: MessageTree = {};
  for (const tree of trees) {
    for (const [key, value] of Object.entries(tree ?? {})) {
      const existing = result[key];
      result[key] =
        typeof value === 'object' && typeof existing === 'object' ? merge(existing, value) : (value as string);
    }
  }
  return result;
}

const PACKS: Record<Locale, MessageTree> = {
  en: englishMessages as unknown as MessageTree,
  fr: frenchMessages as unknown as MessageTree,
  it: italianMessages as unknown as MessageTree,
  es: spanishMessages as unknown as MessageTree,
  de: germanMessages as unknown as MessageTree,
};

export function messagesFor(locale: Locale): MessageTree {
  return merge(
    PACKS.en,
    ...FEATURE_MESSAGES.map((feature) => feature.en),
    PACKS[locale],
    FRAMEWORK_GAPS[locale],
    ...FEATURE_MESSAGES.map((feature) => feature[locale]),
  );
}

function initialLocale(): Locale {
  const browser = resolveBrowserLocale('en', { fullLocale: false });
  return LOCALES.some((l) => l.locale === browser) ? (browser as Locale) : 'en';
}

/** The browser's language at first; the language menu switches it (react-admin keeps the choice). */
export const i18nProvider = polyglotI18nProvider(
  (locale) => messagesFor(locale as Locale) as unknown as TranslationMessages,
  initialLocale(),
  [...LOCALES],
);
