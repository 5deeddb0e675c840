import type { FeatureMessages } from '../i18n/types';

export const importMessages: FeatureMessages = { en: {}, fr: {}, it: {}, es: {}, de: {} };
