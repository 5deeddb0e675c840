import type { FeatureMessages } from '../i18n/types';

export const eventListMessages: FeatureMessages = { en: {}, fr: {}, it: {}, es: {}, de: {} };
