import type { FeatureMessages } from '../i18n/types';

export const eventEditorMessages: FeatureMessages = { en: {}, fr: {}, it: {}, es: {}, de: {} };
