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
          submissions: 'Public submissions',
          submission_confirm: "Confirm submitters' e-mail",
          spam_block_days: 'Block spammers for (days)',
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
        submissions_off: 'Off',
        submissions_users: 'Signed-in users',
        submissions_anyone: 'Anyone',
        submissions_help:
          'Who may send events through the public form (/events/submit/); they wait in Pending submissions.',
        submission_confirm_help:
          'With mail on, an anonymous submission waits until its sender follows the link mailed to them.',
        spam_block_days_help: 'A submission marked as spam refuses its address and e-mail for this many days.',
        mail_off: 'Mail is off (set CAL_SMTP_URL and CAL_MAIL_FROM).',
        mail_on: 'Mail is on, from %{from}.',
        mail_outbox: 'Outbox: %{pending} waiting, %{sent} sent, %{failed} failed.',
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
          submissions: 'Propositions du public',
          submission_confirm: 'Confirmer l’e-mail des auteurs',
          spam_block_days: 'Bloquer les spammeurs pendant (jours)',
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
        submissions_off: 'Désactivées',
        submissions_users: 'Utilisateurs connectés',
        submissions_anyone: 'Tout le monde',
        submissions_help:
          'Qui peut envoyer des évènements par le formulaire public (/events/submit/) ; ils attendent dans Propositions en attente.',
        submission_confirm_help:
          'Avec l’e-mail activé, une proposition anonyme attend que son auteur suive le lien qui lui est envoyé.',
        spam_block_days_help:
          'Une proposition marquée comme indésirable fait refuser son adresse et son e-mail pendant ce nombre de jours.',
        mail_off: 'L’e-mail est désactivé (définissez CAL_SMTP_URL et CAL_MAIL_FROM).',
        mail_on: 'L’e-mail est activé, expéditeur %{from}.',
        mail_outbox: 'Boîte d’envoi : %{pending} en attente, %{sent} envoyés, %{failed} en échec.',
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
          submissions: 'Proposte dal pubblico',
          submission_confirm: 'Conferma l’e-mail degli autori',
          spam_block_days: 'Blocca gli spammer per (giorni)',
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
        submissions_off: 'Disattivate',
        submissions_users: 'Utenti connessi',
        submissions_anyone: 'Chiunque',
        submissions_help:
          'Chi può inviare eventi con il modulo pubblico (/events/submit/); attendono in Proposte in attesa.',
        submission_confirm_help:
          'Con la posta attiva, una proposta anonima attende che l’autore segua il link che gli viene inviato.',
        spam_block_days_help:
          'Una proposta segnata come spam fa rifiutare il suo indirizzo e la sua e-mail per questo numero di giorni.',
        mail_off: 'La posta è disattivata (impostare CAL_SMTP_URL e CAL_MAIL_FROM).',
        mail_on: 'La posta è attiva, mittente %{from}.',
        mail_outbox: 'Posta in uscita: %{pending} in attesa, %{sent} inviate, %{failed} fallite.',
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
          submissions: 'Propuestas del público',
          submission_confirm: 'Confirmar el correo de los autores',
          spam_block_days: 'Bloquear a los spammers durante (días)',
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
        submissions_off: 'Desactivadas',
        submissions_users: 'Usuarios conectados',
        submissions_anyone: 'Cualquiera',
        submissions_help:
          'Quién puede enviar eventos con el formulario público (/events/submit/); esperan en Propuestas pendientes.',
        submission_confirm_help:
          'Con el correo activo, una propuesta anónima espera a que su autor siga el enlace que se le envía.',
        spam_block_days_help:
          'Una propuesta marcada como spam hace rechazar su dirección y su correo durante este número de días.',
        mail_off: 'El correo está desactivado (defina CAL_SMTP_URL y CAL_MAIL_FROM).',
        mail_on: 'El correo está activo, remitente %{from}.',
        mail_outbox: 'Bandeja de salida: %{pending} en espera, %{sent} enviados, %{failed} fallidos.',
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
          submissions: 'Öffentliche Einreichungen',
          submission_confirm: 'E-Mail der Einreicher bestätigen',
          spam_block_days: 'Spammer sperren für (Tage)',
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
        submissions_off: 'Aus',
        submissions_users: 'Angemeldete Benutzer',
        submissions_anyone: 'Alle',
        submissions_help:
          'Wer Veranstaltungen über das öffentliche Formular (/events/submit/) senden darf; sie warten unter Offene Einreichungen.',
        submission_confirm_help:
          'Bei eingeschalteter E-Mail wartet eine anonyme Einreichung, bis der Absender dem zugesandten Link folgt.',
        spam_block_days_help: 'Eine als Spam markierte Einreichung sperrt ihre Adresse und E-Mail für so viele Tage.',
        mail_off: 'E-Mail ist aus (CAL_SMTP_URL und CAL_MAIL_FROM setzen).',
        mail_on: 'E-Mail ist an, Absender %{from}.',
        mail_outbox: 'Postausgang: %{pending} wartend, %{sent} gesendet, %{failed} fehlgeschlagen.',
      },
    },
  },
};
