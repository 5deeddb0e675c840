import { Frequency, libraryText, type Rule } from './recurrence.rule.js';

/**
 * "Every 2 weeks on Tuesday until 31 December 2027", in the request's language. Written here
 * because the library's own text is English only and word by word; the names of days, months and
 * dates come from `Intl`, so only the sentence frames are ours (en, fr, it, es, de). Rules with
 * parts the frames do not cover (BYHOUR, BYWEEKNO, BYYEARDAY, most BYSETPOS…) fall back to the
 * library's English text rather than say something wrong.
 */

interface Phrases {
  every: Record<'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY', [one: string, many: string]>;
  onDays: string;
  ordinals: Record<string, string>;
  onNth: string;
  onMonthDay: string;
  inMonths: string;
  times: string;
  until: string;
  /** "weekday" (Monday to Friday), for BYSETPOS over the working days: "the last weekday". */
  weekday: string;
  /** The Intl locale of dates: English is written day-month-year, as in the example. */
  locale: string;
}

const PHRASES: Record<string, Phrases> = {
  en: {
    every: {
      DAILY: ['Every day', 'Every {n} days'],
      WEEKLY: ['Every week', 'Every {n} weeks'],
      MONTHLY: ['Every month', 'Every {n} months'],
      YEARLY: ['Every year', 'Every {n} years'],
    },
    onDays: 'on {days}',
    ordinals: {
      '1': 'first',
      '2': 'second',
      '3': 'third',
      '4': 'fourth',
      '5': 'fifth',
      '-1': 'last',
      '-2': 'second to last',
    },
    onNth: 'on the {nth} {day}',
    onMonthDay: 'on day {days}',
    inMonths: 'in {months}',
    times: '{n} times',
    until: 'until {date}',
    weekday: 'weekday',
    locale: 'en-GB',
  },
  fr: {
    every: {
      DAILY: ['Tous les jours', 'Tous les {n} jours'],
      WEEKLY: ['Toutes les semaines', 'Toutes les {n} semaines'],
      MONTHLY: ['Tous les mois', 'Tous les {n} mois'],
      YEARLY: ['Tous les ans', 'Tous les {n} ans'],
    },
    onDays: 'le {days}',
    ordinals: {
      '1': 'premier',
      '2': 'deuxième',
      '3': 'troisième',
      '4': 'quatrième',
      '5': 'cinquième',
      '-1': 'dernier',
      '-2': 'avant-dernier',
    },
    onNth: 'le {nth} {day}',
    onMonthDay: 'le {days}',
    inMonths: 'en {months}',
    times: '{n} fois',
    until: "jusqu'au {date}",
    weekday: 'jour de semaine',
    locale: 'fr',
  },
  it: {
    every: {
      DAILY: ['Ogni giorno', 'Ogni {n} giorni'],
      WEEKLY: ['Ogni settimana', 'Ogni {n} settimane'],
      MONTHLY: ['Ogni mese', 'Ogni {n} mesi'],
      YEARLY: ['Ogni anno', 'Ogni {n} anni'],
    },
    onDays: 'di {days}',
    ordinals: {
      '1': 'primo',
      '2': 'secondo',
      '3': 'terzo',
      '4': 'quarto',
      '5': 'quinto',
      '-1': 'ultimo',
      '-2': 'penultimo',
    },
    onNth: "l'{nth} {day}",
    onMonthDay: 'il giorno {days}',
    inMonths: 'a {months}',
    times: '{n} volte',
    until: 'fino al {date}',
    weekday: 'giorno feriale',
    locale: 'it',
  },
  es: {
    every: {
      DAILY: ['Cada día', 'Cada {n} días'],
      WEEKLY: ['Cada semana', 'Cada {n} semanas'],
      MONTHLY: ['Cada mes', 'Cada {n} meses'],
      YEARLY: ['Cada año', 'Cada {n} años'],
    },
    onDays: 'el {days}',
    ordinals: {
      '1': 'primer',
      '2': 'segundo',
      '3': 'tercer',
      '4': 'cuarto',
      '5': 'quinto',
      '-1': 'último',
      '-2': 'penúltimo',
    },
    onNth: 'el {nth} {day}',
    onMonthDay: 'el día {days}',
    inMonths: 'en {months}',
    times: '{n} veces',
    until: 'hasta el {date}',
    weekday: 'día laborable',
    locale: 'es',
  },
  de: {
    every: {
      DAILY: ['Täglich', 'Alle {n} Tage'],
      WEEKLY: ['Wöchentlich', 'Alle {n} Wochen'],
      MONTHLY: ['Monatlich', 'Alle {n} Monate'],
      YEARLY: ['Jährlich', 'Alle {n} Jahre'],
    },
    onDays: 'am {days}',
    ordinals: {
      '1': 'ersten',
      '2': 'zweiten',
      '3': 'dritten',
      '4': 'vierten',
      '5': 'fünften',
      '-1': 'letzten',
      '-2': 'vorletzten',
    },
    onNth: 'am {nth} {day}',
    onMonthDay: 'am {days}.',
    inMonths: 'im {months}',
    times: '{n} Mal',
    until: 'bis {date}',
    weekday: 'Werktag',
    locale: 'de',
  },
};

// The Italian elided article reads "l'ultimo", but "il primo": fix the frame per ordinal.
const ITALIAN_ARTICLE: Record<string, string> = {
  primo: 'il',
  secondo: 'il',
  terzo: 'il',
  quarto: 'il',
  quinto: 'il',
  penultimo: 'il',
};

const fill = (frame: string, values: Record<string, string>): string =>
  frame.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

/**
 * Names and list formats per locale, made once: building an Intl formatter costs tens of
 * microseconds, and a page of events may summarize a dozen series.
 */
const perLocale = new Map<
  string,
  { weekdays: string[]; months: string[]; list: Intl.ListFormat; date: Intl.DateTimeFormat }
>();

function localeNames(locale: string) {
  let names = perLocale.get(locale);
  if (!names) {
    const weekday = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
    const month = new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' });
    names = {
      // Monday is 0, as in the library. 2024-01-01 was a Monday.
      weekdays: Array.from({ length: 7 }, (_, i) => weekday.format(new Date(Date.UTC(2024, 0, 1 + i)))),
      months: Array.from({ length: 12 }, (_, i) => month.format(new Date(Date.UTC(2024, i, 1)))),
      list: new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }),
      date: new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
    };
    perLocale.set(locale, names);
  }
  return names;
}

const weekdayName = (locale: string, weekday: number): string => localeNames(locale).weekdays[weekday]!;
const monthName = (locale: string, month: number): string => localeNames(locale).months[month - 1]!;
const list = (locale: string, items: string[]): string => localeNames(locale).list.format(items);

const asArray = <T>(value: T | T[] | null | undefined): T[] =>
  value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];

type WeekdaySpec = number | { weekday: number; n?: number };
const weekdayOf = (d: WeekdaySpec): { weekday: number; n: number | undefined } =>
  typeof d === 'number' ? { weekday: d, n: undefined } : { weekday: d.weekday, n: d.n || undefined };

const FREQ_NAMES = {
  [Frequency.DAILY]: 'DAILY',
  [Frequency.WEEKLY]: 'WEEKLY',
  [Frequency.MONTHLY]: 'MONTHLY',
  [Frequency.YEARLY]: 'YEARLY',
} as Record<number, keyof Phrases['every'] | undefined>;
const UNCOVERED = ['byhour', 'byminute', 'bysecond', 'byweekno', 'byyearday', 'byeaster'] as const;

/** The summary of a series starting at `startLocal`, in `lang` (English for languages without frames). */
export function summarize(rule: Rule, startLocal: string, lang: string): string {
  const phrases = PHRASES[lang] ?? PHRASES['en']!;
  const o = rule.options;
  const freq = FREQ_NAMES[o.freq as number];
  if (freq === undefined || UNCOVERED.some((part) => asArray(o[part] as unknown).length > 0))
    return fallback(rule, startLocal);
  const locale = phrases.locale;
  const interval = o.interval ?? 1;
  const [one, many] = phrases.every[freq];
  const parts = [interval === 1 ? one : fill(many, { n: String(interval) })];

  const days = asArray(o.byweekday as WeekdaySpec | WeekdaySpec[]).map(weekdayOf);
  const positions = asArray(o.bysetpos as number | number[]);
  if (positions.length > 0) {
    // Covered: one position over Monday to Friday ("the last weekday of the month"); else the library's text.
    const workingDays = days.length === 5 && days.every((d, i) => d.n === undefined && d.weekday === i);
    const ordinal = phrases.ordinals[String(positions[0])];
    if (positions.length !== 1 || !workingDays || ordinal === undefined || o.bymonthday !== undefined)
      return fallback(rule, startLocal);
    const frame =
      lang === 'it' && ITALIAN_ARTICLE[ordinal]
        ? phrases.onNth.replace("l'", `${ITALIAN_ARTICLE[ordinal]} `)
        : phrases.onNth;
    return [...parts, fill(frame, { nth: ordinal, day: phrases.weekday }), ...ending(rule, phrases)].join(' ');
  }
  const plain = days.filter((d) => d.n === undefined);
  const nth = days.filter((d) => d.n !== undefined);
  if (plain.length > 0)
    parts.push(
      fill(phrases.onDays, {
        days: list(
          locale,
          plain.map((d) => weekdayName(locale, d.weekday)),
        ),
      }),
    );
  else if (freq === 'WEEKLY' && nth.length === 0) {
    const startWeekday = (new Date(`${startLocal.slice(0, 10)}T00:00:00Z`).getUTCDay() + 6) % 7;
    parts.push(fill(phrases.onDays, { days: weekdayName(locale, startWeekday) }));
  }
  for (const d of nth) {
    const ordinal = phrases.ordinals[String(d.n)] ?? `${d.n}.`;
    const frame =
      lang === 'it' && ITALIAN_ARTICLE[ordinal]
        ? phrases.onNth.replace("l'", `${ITALIAN_ARTICLE[ordinal]} `)
        : phrases.onNth;
    parts.push(fill(frame, { nth: ordinal, day: weekdayName(locale, d.weekday) }));
  }
  const monthDays = asArray(o.bymonthday as number | number[]);
  if (monthDays.length > 0) parts.push(fill(phrases.onMonthDay, { days: list(locale, monthDays.map(String)) }));
  const months = asArray(o.bymonth as number | number[]);
  if (months.length > 0)
    parts.push(
      fill(phrases.inMonths, {
        months: list(
          locale,
          months.map((m) => monthName(locale, m)),
        ),
      }),
    );

  return [...parts, ...ending(rule, phrases)].join(' ');
}

/** "6 times" or "until 31 December 2027". */
function ending(rule: Rule, phrases: Phrases): string[] {
  if (rule.count !== null) return [fill(phrases.times, { n: String(rule.count) })];
  if (rule.untilDate === null) return [];
  const date = localeNames(phrases.locale).date.format(new Date(`${rule.untilDate}T00:00:00Z`));
  return [fill(phrases.until, { date })];
}

function fallback(rule: Rule, startLocal: string): string {
  const text = libraryText(rule, startLocal);
  return text.charAt(0).toUpperCase() + text.slice(1);
}
