import type { FeatureMessages } from '../i18n/types';

export const userMessages: FeatureMessages = { en: {}, fr: {}, it: {}, es: {}, de: {} };
