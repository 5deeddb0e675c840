import type { FeatureMessages } from '../i18n/types';

/**
 * The menu's own entries and the resources' names (singular |||| plural, as react-admin asks
 * with smart_count); each feature's file adds its fields and sentences.
 */
export const commonMessages: FeatureMessages = {
  en: {
    cal: { menu: { calendar: 'Calendar', settings: 'Settings', profile: 'Profile' } },
    resources: {
      events: { name: 'Event |||| Events' },
      venues: { name: 'Venue |||| Venues' },
      organizers: { name: 'Organizer |||| Organizers' },
      categories: { name: 'Category |||| Categories' },
      tags: { name: 'Tag |||| Tags' },
      users: { name: 'User |||| Users' },
      webhooks: { name: 'Webhook |||| Webhooks' },
      imports: { name: 'Import |||| Imports' },
    },
  },
  fr: {
    cal: { menu: { calendar: 'Calendrier', settings: 'Réglages', profile: 'Profil' } },
    resources: {
      events: { name: 'Évènement |||| Évènements' },
      venues: { name: 'Lieu |||| Lieux' },
      organizers: { name: 'Organisateur |||| Organisateurs' },
      categories: { name: 'Catégorie |||| Catégories' },
      tags: { name: 'Étiquette |||| Étiquettes' },
      users: { name: 'Utilisateur |||| Utilisateurs' },
      webhooks: { name: 'Webhook |||| Webhooks' },
      imports: { name: 'Importation |||| Importations' },
    },
  },
  it: {
    cal: { menu: { calendar: 'Calendario', settings: 'Impostazioni', profile: 'Profilo' } },
    resources: {
      events: { name: 'Evento |||| Eventi' },
      venues: { name: 'Luogo |||| Luoghi' },
      organizers: { name: 'Organizzatore |||| Organizzatori' },
      categories: { name: 'Categoria |||| Categorie' },
      tags: { name: 'Tag |||| Tag' },
      users: { name: 'Utente |||| Utenti' },
      webhooks: { name: 'Webhook |||| Webhook' },
      imports: { name: 'Importazione |||| Importazioni' },
    },
  },
  es: {
    cal: { menu: { calendar: 'Calendario', settings: 'Ajustes', profile: 'Perfil' } },
    resources: {
      events: { name: 'Evento |||| Eventos' },
      venues: { name: 'Lugar |||| Lugares' },
      organizers: { name: 'Organizador |||| Organizadores' },
      categories: { name: 'Categoría |||| Categorías' },
      tags: { name: 'Etiqueta |||| Etiquetas' },
      users: { name: 'Usuario |||| Usuarios' },
      webhooks: { name: 'Webhook |||| Webhooks' },
      imports: { name: 'Importación |||| Importaciones' },
    },
  },
  de: {
    cal: { menu: { calendar: 'Kalender', settings: 'Einstellungen', profile: 'Profil' } },
    resources: {
      events: { name: 'Veranstaltung |||| Veranstaltungen' },
      venues: { name: 'Veranstaltungsort |||| Veranstaltungsorte' },
      organizers: { name: 'Veranstalter |||| Veranstalter' },
      categories: { name: 'Kategorie |||| Kategorien' },
      tags: { name: 'Schlagwort |||| Schlagwörter' },
      users: { name: 'Benutzer |||| Benutzer' },
      webhooks: { name: 'Webhook |||| Webhooks' },
      imports: { name: 'Import |||| Importe' },
    },
  },
};
