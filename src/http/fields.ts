import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The global `_fields` parameter: keep only the named top-level keys (of each item when the
 * response is a list, as WordPress does).
 */
export function pickFields(payload: unknown, fields: unknown): unknown {
  if (typeof fields !== 'string' || fields === '') return payload;
  const wanted = new Set(
    fields
      .split(',')
      .map((f) => f.trim().split('.')[0]!)
      .filter(Boolean),
  );
  const pick = (item: unknown): unknown => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return item;
    return Object.fromEntries(Object.entries(item).filter(([key]) => wanted.has(key)));
  };
  return Array.isArray(payload) ? payload.map(pick) : pick(payload);
}

/** preSerialization hook: the response schema would insist on the full shape, so a filtered payload is serialized plainly. */
export async function applyFieldsFilter(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  const fields = (request.query as Record<string, unknown> | undefined)?.['_fields'];
  if (typeof fields !== 'string' || fields === '' || reply.statusCode >= 300) return payload;
  reply.serializer(JSON.stringify);
  return pickFields(payload, fields);
}
