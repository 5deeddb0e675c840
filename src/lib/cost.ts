/**
 * Event cost handling, modelled on The Events Calendar's Cost_Utils: costs are stored as the
 * strings the client sent and only interpreted when an event is rendered.
 */

export interface CostDetails {
  currency_symbol: string;
  currency_code: string;
  currency_position: string;
  values: string[];
}

export interface ParsedCostInput {
  raw: string[];
  symbol: string;
  position: 'prefix' | 'postfix' | '';
}

/** One number found in a stored cost string. */
interface CostPart {
  value: number;
  /** The number as written, with any currency symbol or code glued to it ("20$", "€ 10", "CHF10"). */
  text: string;
  /** No symbol of its own, so the event's currency symbol applies. */
  bare: boolean;
}

const FREE = 'Free';
const RANGE_SEPARATOR = ' \u2013 ';

// A number with optional currency decoration. A space is only allowed next to a currency sign
// ("€ 10", "10 €") so that words around a number ("From 10 to 20") are not taken as symbols.
// The look-behind lets a prefix start only where a run of letters and signs starts: without it the
// engine retried the run from each of its letters, quadratic in its length (24,000 letters took a
// second); with it each run is read a bounded number of times, whatever its length.
const PART =
  /(?:(?<![\p{L}\p{Sc}])(?:[\p{L}\p{Sc}]*\p{Sc} ?|\p{L}+))?(\d+(?:[.,]\d+)*)(?: ?\p{Sc}[\p{L}\p{Sc}]*|\p{L}+)?/gu;

/** Most values one `cost` may list, and most characters in each: what a price needs, many times over. */
export const COST_MAX_VALUES = 20;
export const COST_MAX_LENGTH = 200;

/**
 * Parses what a client sends as `cost` into the stored form; null when the type is not acceptable or
 * it is longer than {@link COST_MAX_VALUES} values of {@link COST_MAX_LENGTH} characters (checked
 * before any pattern reads it).
 */
export function parseCostInput(input: unknown): ParsedCostInput | null {
  const items: unknown[] = input === null ? [] : Array.isArray(input) ? input : [input];
  if (items.length > COST_MAX_VALUES) return null;
  const valid = items.every(
    (item) =>
      (typeof item === 'string' && item.length <= COST_MAX_LENGTH) ||
      (typeof item === 'number' && Number.isFinite(item)),
  );
  if (!valid) return null;
  const raw = items.map(String).filter((item) => item.trim() !== '');
  return { raw, ...currencyOf(raw) };
}

const LEADING = /^\s*(\p{Sc}+)\s*\d/u;
const TRAILING = /\d\s*(\p{Sc}+)\s*$/u;

/**
 * The currency symbol written with the costs ("$23": `$`, prefix; "20$": `$`, postfix), as the
 * original reads it from the cost it is sent; nothing when the values disagree or have none.
 */
function currencyOf(raw: string[]): Pick<ParsedCostInput, 'symbol' | 'position'> {
  const found = new Set<string>();
  for (const value of raw) {
    const leading = LEADING.exec(value);
    const trailing = TRAILING.exec(value);
    if (leading) found.add(`prefix ${leading[1]}`);
    else if (trailing) found.add(`postfix ${trailing[1]}`);
  }
  if (found.size !== 1) return { symbol: '', position: '' };
  const [position, symbol] = [...found][0]!.split(' ') as ['prefix' | 'postfix', string];
  return { symbol, position };
}

/** The `cost` string of the event object: the lowest and highest price, or a non-numeric cost as written. */
export function formatCost(raw: string[], symbol: string, position: string, defaultSymbol = '$'): string {
  const parts = costParts(raw).sort((a, b) => a.value - b.value);
  if (parts.length === 0) return raw.find((item) => item.trim() !== '')?.trim() ?? '';

  const currency = symbol || defaultSymbol;
  const show = (part: CostPart): string => {
    if (part.value === 0) return FREE;
    if (!part.bare) return part.text;
    return position === 'postfix' ? part.text + currency : currency + part.text;
  };
  const min = parts[0];
  const max = parts[parts.length - 1];
  return min.value === max.value ? show(min) : show(min) + RANGE_SEPARATOR + show(max);
}

export function costDetails(raw: string[], symbol: string, code: string, position: string): CostDetails {
  const values = [...new Set(costParts(raw).map((part) => part.value))].sort((a, b) => a - b);
  return { currency_symbol: symbol, currency_code: code, currency_position: position, values: values.map(String) };
}

function costParts(raw: string[]): CostPart[] {
  return raw.flatMap((item) =>
    [...item.matchAll(PART)].map((match) => ({
      value: parseNumber(match[1]),
      text: match[0],
      bare: match[0] === match[1],
    })),
  );
}

/**
 * Reads a number written with either separator convention: when both appear the last one is the
 * decimal separator ("1.234,56", "1,234.56"); a lone comma is decimal only before 1–2 digits
 * ("25,55" but "1,000"); a lone dot is decimal ("15.00"), repeated dots are thousands ("1.000.000").
 */
export function parseNumber(text: string): number {
  const dot = text.lastIndexOf('.');
  const comma = text.lastIndexOf(',');
  let decimalAt = -1;
  if (dot >= 0 && comma >= 0) decimalAt = Math.max(dot, comma);
  else if (comma >= 0 && /^\d+,\d{1,2}$/.test(text)) decimalAt = comma;
  else if (/^\d+\.\d+$/.test(text)) decimalAt = dot;

  const digits = (s: string): string => s.replace(/[.,]/g, '');
  if (decimalAt < 0) return Number(digits(text));
  return Number(`${digits(text.slice(0, decimalAt))}.${text.slice(decimalAt + 1)}`);
}
