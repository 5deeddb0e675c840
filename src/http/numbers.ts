import type { RouteOptions } from 'fastify';

/**
 * Ajv's integer check lets `Infinity` through (`1e999` in a query string or a JSON body reads as
 * Infinity, and `Infinity % 1` is NaN, which its check treats as whole), and a 30-digit number
 * coerces to an imprecise double. Every numeric input is therefore bounded to what a double holds
 * exactly: ±(2^53 − 1). A bound a schema sets itself is kept. `NaN`, `1e-999` (0) and `-0` are
 * refused by the schemas' own minimums where they have one and otherwise read as the numbers they
 * are. Applied once to every route's input schemas in the onRoute hook, so no route can forget it.
 */
const LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * Longest query-string, path or header value a schema accepts when it sets no bound of its own:
 * every such text is read by something (a parser, a pattern, a LIKE), and none needs more.
 */
export const QUERY_TEXT_MAX = 2048;

interface SchemaNode {
  type?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  [key: string]: unknown;
}

function isNumeric(type: unknown): boolean {
  return (
    type === 'integer' ||
    type === 'number' ||
    (Array.isArray(type) && type.some((t) => t === 'integer' || t === 'number'))
  );
}

function isText(type: unknown): boolean {
  return type === 'string' || (Array.isArray(type) && type.includes('string'));
}

function bound(node: unknown, seen: Set<object>, textMax: number | null): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const item of node) bound(item, seen, textMax);
    return;
  }
  const schema = node as SchemaNode;
  if (isNumeric(schema.type)) {
    if (schema.maximum === undefined && schema.exclusiveMaximum === undefined) schema.maximum = LIMIT;
    if (schema.minimum === undefined && schema.exclusiveMinimum === undefined) schema.minimum = -LIMIT;
  }
  if (textMax !== null && isText(schema.type) && schema['maxLength'] === undefined && schema['enum'] === undefined)
    schema['maxLength'] = textMax;
  for (const value of Object.values(schema)) bound(value, seen, textMax);
}

/**
 * Bounds the numbers of a route's querystring, params, headers and body schemas, and the texts of
 * all but the body (whose texts, descriptions among them, are bounded by the body limit and by
 * their own schemas), in place: idempotent.
 */
export function boundNumericInputs(route: RouteOptions): void {
  const schema = route.schema as Record<string, unknown> | undefined;
  if (!schema) return;
  const seen = new Set<object>();
  for (const part of ['querystring', 'params', 'headers']) bound(schema[part], seen, QUERY_TEXT_MAX);
  bound(schema['body'], new Set<object>(), null);
}
