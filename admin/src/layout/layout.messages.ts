import type { FeatureMessages } from '../i18n/types';

/**
 * The menu's own entries and the resources' names (singular |||| plural, as react-admin asks
 * with smart_count); each feature's file adds its fields and sentences.
 */
export const commonMessages: FeatureMessages = {
  en: {
    cal: {
      menu: { calendar: 'Calendar', settings: 'Settings', profile: 'Profile' },
      signin: {
        missing: 'Enter your username and password.',
        failed: 'The username or password you entered is incorrect.',
        throttled: 'Too many failed sign-ins. Try again in a minute.',
        unavailable: 'The service could not be reached. Try again.',
      },
    },
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
    cal: {
      menu: { calendar: 'Calendrier', settings: 'Réglages', profile: 'Profil' },
      signin: {
        missing: 'Saisissez votre identifiant et votre mot de passe.',
        failed: 'L’identifiant ou le mot de passe saisi est incorrect.',
        throttled: 'Trop d’échecs de connexion. Réessayez dans une minute.',
        unavailable: 'Le service est injoignable. Réessayez.',
      },
    },
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
    cal: {
      menu: { calendar: 'Calendario', settings: 'Impostazioni', profile: 'Profilo' },
      signin: {
        missing: 'Inserisci nome utente e password.',
        failed: 'Il nome utente o la password inseriti non sono corretti.',
        throttled: 'Troppi accessi non riusciti. Riprova tra un minuto.',
        unavailable: 'Il servizio non è raggiungibile. Riprova.',
      },
    },
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
    cal: {
      menu: { calendar: 'Calendario', settings: 'Ajustes', profile: 'Perfil' },
      signin: {
        missing: 'Introduzca su nombre de usuario y su contraseña.',
        failed: 'El nombre de usuario o la contraseña no son correctos.',
        throttled: 'Demasiados intentos fallidos. Vuelva a intentarlo en un minuto.',
        unavailable: 'No se pudo contactar con el servicio. Vuelva a intentarlo.',
      },
    },
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
    cal: {
      menu: { calendar: 'Kalender', settings: 'Einstellungen', profile: 'Profil' },
      signin: {
        missing: 'Geben Sie Benutzername und Passwort ein.',
        failed: 'Benutzername oder Passwort ist falsch.',
        throttled: 'Zu viele fehlgeschlagene Anmeldungen. Versuchen Sie es in einer Minute erneut.',
        unavailable: 'Der Dienst ist nicht erreichbar. Versuchen Sie es erneut.',
      },
    },
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
