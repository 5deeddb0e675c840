import type { FeatureMessages } from '../i18n/types';

export const termMessages: FeatureMessages = { en: {}, fr: {}, it: {}, es: {}, de: {} };
