import { Type, type Static } from 'typebox';
import { CommonQuery } from '../../http/schemas.js';
import { invalidParam } from '../../http/errors.js';
import { CHANGE_KINDS, type ChangeKind } from './sync.repository.js';

/** `kinds` as clients write them (the collections' names) → the log's kinds. */
const KIND_NAMES: Record<string, ChangeKind> = {
  events: 'event',
  venues: 'venue',
  organizers: 'organizer',
  categories: 'category',
  tags: 'tag',
};

export const ChangesQuery = Type.Object({
  since: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description:
        'The next_token of the previous page; without it, the feed starts at the beginning of the retained history',
    }),
  ),
  per_page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Changes per page (at most 1000)' }),
  ),
  kinds: Type.Optional(
    Type.Union([Type.String(), Type.Array(Type.String())], {
      description: 'Only these kinds: events, venues, organizers, categories, tags (comma-separated)',
    }),
  ),
  ...CommonQuery,
});

const ChangeEntrySchema = Type.Object({
  kind: Type.Unsafe<ChangeKind>({ type: 'string', enum: [...CHANGE_KINDS] }),
  id: Type.Integer(),
  change: Type.Unsafe<'created' | 'updated' | 'trashed' | 'deleted'>({
    type: 'string',
    enum: ['created', 'updated', 'trashed', 'deleted'],
  }),
  modified_utc: Type.String({ description: 'When the change was committed (UTC)' }),
  record: Type.Optional(
    Type.Unsafe<Record<string, unknown>>({
      description:
        'The record as GET returns it now; absent on tombstones (deleted, or no longer readable by the caller)',
    }),
  ),
});

export const ChangesSchema = Type.Object({
  changes: Type.Array(ChangeEntrySchema),
  next_token: Type.String({
    description: 'Opaque: pass it as since to read on from here (on any instance, after restarts)',
  }),
  more: Type.Boolean({ description: 'Whether more changes follow at once' }),
});
export type ChangeEntry = Static<typeof ChangeEntrySchema>;
export type ChangePage = Static<typeof ChangesSchema>;

/** The kinds `kinds` names (all when absent); a 400 naming `kinds` when it names none or an unknown one. */
export function parseKinds(value: string | string[] | undefined): ChangeKind[] {
  if (value === undefined) return [...CHANGE_KINDS];
  const names = (Array.isArray(value) ? value : value.split(',')).map((s) => s.trim()).filter(Boolean);
  const kinds = names.map((name) => KIND_NAMES[name]);
  if (names.length === 0 || kinds.some((k) => k === undefined))
    throw invalidParam('kinds', `kinds must list some of ${Object.keys(KIND_NAMES).join(', ')}.`);
  return [...new Set(kinds as ChangeKind[])];
}
