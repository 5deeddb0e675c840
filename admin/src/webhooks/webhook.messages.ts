import type { FeatureMessages } from '../i18n/types';

export const webhookMessages: FeatureMessages = { en: {}, fr: {}, it: {}, es: {}, de: {} };
