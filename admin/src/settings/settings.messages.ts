import type { FeatureMessages } from '../i18n/types';

export const settingsMessages: FeatureMessages = { en: {}, fr: {}, it: {}, es: {}, de: {} };
