/**
 * A feature's words in every language of the pages' catalogue: the English ones give the keys, and
 * each other language must have the same keys (a missing translation is a type error, not an
 * English word in a French page).
 */
export function messagePack<T extends Record<string, string>>(pack: {
  en: T;
  fr: NoInfer<T>;
  it: NoInfer<T>;
  es: NoInfer<T>;
  de: NoInfer<T>;
}): { en: T; fr: T; it: T; es: T; de: T } {
  return pack;
}
