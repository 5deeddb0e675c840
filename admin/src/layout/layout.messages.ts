import type { FeatureMessages } from '../i18n/types';

/** The menu's own entries and what every screen shares. */
export const commonMessages: FeatureMessages = {
  en: { cal: { menu: { calendar: 'Calendar', settings: 'Settings', profile: 'Profile' } } },
  fr: { cal: { menu: { calendar: 'Calendrier', settings: 'Réglages', profile: 'Profil' } } },
  it: { cal: { menu: { calendar: 'Calendario', settings: 'Impostazioni', profile: 'Profilo' } } },
  es: { cal: { menu: { calendar: 'Calendario', settings: 'Ajustes', profile: 'Perfil' } } },
  de: { cal: { menu: { calendar: 'Kalender', settings: 'Einstellungen', profile: 'Profil' } } },
};
