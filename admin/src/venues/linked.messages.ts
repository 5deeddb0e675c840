import type { FeatureMessages } from '../i18n/types';

export const linkedMessages: FeatureMessages = { en: {}, fr: {}, it: {}, es: {}, de: {} };
