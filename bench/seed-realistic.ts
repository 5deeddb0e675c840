import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { nowUtc } from '../src/lib/clock.js';
import { utcToLocal, zoneOrUtc } from '../src/lib/dates.js';

/**
 * A realistic calendar of two months, written through the service's own REST API so that every
 * rule, trigger and cache runs as it does for a real site: venues with addresses and coordinates,
 * organizers, categories and tags, a market every day of the second month, festivals crossing
 * weeks and months, busy days, long titles (one over 180 characters), French, Japanese and Korean
 * titles, two weekly series, French translations, costs as people write them, pictures, and an
 * event that ended earlier today. The data are fixed and placed relative to the first month, so
 * two runs for the same month give the same calendar (but for the event of today).
 *
 * Two ways to use it:
 * - from a test: `await seedRealistic(app, { authorization, imageBase })` (app.inject) or with a
 *   base URL (fetch) instead of the app;
 * - from the command line, to fill a database for `npm start`:
 *   `npx tsx bench/seed-realistic.ts --data-dir ./data [--month 2026-11] [--image-base URL]`
 *   (or DATABASE_URL=postgres://… instead of --data-dir); `--serve-images [PORT]` then serves
 *   the pictures (bench/seed-images.ts) for as long as it runs.
 */

export interface RealisticOptions {
  /** Basic (or other) Authorization header of an administrator. */
  authorization: string;
  /** First of the two months, `YYYY-MM`; default: the current month (UTC). */
  month?: string;
  /** Where the pictures are: `<imageBase><name>.svg` (bench/seed-images.ts serves them). */
  imageBase?: string;
  /** The clock for "the current month" and "earlier today". */
  now?: Date;
}

export interface RealisticSeed {
  months: [string, string];
  /** Ids and page paths of the events, by the seed's own names. */
  events: Record<string, { id: number; path: string }>;
  venues: Record<string, { id: number; path: string }>;
  organizers: Record<string, { id: number; path: string }>;
  categories: Record<string, { id: number; path: string }>;
  tags: Record<string, { id: number; path: string }>;
  /** Events created, occurrences of the series included. */
  eventCount: number;
  /** One page of each kind (path), for page checks and screenshots. */
  pages: Record<string, string>;
}

/** What the seed reads of an answer: a record's id and page, or the settings. */
type Answer = { id: number; url: string } & Record<string, unknown>;

type Send = (
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  body?: unknown,
) => Promise<{ status: number; data: Answer }>;

const NS = '/cal/events/v1';

function sender(target: FastifyInstance | string, authorization: string): Send {
  const headers = { authorization, 'content-type': 'application/json' };
  if (typeof target === 'string') {
    const base = target.replace(/\/$/, '');
    return async (method, url, body) => {
      const response = await fetch(`${base}${url}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, data: text === '' ? undefined : JSON.parse(text) };
    };
  }
  return async (method, url, body) => {
    const response = await target.inject({
      method,
      url,
      headers,
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: response.statusCode, data: response.body === '' ? undefined : JSON.parse(response.body) };
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM` plus `n` months. */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + n;
  return `${Math.floor(index / 12)}-${pad((index % 12) + 1)}`;
}

function lastDay(month: string): number {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** Day of the week (0 Sunday) of a `YYYY-MM-DD`. */
function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

const VENUES = {
  cathedral: {
    venue: 'Place de la Cathédrale',
    address: 'Place de la Cathédrale',
    city: 'Strasbourg',
    zip: '67000',
    country: 'France',
    geo_lat: 48.5818,
    geo_lng: 7.7507,
    description: '<p>The square in front of the cathedral, home of the oldest Christmas market in France.</p>',
  },
  opera: {
    venue: 'Opéra national du Rhin',
    address: '19 place Broglie',
    city: 'Strasbourg',
    zip: '67000',
    country: 'France',
    phone: '+33 3 68 98 51 00',
    website: 'https://opera.example.org/',
    geo_lat: 48.5856,
    geo_lng: 7.7509,
  },
  palais: {
    venue: 'Palais de la Musique et des Congrès',
    address: 'Place de Bordeaux',
    city: 'Strasbourg',
    zip: '67082',
    country: 'France',
    geo_lat: 48.5954,
    geo_lng: 7.7636,
  },
  orangerie: {
    venue: "Parc de l'Orangerie",
    address: 'Avenue de l’Europe',
    city: 'Strasbourg',
    zip: '67000',
    country: 'France',
    geo_lat: 48.593,
    geo_lng: 7.775,
  },
  library: {
    venue: 'Médiathèque André Malraux',
    address: '1 presqu’île André Malraux',
    city: 'Strasbourg',
    zip: '67100',
    country: 'France',
    geo_lat: 48.5785,
    geo_lng: 7.7595,
  },
  laiterie: {
    venue: 'La Laiterie',
    address: '13 rue du Hohwald',
    city: 'Strasbourg',
    zip: '67000',
    country: 'France',
    geo_lat: 48.5765,
    geo_lng: 7.735,
  },
  rives: {
    venue: 'Jardin des Deux Rives',
    address: 'Rue des Cavaliers',
    city: 'Strasbourg',
    zip: '67100',
    country: 'France',
    geo_lat: 48.568,
    geo_lng: 7.799,
  },
  cafe: {
    venue: 'Café Rohan',
    address: '2 place du Château',
    city: 'Strasbourg',
    zip: '67000',
    country: 'France',
    geo_lat: 48.581,
    geo_lng: 7.752,
  },
} as const;

const ORGANIZERS = {
  city: {
    organizer: 'City of Strasbourg Culture Office',
    email: 'culture@example.org',
    website: 'https://culture.example.org/',
    phone: '+33 3 68 98 50 00',
  },
  jazz: { organizer: 'Jazz au Fil de l’Eau', email: 'hello@jazz.example.org', website: 'https://jazz.example.org/' },
  music: { organizer: 'Les Amis de la Musique', email: 'amis@example.org' },
  tokyo: { organizer: 'Tokyo–Strasbourg Arts Exchange', website: 'https://arts-exchange.example.org/' },
  marie: { organizer: 'Marie Dubois', email: 'marie.dubois@example.org' },
} as const;

const CATEGORIES = {
  festivals: ['Festivals', 'Several days of music, film and light across the city.'],
  music: ['Music', 'Concerts, jams and recitals.'],
  markets: ['Markets', 'Christmas, farmers’ and flea markets.'],
  stage: ['Theatre & Dance', 'Opera, ballet, theatre and dance.'],
  family: ['Family', 'For children and their grown-ups.'],
  workshops: ['Workshops', 'Learn something with your hands.'],
  film: ['Film', 'Screenings and film festivals.'],
  talks: ['Talks', 'Lectures, readings and debates.'],
} as const;

type VenueName = keyof typeof VENUES;
type OrganizerName = keyof typeof ORGANIZERS;
type CategoryName = keyof typeof CATEGORIES;

/** A date of the seed: `[month index from the first month, day, 'HH:MM'?]`; no time: all day. */
type When = [number, number, string?];

/** One event of the seed. */
interface Plan {
  name: string;
  title: string;
  /** Or an absolute local `YYYY-MM-DD HH:MM:SS` (the event of today). */
  start: When | string;
  end: When | string;
  venue?: VenueName;
  organizers?: OrganizerName[];
  categories?: CategoryName[];
  tags?: string[];
  cost?: string;
  image?: boolean;
  excerpt?: string;
  description?: string;
  featured?: boolean;
  recurrence?: { rrule: string };
  fr?: { title: string; description: string };
}

/** The seed's events but the two series and the one of today. `-1` as a day: the month's last. */
const PLANS: Plan[] = [
  // The first month.
  {
    name: 'flea',
    title: 'Flea Market on the Quays',
    start: [0, 1, '08:00'],
    end: [0, 1, '17:00'],
    venue: 'rives',
    categories: ['markets'],
    tags: ['outdoor', 'free'],
    cost: 'Free',
  },
  {
    name: 'breakfast',
    title: 'Startup Breakfast',
    start: [0, 3, '08:00'],
    end: [0, 3, '09:30'],
    venue: 'cafe',
    categories: ['talks'],
    cost: 'Free',
  },
  {
    name: 'jazzfest',
    title: 'Jazz au Fil de l’Eau Festival',
    start: [0, 5, '18:00'],
    end: [0, 9, '23:30'],
    venue: 'laiterie',
    organizers: ['jazz'],
    categories: ['festivals', 'music'],
    tags: ['jazz'],
    cost: 'Pass 5 jours : 30 €',
    image: true,
    featured: true,
    excerpt: 'Five nights of jazz by the river: forty bands, three stages, one pass.',
    fr: {
      title: 'Festival Jazz au Fil de l’Eau',
      description: '<p>Cinq soirées de jazz au bord de l’eau : quarante groupes, trois scènes, un seul pass.</p>',
    },
  },
  {
    name: 'games',
    title: 'Board Game Night',
    start: [0, 6, '19:00'],
    end: [0, 6, '23:00'],
    venue: 'cafe',
    categories: ['family'],
    tags: ['free'],
    cost: 'Free',
  },
  {
    name: 'brunch',
    title: 'Sunday Jazz Brunch',
    start: [0, 8, '11:00'],
    end: [0, 8, '14:00'],
    venue: 'cafe',
    organizers: ['jazz'],
    categories: ['music'],
    tags: ['jazz', 'food'],
    cost: '29 € incl. brunch',
    image: true,
  },
  {
    name: 'cooking',
    title: 'Atelier de cuisine alsacienne : bredele et kougelhopf',
    start: [0, 10, '18:30'],
    end: [0, 10, '21:00'],
    venue: 'cafe',
    organizers: ['marie'],
    categories: ['workshops'],
    tags: ['food'],
    cost: '45 €',
  },
  {
    name: 'schubert',
    title: 'Chamber Music: Schubert Trios',
    start: [0, 11, '19:00'],
    end: [0, 11, '21:00'],
    venue: 'palais',
    organizers: ['music'],
    categories: ['music'],
    cost: '15 €',
  },
  {
    name: 'exhibition',
    title: 'Winter Light: Photographs of the Rhine',
    start: [0, 12],
    end: [1, 20],
    venue: 'library',
    organizers: ['city'],
    categories: ['family'],
    tags: ['free', 'accessible'],
    cost: 'Free',
    image: true,
    excerpt: 'Sixty photographs of the river in winter, from dawn fog to frozen harbours.',
    fr: {
      title: 'Lumière d’hiver : photographies du Rhin',
      description: '<p>Soixante photographies du fleuve en hiver, du brouillard de l’aube aux ports gelés.</p>',
    },
  },
  {
    name: 'ikiru',
    title: 'Film Night: Kurosawa’s Ikiru (生きる)',
    start: [0, 12, '20:30'],
    end: [0, 12, '23:00'],
    venue: 'laiterie',
    organizers: ['tokyo'],
    categories: ['film'],
    tags: ['japan'],
    cost: '8 €',
  },
  {
    name: 'yoga1',
    title: 'Morning Yoga in the Park',
    start: [0, 14, '07:30'],
    end: [0, 14, '08:30'],
    venue: 'orangerie',
    categories: ['workshops'],
    tags: ['outdoor'],
    cost: 'Free',
  },
  {
    name: 'science',
    title: 'Kids’ Science Workshop: Volcanoes',
    start: [0, 14, '10:00'],
    end: [0, 14, '12:00'],
    venue: 'library',
    categories: ['family', 'workshops'],
    tags: ['kids'],
    cost: '5 €',
  },
  {
    name: 'organ',
    title: 'Lunchtime Organ Recital',
    start: [0, 14, '12:30'],
    end: [0, 14, '13:15'],
    venue: 'cathedral',
    organizers: ['music'],
    categories: ['music'],
    tags: ['free'],
    cost: 'Free',
  },
  {
    name: 'poetry',
    title: 'Poetry Reading: Voices of the Rhine',
    start: [0, 14, '18:00'],
    end: [0, 14, '19:30'],
    venue: 'library',
    categories: ['talks'],
    cost: 'Free',
  },
  {
    name: 'tokyojazz',
    title: '東京ジャズ・ナイト',
    start: [0, 14, '20:00'],
    end: [0, 14, '23:00'],
    venue: 'laiterie',
    organizers: ['tokyo', 'jazz'],
    categories: ['music'],
    tags: ['jazz', 'japan'],
    cost: '25–60 €',
    image: true,
    excerpt: 'The Tokyo quartet Blue Kanji on their first European tour.',
  },
  {
    name: 'calligraphy',
    title: '書道ワークショップ：はじめての筆',
    start: [0, 15, '14:00'],
    end: [0, 15, '16:30'],
    venue: 'library',
    organizers: ['tokyo'],
    categories: ['workshops'],
    tags: ['japan'],
    cost: '$10',
  },
  {
    name: 'astronomy',
    title:
      'The Very Long and Wonderfully Detailed Annual Gathering of Amateur and Professional Astronomers, Telescope Builders, Science-Fiction Writers and Curious Families Under the Winter Sky of Alsace (Night Edition)',
    start: [0, 18, '19:00'],
    end: [0, 18, '23:30'],
    venue: 'orangerie',
    organizers: ['city'],
    categories: ['talks', 'family'],
    tags: ['outdoor', 'kids', 'free'],
    cost: 'Free',
    image: true,
  },
  {
    name: 'traviata',
    title: 'Opera: La Traviata',
    start: [0, 19, '20:00'],
    end: [0, 19, '23:00'],
    venue: 'opera',
    categories: ['stage'],
    cost: '25–60 €',
    image: true,
    fr: {
      title: 'Opéra : La Traviata',
      description: '<p>Le chef-d’œuvre de Verdi dans une mise en scène nouvelle.</p>',
    },
  },
  {
    name: 'wine',
    title: 'Wine Tasting: Alsace Grands Crus',
    start: [0, 20, '18:00'],
    end: [0, 20, '20:00'],
    venue: 'cafe',
    organizers: ['marie'],
    categories: ['workshops'],
    tags: ['food'],
    cost: '35 €',
  },
  {
    name: 'korean',
    title: '한국 전통 음악의 밤',
    start: [0, 21, '19:30'],
    end: [0, 21, '22:00'],
    venue: 'palais',
    categories: ['music'],
    tags: ['korea'],
    cost: '12 €',
    image: true,
  },
  {
    name: 'seoulfilm',
    title: '서울 영화 주간: 새로운 목소리',
    start: [0, 22],
    end: [0, 23],
    venue: 'library',
    categories: ['film'],
    tags: ['korea', 'free'],
    cost: 'Free',
  },
  {
    name: 'dance',
    title: 'Contemporary Dance: Lines',
    start: [0, 25, '20:00'],
    end: [0, 25, '21:30'],
    venue: 'opera',
    categories: ['stage'],
    cost: '18–32 €',
  },
  {
    name: 'books',
    title: 'Book Fair',
    start: [0, 26],
    end: [0, 28],
    venue: 'palais',
    categories: ['talks', 'family'],
    tags: ['kids'],
    cost: 'Free',
  },
  {
    name: 'lights',
    title: 'Festival of Lights',
    start: [0, 27],
    end: [1, 3],
    venue: 'cathedral',
    organizers: ['city'],
    categories: ['festivals'],
    tags: ['outdoor', 'free'],
    cost: 'Free',
    image: true,
  },
  {
    name: 'switchon',
    title: 'Switch-On of the Winter Lights',
    start: [0, 27, '17:30'],
    end: [0, 27, '18:30'],
    venue: 'cathedral',
    organizers: ['city'],
    categories: ['family'],
    tags: ['outdoor', 'free'],
    cost: 'Free',
  },
  {
    name: 'run',
    title: 'Rhine Riverside Run (10 km)',
    start: [0, 28, '09:00'],
    end: [0, 28, '11:00'],
    venue: 'rives',
    categories: ['family'],
    tags: ['outdoor'],
    cost: '$10',
  },
  // The second month.
  {
    name: 'market',
    title: 'Christmas Market on the Cathedral Square',
    start: [1, 1],
    end: [1, -1],
    venue: 'cathedral',
    organizers: ['city'],
    categories: ['markets'],
    tags: ['christmas', 'outdoor', 'food', 'free'],
    cost: 'Free',
    image: true,
    featured: true,
    excerpt: 'Three hundred wooden stalls, mulled wine and bredele around the cathedral, every day of the month.',
    fr: {
      title: 'Marché de Noël de la place de la Cathédrale',
      description: '<p>Trois cents chalets, vin chaud et bredele autour de la cathédrale, tous les jours du mois.</p>',
    },
  },
  {
    name: 'history',
    title: 'Lecture: The History of the Christmas Market',
    start: [1, 2, '18:30'],
    end: [1, 2, '20:00'],
    venue: 'library',
    categories: ['talks'],
    tags: ['christmas', 'free'],
    cost: 'Free',
  },
  {
    name: 'robotics',
    title: 'Robotics Meetup',
    start: [1, 3, '19:00'],
    end: [1, 3, '21:00'],
    venue: 'library',
    categories: ['talks'],
    cost: 'Free',
  },
  {
    name: 'koreanfest',
    title: 'Korean Winter Festival (한국 겨울 축제)',
    start: [1, 5],
    end: [1, 6],
    venue: 'rives',
    categories: ['festivals'],
    tags: ['korea', 'outdoor', 'free'],
    cost: 'Free',
    image: true,
  },
  {
    name: 'advent1',
    title: 'Advent Organ Concert',
    start: [1, 6, '17:00'],
    end: [1, 6, '18:00'],
    venue: 'cathedral',
    organizers: ['music'],
    categories: ['music'],
    tags: ['christmas'],
    cost: 'Free',
  },
  {
    name: 'photowalk',
    title: 'Photography Walk: Petite France at Dusk',
    start: [1, 8, '16:00'],
    end: [1, 8, '18:00'],
    venue: 'cafe',
    organizers: ['marie'],
    categories: ['workshops'],
    tags: ['outdoor'],
    cost: '15 €',
  },
  {
    name: 'filmfest',
    title: 'Film Festival: Nights of the Short Film',
    start: [1, 9, '10:00'],
    end: [1, 13, '22:00'],
    venue: 'laiterie',
    categories: ['festivals', 'film'],
    cost: '8–15 €',
    image: true,
  },
  {
    name: 'chansons',
    title: 'Vin chaud & chansons',
    start: [1, 11, '19:00'],
    end: [1, 11, '21:00'],
    venue: 'cafe',
    categories: ['music'],
    tags: ['christmas', 'free'],
    cost: 'Free',
  },
  {
    name: 'skating',
    title: 'Ice Skating Gala',
    start: [1, 12, '18:00'],
    end: [1, 12, '20:00'],
    venue: 'rives',
    categories: ['family'],
    tags: ['kids', 'outdoor'],
    cost: '5 €',
    image: true,
  },
  {
    name: 'advent2',
    title: 'Advent Organ Concert',
    start: [1, 13, '17:00'],
    end: [1, 13, '18:00'],
    venue: 'cathedral',
    organizers: ['music'],
    categories: ['music'],
    tags: ['christmas'],
    cost: 'Free',
  },
  {
    name: 'messiah',
    title: 'Messiah Sing-Along',
    start: [1, 14, '19:30'],
    end: [1, 14, '22:00'],
    venue: 'palais',
    organizers: ['music'],
    categories: ['music'],
    cost: '20 €',
  },
  {
    name: 'cyrano',
    title: 'Theatre: Cyrano de Bergerac',
    start: [1, 15, '20:00'],
    end: [1, 15, '23:00'],
    venue: 'opera',
    categories: ['stage'],
    cost: '22–38 €',
    fr: {
      title: 'Théâtre : Cyrano de Bergerac',
      description: '<p>La pièce d’Edmond Rostand, en alexandrins et en costumes.</p>',
    },
  },
  {
    name: 'choir',
    title: 'Choir Days',
    start: [1, 17],
    end: [1, 19],
    venue: 'cathedral',
    categories: ['music'],
    tags: ['christmas', 'free'],
    cost: 'Free',
  },
  {
    name: 'yoga2',
    title: 'Morning Yoga',
    start: [1, 18, '07:00'],
    end: [1, 18, '08:00'],
    venue: 'orangerie',
    categories: ['workshops'],
    cost: 'Free',
  },
  {
    name: 'gingerbread',
    title: 'Gingerbread Baking for Kids',
    start: [1, 18, '10:00'],
    end: [1, 18, '12:00'],
    venue: 'cafe',
    organizers: ['marie'],
    categories: ['family', 'workshops'],
    tags: ['kids', 'food', 'christmas'],
    cost: '6 €',
  },
  {
    name: 'lunch',
    title: 'Lunch Concert',
    start: [1, 18, '12:00'],
    end: [1, 18, '13:00'],
    venue: 'palais',
    categories: ['music'],
    cost: 'Free',
  },
  {
    name: 'stars',
    title: 'Craft Workshop: Paper Stars',
    start: [1, 18, '15:00'],
    end: [1, 18, '17:00'],
    venue: 'library',
    categories: ['workshops', 'family'],
    tags: ['kids'],
    cost: '6 €',
  },
  {
    name: 'nutcracker',
    title: 'The Nutcracker',
    start: [1, 18, '19:30'],
    end: [1, 18, '22:00'],
    venue: 'opera',
    categories: ['stage'],
    tags: ['christmas'],
    cost: '25–60 €',
    image: true,
    featured: true,
    excerpt: 'Tchaikovsky’s ballet by the Ballet du Rhin, with the city’s children’s choir.',
    fr: {
      title: 'Casse-Noisette',
      description: '<p>Le ballet de Tchaïkovski par le Ballet du Rhin, avec la maîtrise de la ville.</p>',
    },
  },
  {
    name: 'latejazz',
    title: 'Late Night Jazz Session',
    start: [1, 18, '22:30'],
    end: [1, 19, '01:30'],
    venue: 'laiterie',
    organizers: ['jazz'],
    categories: ['music'],
    tags: ['jazz'],
    cost: '$10',
  },
  {
    name: 'design',
    title: 'Design Market',
    start: [1, 19, '10:00'],
    end: [1, 20, '18:00'],
    venue: 'palais',
    categories: ['markets'],
    tags: ['free'],
    cost: 'Free',
  },
  {
    name: 'children',
    title: 'Concert de Noël des enfants',
    start: [1, 20, '16:00'],
    end: [1, 20, '17:30'],
    venue: 'cathedral',
    categories: ['music', 'family'],
    tags: ['kids', 'christmas', 'free'],
    cost: 'Free',
  },
  {
    name: 'advent3',
    title: 'Advent Organ Concert',
    start: [1, 20, '17:00'],
    end: [1, 20, '18:00'],
    venue: 'cathedral',
    organizers: ['music'],
    categories: ['music'],
    tags: ['christmas'],
    cost: 'Free',
  },
  {
    name: 'lanterns',
    title: 'Winter Solstice Lantern Walk',
    start: [1, 21, '17:00'],
    end: [1, 21, '19:00'],
    venue: 'orangerie',
    categories: ['family'],
    tags: ['kids', 'outdoor', 'free'],
    cost: 'Free',
    image: true,
  },
  {
    name: 'puppets',
    title: 'Kids’ Puppet Show',
    start: [1, 23, '15:00'],
    end: [1, 23, '16:00'],
    venue: 'library',
    categories: ['family'],
    tags: ['kids'],
    cost: '4 €',
  },
  {
    name: 'gospel',
    title: 'Gospel Night',
    start: [1, 26, '20:00'],
    end: [1, 26, '22:00'],
    venue: 'palais',
    categories: ['music'],
    cost: '15–25 €',
  },
  {
    name: 'shogatsu',
    title: 'Japanese New Year Crafts: 正月飾り',
    start: [1, 27, '14:00'],
    end: [1, 27, '17:00'],
    venue: 'library',
    organizers: ['tokyo'],
    categories: ['workshops'],
    tags: ['japan'],
    cost: '12 €',
  },
  {
    name: 'online',
    title: 'Online Talk: Cities After Dark',
    start: [1, 28, '18:00'],
    end: [1, 28, '19:00'],
    categories: ['talks'],
    cost: 'Free',
    excerpt: 'A talk about night-time economies, streamed live.',
  },
  {
    name: 'party',
    title: 'New Year’s Eve Party on the Quays',
    start: [1, -1, '22:00'],
    end: [2, 1, '02:00'],
    venue: 'rives',
    categories: ['music'],
    tags: ['outdoor'],
    cost: '$10',
    image: true,
  },
];

function describe(plan: Plan, venueName: string | undefined): string {
  if (plan.description) return plan.description;
  const where = venueName ? ` at ${venueName}` : ' online';
  return [
    `<p>${escapeHtml(plan.title)}${where}. ${plan.excerpt ? escapeHtml(plan.excerpt) : 'Everyone is welcome; come early for a good seat.'}</p>`,
    `<p>Doors open half an hour before the start. ${plan.cost === 'Free' ? 'Entry is free.' : `Tickets: ${escapeHtml(plan.cost ?? 'see the website')}.`}</p>`,
  ].join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

function pathOf(url: string): string {
  return new URL(url).pathname;
}

/**
 * Fills the calendar behind `target` (an app, through inject, or a base URL, through fetch) with
 * the realistic two months starting at `options.month`.
 */
export async function seedRealistic(
  target: FastifyInstance | string,
  options: RealisticOptions,
): Promise<RealisticSeed> {
  const send = sender(target, options.authorization);
  const now = options.now ?? new Date();
  const first = options.month ?? now.toISOString().slice(0, 7);
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(first)) throw new Error(`month: expected YYYY-MM, got "${first}"`);
  const months: [string, string] = [first, addMonths(first, 1)];
  const imageBase = options.imageBase ?? 'http://127.0.0.1:8090/images/';
  const ok = async (method: 'POST' | 'PATCH', url: string, body: unknown) => {
    const response = await send(method, url, body);
    if (response.status >= 300)
      throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(response.data)}`);
    return response.data;
  };

  // A second run (another month, the same database) reuses the venues, organizers and terms of
  // the first instead of making "-2" copies of them.
  const reuse = async (kind: 'venues' | 'organizers', key: string, name: string, fields: object) => {
    const found = await send('GET', `${NS}/${kind}?search=${encodeURIComponent(name)}&per_page=50`);
    const list = (found.data?.[kind] ?? []) as Answer[];
    return list.find((record) => record[key] === name) ?? (await ok('POST', `${NS}/${kind}`, fields));
  };
  const term = async (kind: 'categories' | 'tags', fields: { name: string; description?: string }) => {
    const made = await send('POST', `${NS}/${kind}`, fields);
    const existing = made.data?.['code'] === 'term_exists' ? (made.data['data'] as { term_id?: number }) : undefined;
    if (existing?.term_id) return (await send('GET', `${NS}/${kind}/${existing.term_id}`)).data;
    if (made.status >= 300) throw new Error(`POST ${NS}/${kind}: ${made.status} ${JSON.stringify(made.data)}`);
    return made.data;
  };

  // Coordinates are kept only while the geolocation extension is on (SPEC item 14); the map view
  // needs them. The setting goes back to what it was once the venues are stored.
  const settings = (await send('GET', '/cal/admin/v1/settings')).data as unknown as {
    geoloc: boolean;
    timezone: string;
  };
  if (!settings.geoloc) await ok('PATCH', '/cal/admin/v1/settings', { geoloc: true });
  const venues: RealisticSeed['venues'] = {};
  for (const [name, fields] of Object.entries(VENUES)) {
    const made = await reuse('venues', 'venue', fields.venue, { ...fields, image: `${imageBase}venue-${name}.svg` });
    venues[name] = { id: made.id, path: pathOf(made.url) };
  }
  if (!settings.geoloc) await ok('PATCH', '/cal/admin/v1/settings', { geoloc: false });

  const organizers: RealisticSeed['organizers'] = {};
  for (const [name, fields] of Object.entries(ORGANIZERS)) {
    const made = await reuse('organizers', 'organizer', fields.organizer, fields);
    organizers[name] = { id: made.id, path: pathOf(made.url) };
  }
  const categories: RealisticSeed['categories'] = {};
  for (const [name, [label, description]] of Object.entries(CATEGORIES)) {
    const made = await term('categories', { name: label, description });
    categories[name] = { id: made.id, path: pathOf(made.url) };
  }
  const tags: RealisticSeed['tags'] = {};
  for (const name of ['free', 'outdoor', 'kids', 'jazz', 'christmas', 'japan', 'korea', 'food', 'accessible']) {
    const made = await term('tags', { name });
    tags[name] = { id: made.id, path: pathOf(made.url) };
  }

  const at = (when: When | string): string => {
    if (typeof when === 'string') return when;
    const [index, day, time] = when;
    const month = addMonths(first, index);
    const d = day === -1 ? lastDay(month) : day;
    return `${month}-${pad(d)}${time ? ` ${time}:00` : ''}`;
  };
  const body = (plan: Plan) => ({
    title: plan.title,
    description: describe(plan, plan.venue ? VENUES[plan.venue].venue : undefined),
    ...(plan.excerpt ? { excerpt: `<p>${escapeHtml(plan.excerpt)}</p>` } : {}),
    start_date: at(plan.start),
    end_date: at(plan.end),
    ...(at(plan.start).length === 10 ? { all_day: true } : {}),
    ...(plan.venue ? { venue: venues[plan.venue]!.id } : {}),
    ...(plan.organizers ? { organizer: plan.organizers.map((o) => organizers[o]!.id) } : {}),
    ...(plan.categories ? { categories: plan.categories.map((c) => categories[c]!.id) } : {}),
    ...(plan.tags ? { tags: plan.tags.map((t) => tags[t]!.id) } : {}),
    ...(plan.cost ? { cost: plan.cost } : {}),
    ...(plan.image ? { image: `${imageBase}${plan.name}.svg` } : {}),
    ...(plan.featured ? { featured: true } : {}),
    ...(plan.recurrence ? { recurrence: plan.recurrence } : {}),
  });

  const events: RealisticSeed['events'] = {};
  let eventCount = 0;
  const create = async (plan: Plan) => {
    const made = await ok('POST', `${NS}/events`, body(plan));
    events[plan.name] = { id: made.id, path: pathOf(made.url) };
    eventCount += 1;
    if (plan.fr) {
      const fr = await ok('POST', `/fr${NS}/events`, {
        ...body(plan),
        title: plan.fr.title,
        description: plan.fr.description,
        translation_of: made.id,
      });
      events[`${plan.name}-fr`] = { id: fr.id, path: pathOf(fr.url) };
      eventCount += 1;
    }
    return made;
  };
  for (const plan of PLANS) await create(plan);
  eventCount += await createSeries(create, months, first);
  const today = await createEndedToday(create, now, settings.timezone);
  if (today) eventCount += 1;

  const busyDay = at([1, 18]);
  return {
    months,
    events,
    venues,
    organizers,
    categories,
    tags,
    eventCount,
    pages: {
      month: `/events/month/${months[1]}/`,
      'month-first': `/events/month/${months[0]}/`,
      week: `/events/week/${busyDay}/`,
      list: '/events/list/',
      photo: '/events/photo/',
      map: '/events/map/',
      day: `/events/day/${busyDay}/`,
      event: events['nutcracker']!.path,
      'event-long-title': events['astronomy']!.path,
      'event-japanese': events['tokyojazz']!.path,
      'event-fr': events['market-fr']!.path,
      venue: venues['opera']!.path,
      organizer: organizers['jazz']!.path,
      category: categories['music']!.path,
      tag: tags['christmas']!.path,
      'embed-snippet': '/events/embed/',
      embed: `/events/month/${months[1]}/?embed=1`,
      'embed-list': '/events/list/?embed=1&category=music',
      'month-fr': `/fr/events/month/${months[1]}/`,
      'list-search': '/events/list/?search=jazz',
      'not-found': '/event/no-such-event-here/',
    },
  };
}

/**
 * The two weekly series: a jazz jam every Wednesday and a farmers' market every Saturday, from
 * the first such day of the first month to the end of the second. Returns the occurrences made.
 */
async function createSeries(
  create: (plan: Plan) => Promise<{ id: number }>,
  months: [string, string],
  first: string,
): Promise<number> {
  const until = `${months[1].replace('-', '')}${pad(lastDay(months[1]))}T235959Z`;
  const firstOf = (day: number) => {
    const offset = (day - weekday(`${first}-01`) + 7) % 7;
    return 1 + offset;
  };
  const series: Plan[] = [
    {
      name: 'jam',
      title: 'Wednesday Jazz Jam',
      start: [0, firstOf(3), '20:00'],
      end: [0, firstOf(3), '23:00'],
      venue: 'laiterie',
      organizers: ['jazz'],
      categories: ['music'],
      tags: ['jazz', 'free'],
      cost: 'Free',
      recurrence: { rrule: `FREQ=WEEKLY;BYDAY=WE;UNTIL=${until}` },
    },
    {
      name: 'farmers',
      title: 'Saturday Farmers’ Market',
      start: [0, firstOf(6), '08:00'],
      end: [0, firstOf(6), '13:00'],
      venue: 'rives',
      categories: ['markets'],
      tags: ['food', 'outdoor', 'free'],
      cost: 'Free',
      image: true,
      recurrence: { rrule: `FREQ=WEEKLY;BYDAY=SA;UNTIL=${until}` },
    },
  ];
  let occurrences = 0;
  for (const plan of series) {
    await create(plan);
    // The series itself was counted by create(): count its other occurrences.
    const weeks = Math.floor((lastDay(months[0]) + lastDay(months[1]) - (plan.start as When)[1]) / 7);
    occurrences += weeks;
  }
  return occurrences;
}

/** An event of today that ended half an hour ago (none just after midnight: there is no "earlier"). */
async function createEndedToday(
  create: (plan: Plan) => Promise<{ id: number }>,
  now: Date,
  zone: string,
): Promise<boolean> {
  const wall = utcToLocal(nowUtc(new Date(now.getTime() - 30 * 60_000)), zoneOrUtc(zone));
  const today = utcToLocal(nowUtc(now), zoneOrUtc(zone)).slice(0, 10);
  if (wall.slice(0, 10) !== today || wall.slice(11, 16) < '00:30') return false;
  const endMinutes = Number(wall.slice(11, 13)) * 60 + Number(wall.slice(14, 16));
  const startMinutes = Math.max(0, endMinutes - 60);
  const hhmm = (m: number) => `${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
  await create({
    name: 'earlier-today',
    title: 'Early Swim Club',
    start: `${today} ${hhmm(startMinutes)}:00`,
    end: `${today} ${hhmm(endMinutes)}:00`,
    venue: 'rives',
    categories: ['family'],
    tags: ['outdoor'],
    cost: 'Free',
    description: '<p>The swim club’s session of this morning, already over.</p>',
  });
  return true;
}

function argument(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
}

/** The command line: fills the database of DATA_DIR/--data-dir (or DATABASE_URL) for `npm start`. */
async function main(args: string[]): Promise<void> {
  const { openService } = await import('./realistic-service.js');
  const { startImageServer } = await import('./seed-images.js');
  const servePort = Number(argument(args, '--serve-images') ?? 8090) || 8090;
  if (args.includes('--serve-images')) {
    const server = await startImageServer(servePort);
    process.stdout.write(`serving the seed's pictures at ${server.base} (Ctrl-C stops)\n`);
    return;
  }
  const dataDir = argument(args, '--data-dir') ?? process.env['DATA_DIR'];
  const env: Record<string, string> = {};
  for (const name of ['DATABASE_URL', 'CAL_TIMEZONE', 'CAL_LANGUAGES'])
    if (process.env[name]) env[name] = process.env[name]!;
  const service = await openService({ ...env, ...(dataDir ? { DATA_DIR: dataDir } : {}) });
  try {
    const month = argument(args, '--month');
    const imageBase = argument(args, '--image-base') ?? `http://127.0.0.1:${servePort}/images/`;
    const seeded = await seedRealistic(service.app, {
      authorization: service.authorization,
      imageBase,
      ...(month ? { month } : {}),
    });
    const where = service.config.databaseUrl ? 'PostgreSQL' : service.config.dataDir;
    process.stdout.write(
      `${seeded.eventCount} events over ${seeded.months.join(' and ')} in ${where}\n` +
        `pictures: ${imageBase} (npx tsx bench/seed-realistic.ts --serve-images ${servePort} serves them)\n` +
        Object.entries(seeded.pages)
          .map(([kind, path]) => `  ${kind}: ${path}\n`)
          .join(''),
    );
  } finally {
    await service.close();
  }
}

// Not a top-level await: main() imports realistic-service.ts, which imports this module back.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
