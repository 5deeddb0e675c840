import qs from 'qs';
import { invalidParam } from './errors.js';

/**
 * Query strings and form bodies the way PHP reads them, since the original's clients send them so:
 * `a=1&a=2`, `a[]=1&a[]=2` and `venue[city]=Paris` all work. CSV is split later, only for parameters
 * whose schema says array (a search string may contain commas).
 */
export function parseQueryString(raw: string): Record<string, unknown> {
  return qs.parse(raw, {
    depth: 3,
    arrayLimit: 200,
    parameterLimit: 1000,
    duplicates: 'combine',
    allowPrototypes: false,
  }) as Record<string, unknown>;
}

interface ObjectSchema {
  properties?: Record<string, { type?: string; anyOf?: { type?: string }[] }>;
}

function acceptsArray(schema: { type?: string; anyOf?: { type?: string }[] }): boolean {
  return schema.type === 'array' || (schema.anyOf?.some((s) => s.type === 'array') ?? false);
}

/** Splits CSV strings (`categories=3,5`) for the properties a schema declares as arrays. */
export function splitCsvArrays(values: unknown, schema: ObjectSchema | undefined): void {
  if (!schema?.properties || !values || typeof values !== 'object' || Array.isArray(values)) return;
  const record = values as Record<string, unknown>;
  for (const [name, prop] of Object.entries(schema.properties)) {
    const value = record[name];
    if (!acceptsArray(prop)) continue;
    if (typeof value === 'string')
      record[name] =
        value === ''
          ? []
          : value
              .split(',')
              .map((v) => v.trim())
              .filter((v) => v !== '');
    else if (Array.isArray(value) && value.some((v) => typeof v === 'string' && v.includes(','))) {
      record[name] = value.flatMap((v) =>
        typeof v === 'string'
          ? v
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : [v],
      );
    }
  }
}

const TRUTHY = new Set(['true', '1', 'yes', 'on', 'y', 'enable', 'enabled']);
const FALSY = new Set(['false', '0', 'no', 'off', 'n', 'disable', 'disabled', '']);

/** WordPress-style booleans: JSON booleans, 1/0 and the usual words; null for anything else. */
export function parseTruthy(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : null;
  if (typeof value !== 'string') return null;
  const v = value.trim().toLowerCase();
  return TRUTHY.has(v) ? true : FALSY.has(v) ? false : null;
}

/** A positive integer id sent as a number or a string of digits (forms send everything as text); null otherwise. */
export function asId(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) && value > 0 ? value : null;
  if (typeof value === 'string' && /^\d+$/.test(value.trim()) && Number(value) > 0) return Number(value);
  return null;
}

/** A boolean parameter, or undefined when absent; 400 naming it when it is not a boolean. */
export function booleanParam(value: unknown, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  const parsed = parseTruthy(value);
  if (parsed === null) throw invalidParam(name, `${name} is not of type boolean.`);
  return parsed;
}
