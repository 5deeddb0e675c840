import { EVENT_MESSAGES } from './page-event.messages.js';
import { MAP_MESSAGES } from './page-map.messages.js';
import { MONTH_MESSAGES } from './page-month.messages.js';
import { SEO_MESSAGES } from './page-seo.messages.js';
import { SUBMIT_MESSAGES } from './page-submit.messages.js';
import { VIEWS_MESSAGES } from './page-views.messages.js';

/**
 * The words and dates of the public pages in each site language: a small catalogue for the
 * languages the pages are written for (en, fr, it, es, de), English words for the others, and
 * every date through Intl.DateTimeFormat in the page's own language.
 */

const en = {
  siteName: 'Events',
  skipToContent: 'Skip to content',
  languages: 'Languages',
  views: 'Views',
  month: 'Month',
  list: 'List',
  day: 'Day',
  today: 'Today',
  previousMonth: 'Previous month',
  nextMonth: 'Next month',
  previousDay: 'Previous day',
  nextDay: 'Next day',
  upcoming: 'Upcoming events',
  past: 'Past events',
  earlier: 'Earlier events',
  later: 'Later events',
  noEvents: 'No events.',
  allDay: 'All day',
  moreEvents: '{n} more',
  eventsOn: 'Events on {date}',
  eventsIn: 'Events: {name}',
  filters: 'Filter events',
  category: 'Category',
  tag: 'Tag',
  venue: 'Venue',
  search: 'Search',
  all: 'All',
  apply: 'Apply',
  reset: 'Reset',
  organizers: 'Organizers',
  organizer: 'Organizer',
  categories: 'Categories',
  tags: 'Tags',
  cost: 'Cost',
  website: 'Website',
  phone: 'Phone',
  email: 'Email',
  map: 'Map',
  timezone: 'Time zone',
  repeats: 'Repeats',
  nextDates: 'Next dates',
  addToCalendar: 'Add to calendar',
  icsFile: 'iCalendar (.ics)',
  googleCalendar: 'Google Calendar',
  subscribe: 'Subscribe to this calendar (iCalendar)',
  protectedContent: 'This content is password protected.',
  notFoundTitle: 'Page not found',
  notFoundText: 'There is nothing at this address. It may have moved, or never existed.',
  goneTitle: 'Event removed',
  goneText: 'This event has been removed from the calendar.',
  errorTitle: 'Cannot show this page',
  backToCalendar: 'Back to the calendar',
  featured: 'Featured',
  pageOf: 'Page {n}',
};

type BaseMessages = typeof en;

const fr: BaseMessages = {
  siteName: 'Événements',
  skipToContent: 'Aller au contenu',
  languages: 'Langues',
  views: 'Vues',
  month: 'Mois',
  list: 'Liste',
  day: 'Jour',
  today: "Aujourd'hui",
  previousMonth: 'Mois précédent',
  nextMonth: 'Mois suivant',
  previousDay: 'Jour précédent',
  nextDay: 'Jour suivant',
  upcoming: 'Événements à venir',
  past: 'Événements passés',
  earlier: 'Événements précédents',
  later: 'Événements suivants',
  noEvents: 'Aucun événement.',
  allDay: 'Toute la journée',
  moreEvents: '{n} de plus',
  eventsOn: 'Événements du {date}',
  eventsIn: 'Événements : {name}',
  filters: 'Filtrer les événements',
  category: 'Catégorie',
  tag: 'Étiquette',
  venue: 'Lieu',
  search: 'Rechercher',
  all: 'Tous',
  apply: 'Appliquer',
  reset: 'Réinitialiser',
  organizers: 'Organisateurs',
  organizer: 'Organisateur',
  categories: 'Catégories',
  tags: 'Étiquettes',
  cost: 'Prix',
  website: 'Site web',
  phone: 'Téléphone',
  email: 'E-mail',
  map: 'Carte',
  timezone: 'Fuseau horaire',
  repeats: 'Récurrence',
  nextDates: 'Prochaines dates',
  addToCalendar: 'Ajouter au calendrier',
  icsFile: 'iCalendar (.ics)',
  googleCalendar: 'Google Agenda',
  subscribe: "S'abonner à ce calendrier (iCalendar)",
  protectedContent: 'Ce contenu est protégé par un mot de passe.',
  notFoundTitle: 'Page introuvable',
  notFoundText: "Il n'y a rien à cette adresse. Elle a peut-être changé, ou n'a jamais existé.",
  goneTitle: 'Événement supprimé',
  goneText: 'Cet événement a été retiré du calendrier.',
  errorTitle: 'Impossible d’afficher cette page',
  backToCalendar: 'Retour au calendrier',
  featured: 'À la une',
  pageOf: 'Page {n}',
};

const it: BaseMessages = {
  siteName: 'Eventi',
  skipToContent: 'Vai al contenuto',
  languages: 'Lingue',
  views: 'Viste',
  month: 'Mese',
  list: 'Elenco',
  day: 'Giorno',
  today: 'Oggi',
  previousMonth: 'Mese precedente',
  nextMonth: 'Mese successivo',
  previousDay: 'Giorno precedente',
  nextDay: 'Giorno successivo',
  upcoming: 'Prossimi eventi',
  past: 'Eventi passati',
  earlier: 'Eventi precedenti',
  later: 'Eventi successivi',
  noEvents: 'Nessun evento.',
  allDay: 'Tutto il giorno',
  moreEvents: 'altri {n}',
  eventsOn: 'Eventi del {date}',
  eventsIn: 'Eventi: {name}',
  filters: 'Filtra gli eventi',
  category: 'Categoria',
  tag: 'Tag',
  venue: 'Luogo',
  search: 'Cerca',
  all: 'Tutti',
  apply: 'Applica',
  reset: 'Azzera',
  organizers: 'Organizzatori',
  organizer: 'Organizzatore',
  categories: 'Categorie',
  tags: 'Tag',
  cost: 'Prezzo',
  website: 'Sito web',
  phone: 'Telefono',
  email: 'E-mail',
  map: 'Mappa',
  timezone: 'Fuso orario',
  repeats: 'Si ripete',
  nextDates: 'Prossime date',
  addToCalendar: 'Aggiungi al calendario',
  icsFile: 'iCalendar (.ics)',
  googleCalendar: 'Google Calendar',
  subscribe: 'Iscriviti a questo calendario (iCalendar)',
  protectedContent: 'Questo contenuto è protetto da password.',
  notFoundTitle: 'Pagina non trovata',
  notFoundText: 'Non c’è nulla a questo indirizzo. Potrebbe essere stato spostato o non essere mai esistito.',
  goneTitle: 'Evento rimosso',
  goneText: 'Questo evento è stato rimosso dal calendario.',
  errorTitle: 'Impossibile mostrare questa pagina',
  backToCalendar: 'Torna al calendario',
  featured: 'In evidenza',
  pageOf: 'Pagina {n}',
};

const es: BaseMessages = {
  siteName: 'Eventos',
  skipToContent: 'Saltar al contenido',
  languages: 'Idiomas',
  views: 'Vistas',
  month: 'Mes',
  list: 'Lista',
  day: 'Día',
  today: 'Hoy',
  previousMonth: 'Mes anterior',
  nextMonth: 'Mes siguiente',
  previousDay: 'Día anterior',
  nextDay: 'Día siguiente',
  upcoming: 'Próximos eventos',
  past: 'Eventos pasados',
  earlier: 'Eventos anteriores',
  later: 'Eventos posteriores',
  noEvents: 'No hay eventos.',
  allDay: 'Todo el día',
  moreEvents: '{n} más',
  eventsOn: 'Eventos del {date}',
  eventsIn: 'Eventos: {name}',
  filters: 'Filtrar eventos',
  category: 'Categoría',
  tag: 'Etiqueta',
  venue: 'Lugar',
  search: 'Buscar',
  all: 'Todos',
  apply: 'Aplicar',
  reset: 'Restablecer',
  organizers: 'Organizadores',
  organizer: 'Organizador',
  categories: 'Categorías',
  tags: 'Etiquetas',
  cost: 'Precio',
  website: 'Sitio web',
  phone: 'Teléfono',
  email: 'Correo electrónico',
  map: 'Mapa',
  timezone: 'Zona horaria',
  repeats: 'Se repite',
  nextDates: 'Próximas fechas',
  addToCalendar: 'Añadir al calendario',
  icsFile: 'iCalendar (.ics)',
  googleCalendar: 'Google Calendar',
  subscribe: 'Suscribirse a este calendario (iCalendar)',
  protectedContent: 'Este contenido está protegido con contraseña.',
  notFoundTitle: 'Página no encontrada',
  notFoundText: 'No hay nada en esta dirección. Puede que se haya movido o que nunca haya existido.',
  goneTitle: 'Evento eliminado',
  goneText: 'Este evento se ha retirado del calendario.',
  errorTitle: 'No se puede mostrar esta página',
  backToCalendar: 'Volver al calendario',
  featured: 'Destacado',
  pageOf: 'Página {n}',
};

const de: BaseMessages = {
  siteName: 'Veranstaltungen',
  skipToContent: 'Zum Inhalt springen',
  languages: 'Sprachen',
  views: 'Ansichten',
  month: 'Monat',
  list: 'Liste',
  day: 'Tag',
  today: 'Heute',
  previousMonth: 'Vorheriger Monat',
  nextMonth: 'Nächster Monat',
  previousDay: 'Vorheriger Tag',
  nextDay: 'Nächster Tag',
  upcoming: 'Kommende Veranstaltungen',
  past: 'Vergangene Veranstaltungen',
  earlier: 'Frühere Veranstaltungen',
  later: 'Spätere Veranstaltungen',
  noEvents: 'Keine Veranstaltungen.',
  allDay: 'Ganztägig',
  moreEvents: '{n} weitere',
  eventsOn: 'Veranstaltungen am {date}',
  eventsIn: 'Veranstaltungen: {name}',
  filters: 'Veranstaltungen filtern',
  category: 'Kategorie',
  tag: 'Schlagwort',
  venue: 'Veranstaltungsort',
  search: 'Suchen',
  all: 'Alle',
  apply: 'Anwenden',
  reset: 'Zurücksetzen',
  organizers: 'Veranstalter',
  organizer: 'Veranstalter',
  categories: 'Kategorien',
  tags: 'Schlagwörter',
  cost: 'Preis',
  website: 'Website',
  phone: 'Telefon',
  email: 'E-Mail',
  map: 'Karte',
  timezone: 'Zeitzone',
  repeats: 'Wiederholung',
  nextDates: 'Nächste Termine',
  addToCalendar: 'Zum Kalender hinzufügen',
  icsFile: 'iCalendar (.ics)',
  googleCalendar: 'Google Kalender',
  subscribe: 'Diesen Kalender abonnieren (iCalendar)',
  protectedContent: 'Dieser Inhalt ist passwortgeschützt.',
  notFoundTitle: 'Seite nicht gefunden',
  notFoundText: 'Unter dieser Adresse gibt es nichts. Sie wurde vielleicht verschoben oder hat nie existiert.',
  goneTitle: 'Veranstaltung entfernt',
  goneText: 'Diese Veranstaltung wurde aus dem Kalender entfernt.',
  errorTitle: 'Diese Seite kann nicht angezeigt werden',
  backToCalendar: 'Zurück zum Kalender',
  featured: 'Hervorgehoben',
  pageOf: 'Seite {n}',
};

/**
 * Each feature of the pages keeps its words in its own pack (page-<feature>.messages.ts), merged
 * here into one catalogue per language.
 */
export type Messages = BaseMessages & PackMessages;
const PACKS = [MONTH_MESSAGES, VIEWS_MESSAGES, EVENT_MESSAGES, SEO_MESSAGES, MAP_MESSAGES, SUBMIT_MESSAGES] as const;
type PackMessages = (typeof MONTH_MESSAGES)['en'] &
  (typeof VIEWS_MESSAGES)['en'] &
  (typeof EVENT_MESSAGES)['en'] &
  (typeof SEO_MESSAGES)['en'] &
  (typeof MAP_MESSAGES)['en'] &
  (typeof SUBMIT_MESSAGES)['en'];

const BASE: Record<string, BaseMessages> = { en, fr, it, es, de };
const CATALOGUE = new Map<string, Messages>(
  Object.entries(BASE).map(([lang, base]) => [
    lang,
    Object.assign({}, base, ...PACKS.map((pack) => pack[lang as keyof typeof pack])) as Messages,
  ]),
);

/** The catalogue of a language; English words for a site language without one. */
export function messagesOf(lang: string): Messages {
  return CATALOGUE.get(lang) ?? CATALOGUE.get('en')!;
}

/** A message with its `{name}` placeholders filled. */
export function fill(message: string, values: Record<string, string | number>): string {
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** Each language's name in itself, for the language switcher. */
export function languageName(lang: string): string {
  const name = new Intl.DisplayNames([lang], { type: 'language' }).of(lang) ?? lang;
  return name.charAt(0).toLocaleUpperCase(lang) + name.slice(1);
}

/** 0 = Sunday: the week of the month grid starts where the language's readers expect it. */
export function firstDayOfWeek(lang: string): number {
  return lang === 'en' || lang === 'ja' || lang === 'zh' ? 0 : 1;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * A formatter of wall-clock values: every stored local time (`YYYY-MM-DD HH:MM:SS` in the event's
 * or site's zone) is turned into a Date as if it were UTC and formatted in UTC, so the digits are
 * the stored ones and only the language's way of writing them changes.
 */
function formatter(lang: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${lang}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat(lang, { ...options, timeZone: 'UTC' })));
  return f;
}

/** A stored wall-clock value (or a `YYYY-MM-DD` day) as a Date read in UTC. */
export function wallDate(local: string): Date {
  return new Date(`${local.slice(0, 10)}T${local.length > 10 ? local.slice(11, 19) : '00:00:00'}Z`);
}

export const formats = {
  /** "Sunday, March 14, 2027" */
  longDay: (lang: string, local: string) =>
    formatter(lang, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(wallDate(local)),
  /** "Mar 14" */
  shortDay: (lang: string, local: string) =>
    formatter(lang, { month: 'short', day: 'numeric' }).format(wallDate(local)),
  /** "March 2027" */
  month: (lang: string, local: string) => formatter(lang, { month: 'long', year: 'numeric' }).format(wallDate(local)),
  /** "7:30 PM" / "19:30" */
  time: (lang: string, local: string) =>
    formatter(lang, { hour: 'numeric', minute: '2-digit' }).format(wallDate(local)),
  /** "Mon" */
  weekdayShort: (lang: string, local: string) => formatter(lang, { weekday: 'short' }).format(wallDate(local)),
  /**
   * "Sunday, March 14, 2027, 7:00 – 9:00 PM", "March 14 – 16, 2027": Intl's own ranges, which
   * leave out what both ends share, in each language's order.
   */
  range: (lang: string, startLocal: string, endLocal: string, allDay: boolean) => {
    const options: Intl.DateTimeFormatOptions = allDay
      ? { dateStyle: 'full' }
      : { dateStyle: 'full', timeStyle: 'short' };
    const start = wallDate(allDay ? startLocal.slice(0, 10) : startLocal);
    const end = wallDate(allDay ? endLocal.slice(0, 10) : endLocal);
    return end.getTime() <= start.getTime()
      ? formatter(lang, options).format(start)
      : formatter(lang, options).formatRange(start, end);
  },
  /** "Monday" */
  weekdayLong: (lang: string, local: string) => formatter(lang, { weekday: 'long' }).format(wallDate(local)),
};
