import { COST_MAX_LENGTH, parseNumber } from './cost.js';

/**
 * What a page and its structured data say about an event's cost. The API's `cost` stays the
 * original's (cost.ts: the lowest and the highest number found anywhere, so "Pass 5 jours : 30 €"
 * is "5€ – 30 €"); a visitor instead reads the author's own words unless the text is nothing but a
 * price or a range of prices, and search engines get a price only when it is certain.
 */

// A currency as people write it next to a number: a sign, a sign after a country's letters
// ("US$", "R$"), an ISO code ("EUR"), or a few written abbreviations.
const CURRENCY = String.raw`(?:[A-Z]{1,2}\p{Sc}|\p{Sc}|[A-Z]{3}|Fr\.|zł)`;
const NUMBER = String.raw`\d{1,12}(?:[.,]\d{1,3}){0,4}`;
// One price: a number with a currency before or after it (one space allowed), or none.
const PRICE = String.raw`(?:(${CURRENCY}) ?)?(${NUMBER})(?: ?(${CURRENCY}))?`;
const ONE = new RegExp(String.raw`^(${PRICE})$`, 'u');
// Two prices and a dash: "25–60 €", "$10 - $20".
const RANGE = new RegExp(String.raw`^(${PRICE}) ?[-\u2013\u2014] ?(${PRICE})$`, 'u');
const ANY_NUMBER = /\d+(?:[.,]\d+)*/gu;
// One number with a currency on one side, anywhere in a text ("29 € incl. brunch").
const PRICE_IN_TEXT = new RegExp(String.raw`(?:(${CURRENCY}) ?(${NUMBER})|(${NUMBER}) ?(${CURRENCY}))`, 'u');

/** What authors write for "free" in the catalogue's languages (and Japanese and Korean). */
const FREE_WORDS = new Set(
  [
    'free',
    'free entry',
    'free admission',
    'gratuit',
    'gratuite',
    'entrée libre',
    'entrée gratuite',
    'gratis',
    'gratuito',
    'gratuita',
    'ingresso libero',
    'ingresso gratuito',
    'entrada libre',
    'entrada gratuita',
    'kostenlos',
    'eintritt frei',
    '無料',
    '入場無料',
    '무료',
    '입장 무료',
  ].map((word) => word.normalize('NFC')),
);

/** Symbols and abbreviations of the currencies people write, as ISO 4217 codes ($ is taken as US dollars). */
const CODES: Record<string, string> = {
  $: 'USD',
  US$: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '￥': 'JPY',
  '₩': 'KRW',
  '₹': 'INR',
  '₽': 'RUB',
  '₺': 'TRY',
  '₪': 'ILS',
  '฿': 'THB',
  '₫': 'VND',
  '₴': 'UAH',
  '₱': 'PHP',
  '₦': 'NGN',
  zł: 'PLN',
  'Fr.': 'CHF',
  R$: 'BRL',
  CA$: 'CAD',
  C$: 'CAD',
  A$: 'AUD',
  AU$: 'AUD',
  NZ$: 'NZD',
  HK$: 'HKD',
  S$: 'SGD',
};

const ISO_CODES = new Set(Intl.supportedValuesOf('currency'));

/** The ISO 4217 code of a currency as written ("€", "EUR", "US$"), or '' when it is not known for sure. */
export function currencyCode(written: string): string {
  const text = written.trim();
  if (ISO_CODES.has(text)) return text;
  return CODES[text] ?? '';
}

// Costs were bounded when they were written; stored ones are bounded again before a pattern reads them.
const bounded = (raw: string[]) => raw.map((item) => item.slice(0, COST_MAX_LENGTH).trim()).filter(Boolean);

const isFree = (item: string) =>
  FREE_WORDS.has(
    item
      .normalize('NFC')
      .toLowerCase()
      .replace(/[!.]+$/u, ''),
  );

/** One price of a pattern's match, from the group where its PRICE starts. */
function price(match: RegExpExecArray, at: number) {
  const [text, before, number, after] = [match[at]!, match[at + 1], match[at + 2]!, match[at + 3]];
  if (before && after) return null;
  return { text, value: parseNumber(number), currency: before ?? after ?? '' };
}

type Price = NonNullable<ReturnType<typeof price>>;

/** One stored cost read with certainty: free, one price, or a range (two prices, one currency), else null. */
function readItem(item: string): { free: true } | { free: false; low: Price; high: Price } | null {
  if (isFree(item)) return { free: true };
  const one = ONE.exec(item);
  const range = one ? null : RANGE.exec(item);
  const low = one ? price(one, 1) : range ? price(range, 1) : null;
  const high = one ? low : range ? price(range, 5) : null;
  if (!low || !high || low.value > high.value) return null;
  if (low.currency && high.currency && low.currency !== high.currency) return null;
  if (high.value === 0) return { free: true };
  return { free: false, low, high };
}

/**
 * The cost as a page shows it: each stored cost as written, except a bare price or range, which
 * takes the event's currency symbol on its side of each number ("23" → "$23"), a range's separator
 * as an en dash ("$10 - $20" → "$10–$20", "25-60 €" → "25–60 €"), and a zero price, shown as `free`.
 */
export function displayCost(raw: string[], symbol: string, position: string, free: string): string {
  return bounded(raw)
    .map((item) => {
      const read = readItem(item);
      if (!read) return item;
      if (read.free) return isFree(item) ? item : free;
      const { low, high } = read;
      const bare = low.currency === '' && high.currency === '' && symbol !== '';
      const show = (p: Price) =>
        !bare ? p.text : position === 'postfix' ? `${p.text}${symbol}` : `${symbol}${p.text}`;
      return low === high ? show(low) : `${show(low)}\u2013${show(high)}`;
    })
    .join(', ');
}

/** What an offer says of a cost: free, or a price or range in a known currency (an ISO code, or ''). */
export type CostOffer = { free: true } | { free: false; low: number; high: number; currency: string };

/**
 * The offer of an event's stored costs, or null when no price is certain. Besides a cost that is
 * only a price or a range, a text with a single number that has a currency beside it is that price
 * ("29 € incl. brunch": 29 EUR); two numbers in words ("Pass 5 jours : 30 €") are not a price.
 * The currency is the one written with the prices, else the event's code, else its symbol's.
 */
export function costOffer(raw: string[], symbol: string, code: string): CostOffer | null {
  const items = bounded(raw);
  if (items.length === 0) return null;
  const read = items.map((item) => readItem(item) ?? priceInText(item));
  if (read.some((item) => item === null)) return null;
  const prices = read.flatMap((item) => (item && !item.free ? [item.low, item.high] : []));
  if (prices.length === 0) return { free: true };
  const written = new Set(prices.map((p) => p.currency).filter(Boolean));
  if (written.size > 1) return null;
  const currency = written.size === 1 ? currencyCode([...written][0]!) : currencyCode(code) || currencyCode(symbol);
  const values = prices.map((p) => p.value);
  const low = read.some((item) => item!.free) ? 0 : Math.min(...values);
  return { free: false, low, high: Math.max(...values), currency };
}

function priceInText(item: string): { free: false; low: Price; high: Price } | null {
  if ((item.match(ANY_NUMBER) ?? []).length !== 1) return null;
  const match = PRICE_IN_TEXT.exec(item);
  if (!match) return null;
  const p: Price = match[1]
    ? { text: match[0], value: parseNumber(match[2]!), currency: match[1] }
    : { text: match[0], value: parseNumber(match[3]!), currency: match[4]! };
  return p.value === 0 ? null : { free: false, low: p, high: p };
}
