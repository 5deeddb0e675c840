import type { FeatureMessages } from '../i18n/types';

/** The site settings screen. */
export const settingsMessages: FeatureMessages = {
  en: {
    resources: {
      settings: {
        fields: {
          timezone: 'Time zone',
          geoloc: 'Geolocation',
          geoloc_radius: 'Search radius',
          geoloc_unit: 'Unit',
          site_url: 'Site address',
        },
      },
    },
    cal: {
      settings: {
        title: 'Settings',
        saved: 'Settings saved',
        timezone_help: 'For events created without a time zone.',
        geoloc_help: 'The geolocation extension: distance searches around a point.',
        radius_help: 'Default radius of a distance search.',
        miles: 'Miles',
        kilometres: 'Kilometres',
        url_invalid: 'An http(s) address',
        site_url_help: "The public address of records' links; empty: this service's own address.",
      },
    },
  },
  fr: {
    resources: {
      settings: {
        fields: {
          timezone: 'Fuseau horaire',
          geoloc: 'Géolocalisation',
          geoloc_radius: 'Rayon de recherche',
          geoloc_unit: 'Unité',
          site_url: 'Adresse du site',
        },
      },
    },
    cal: {
      settings: {
        title: 'Réglages',
        saved: 'Réglages enregistrés',
        timezone_help: 'Pour les événements créés sans fuseau horaire.',
        geoloc_help: "L'extension de géolocalisation : recherches par distance autour d'un point.",
        radius_help: "Rayon par défaut d'une recherche par distance.",
        miles: 'Miles',
        kilometres: 'Kilomètres',
        url_invalid: 'Une adresse http(s)',
        site_url_help: "L'adresse publique des liens des contenus ; vide : l'adresse de ce service.",
      },
    },
  },
  it: {
    resources: {
      settings: {
        fields: {
          timezone: 'Fuso orario',
          geoloc: 'Geolocalizzazione',
          geoloc_radius: 'Raggio di ricerca',
          geoloc_unit: 'Unità',
          site_url: 'Indirizzo del sito',
        },
      },
    },
    cal: {
      settings: {
        title: 'Impostazioni',
        saved: 'Impostazioni salvate',
        timezone_help: 'Per gli eventi creati senza fuso orario.',
        geoloc_help: "L'estensione di geolocalizzazione: ricerche per distanza attorno a un punto.",
        radius_help: 'Raggio predefinito di una ricerca per distanza.',
        miles: 'Miglia',
        kilometres: 'Chilometri',
        url_invalid: 'Un indirizzo http(s)',
        site_url_help: "L'indirizzo pubblico dei collegamenti dei contenuti; vuoto: l'indirizzo di questo servizio.",
      },
    },
  },
  es: {
    resources: {
      settings: {
        fields: {
          timezone: 'Zona horaria',
          geoloc: 'Geolocalización',
          geoloc_radius: 'Radio de búsqueda',
          geoloc_unit: 'Unidad',
          site_url: 'Dirección del sitio',
        },
      },
    },
    cal: {
      settings: {
        title: 'Ajustes',
        saved: 'Ajustes guardados',
        timezone_help: 'Para los eventos creados sin zona horaria.',
        geoloc_help: 'La extensión de geolocalización: búsquedas por distancia alrededor de un punto.',
        radius_help: 'Radio por defecto de una búsqueda por distancia.',
        miles: 'Millas',
        kilometres: 'Kilómetros',
        url_invalid: 'Una dirección http(s)',
        site_url_help: 'La dirección pública de los enlaces de los contenidos; vacía: la dirección de este servicio.',
      },
    },
  },
  de: {
    resources: {
      settings: {
        fields: {
          timezone: 'Zeitzone',
          geoloc: 'Geolokalisierung',
          geoloc_radius: 'Suchradius',
          geoloc_unit: 'Einheit',
          site_url: 'Adresse der Website',
        },
      },
    },
    cal: {
      settings: {
        title: 'Einstellungen',
        saved: 'Einstellungen gespeichert',
        timezone_help: 'Für Veranstaltungen, die ohne Zeitzone angelegt werden.',
        geoloc_help: 'Die Geolokalisierungs-Erweiterung: Umkreissuchen um einen Punkt.',
        radius_help: 'Standardradius einer Umkreissuche.',
        miles: 'Meilen',
        kilometres: 'Kilometer',
        url_invalid: 'Eine http(s)-Adresse',
        site_url_help: 'Die öffentliche Adresse der Links zu Inhalten; leer: die Adresse dieses Dienstes.',
      },
    },
  },
};
