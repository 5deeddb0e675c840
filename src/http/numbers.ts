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

interface SchemaNode {
  type?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  [key: string]: unknown;
}

function isNumeric(type: unknown): boolean {
  return type === 'integer' || type === 'number' || (Array.isArray(type) && type.some((t) => t === 'integer' || t === 'number'));
}

function bound(node: unknown, seen: Set<object>): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const item of node) bound(item, seen);
    return;
  }
  const schema = node as SchemaNode;
  if (isNumeric(schema.type)) {
    if (schema.maximum === undefined && schema.exclusiveMaximum === undefined) schema.maximum = LIMIT;
    if (schema.minimum === undefined && schema.exclusiveMinimum === undefined) schema.minimum = -LIMIT;
  }
  for (const value of Object.values(schema)) bound(value, seen);
}

/** Bounds the numbers of a route's querystring, params, headers and body schemas (in place: idempotent). */
export function boundNumericInputs(route: RouteOptions): void {
  const schema = route.schema as Record<string, unknown> | undefined;
  if (!schema) return;
  const seen = new Set<object>();
  for (const part of ['querystring', 'params', 'headers', 'body']) bound(schema[part], seen);
}
