import type { Db, EventRow, EventTable } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { asId, parseTruthy } from '../../http/params.js';
import { Problems } from '../../http/problems.js';
import { COST_MAX_LENGTH, COST_MAX_VALUES, parseCostInput } from '../../lib/cost.js';
import { isValidTimezone, localToUtc, parseDateInput, timezoneAbbr, zoneOrUtc, type Zone } from '../../lib/dates.js';
import { checkLinkedInput, LIVE_STATUSES, type LinkedChanges } from '../linked/linked.service.js';
import type { LinkedKind } from '../linked/linked.kind.js';
import { ORGANIZER } from '../organizers/organizer.kind.js';
import { checkCommonFields, visibleTo, type CommonChanges } from '../posts/post.service.js';
import { resolveTermInputsOf, type TermInputs } from '../terms/term.embed.js';
import type { Taxonomy } from '../terms/term.taxonomy.js';
import { VENUE } from '../venues/venue.kind.js';
import { eventErrors } from './event.errors.js';
import * as events from './event.repository.js';
import { isHttpUrl } from '../../lib/url.js';
import { checkRecurrence, type CheckedRecurrence, type RecurrencePolicy } from '../recurrence/recurrence.input.js';
import { findRecurrence } from '../recurrence/recurrence.service.js';
import type { Recurrence } from '../recurrence/recurrence.rule.js';

/** A linked venue or organizer: an existing record, or one to create (de-duplicated) with the event. */
export type LinkPlan = { kind: 'id'; id: number } | { kind: 'new'; changes: LinkedChanges };

/** Everything a create or update will write, checked before the transaction opens. */
export interface EventChanges {
  common: CommonChanges;
  title?: string;
  columns: Partial<EventTable>;
  /** null removes the venue (SPEC item 3); undefined leaves it. */
  venue?: LinkPlan | null;
  organizers?: LinkPlan[];
  categories?: TermInputs;
  tags?: TermInputs;
  /** A series' rule (null: stop recurring); undefined leaves it. */
  recurrence?: CheckedRecurrence | null;
}

const FLAGS = ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'] as const;
/** Linked lists longer than this are refused: each item may create a record. */
const MAX_LINKED = 100;

/**
 * Checks a create or update payload. `existing` is the stored event for updates (partial: what is
 * not sent stays as it is). `allowPassword` is false on the by-slug routes.
 */
export async function checkEventInput(
  db: Db,
  input: Record<string, unknown>,
  ctx: RequestContext,
  existing: EventRow | null,
  allowPassword: boolean,
  policy: RecurrencePolicy,
): Promise<EventChanges> {
  const problems = new Problems();

  let tzName = existing?.timezone || ctx.settings.timezone;
  if (input['timezone'] !== undefined && input['timezone'] !== '') {
    const requested = String(input['timezone']);
    if (!isValidTimezone(requested)) problems.add('timezone', 'timezone is not a valid time zone.');
    else tzName = requested;
  }
  const zone = zoneOrUtc(tzName);

  const common = await checkCommonFields(db, 'events', input, ctx, existing, zone, problems);
  const changes: EventChanges = { common, columns: {} };

  if (typeof input['title'] === 'string') changes.title = input['title'].trim();

  checkDates(input, existing, zone, tzName, changes, problems);
  checkPresentation(input, existing === null, changes, problems);
  if (allowPassword && input['password'] !== undefined) changes.columns.password = String(input['password']);

  for (const field of ['categories', 'tags', 'organizer'] as const) {
    const value = input[field];
    if (Array.isArray(value) && value.length > MAX_LINKED)
      problems.add(field, `${field} may list at most ${MAX_LINKED} items.`);
  }
  // The terms named and the venue and organizers named by id are read at once (two statements, side
  // by side): each is a round trip on PostgreSQL, and a create makes a dozen.
  const taxonomies = { categories: 'cal_events_cat', tags: 'post_tag' } as const;
  const termInputs: Partial<Record<Taxonomy, unknown>> = {};
  for (const field of ['categories', 'tags'] as const)
    if (input[field] !== undefined && !problems.has(field)) termInputs[taxonomies[field]] = input[field];
  const venue = input['venue'] === undefined ? undefined : venueItem(input['venue']);
  const organizers =
    input['organizer'] !== undefined && !problems.has('organizer') ? organizerItems(input['organizer']) : undefined;
  const [terms, linkable] = await Promise.all([
    resolveTermInputsOf(db, termInputs, ctx.lang),
    linkableIds(db, venue ?? null, organizers ?? [], ctx),
  ]);
  for (const field of ['categories', 'tags'] as const) {
    const resolved = terms[taxonomies[field]];
    if (resolved === null) problems.add(field, `${field} must be a list of ids, slugs or names.`);
    else if (resolved !== undefined) changes[field] = resolved;
  }

  if (venue !== undefined) changes.venue = await checkVenue(db, venue, linkable.venues, ctx, problems);
  if (organizers !== undefined)
    changes.organizers = await checkOrganizers(db, organizers, linkable.organizers, ctx, problems);
  if (!problems.has('start_date') && !problems.has('end_date'))
    await checkEventRecurrence(db, input, existing, zone, changes, policy, problems);

  problems.throwIfAny();
  return changes;
}

/**
 * `recurrence`, read at the event's start (as this payload leaves it) and in its zone. A new
 * translation of a series without a rule of its own takes the series' rule, so a translated series
 * has its occurrences too, linked date by date.
 */
async function checkEventRecurrence(
  db: Db,
  input: Record<string, unknown>,
  existing: EventRow | null,
  zone: Zone,
  changes: EventChanges,
  policy: RecurrencePolicy,
  problems: Problems,
): Promise<void> {
  const start = changes.columns.start_local ?? existing?.start_local;
  if (start === undefined) return;
  let value = input['recurrence'];
  if (value === undefined && existing === null && changes.common.trid !== undefined) {
    const source = await inheritedRecurrence(db, asId(input['translation_of']));
    if (source) value = source;
  }
  if (value === undefined) return;
  if (value === null) {
    changes.recurrence = null;
    return;
  }
  changes.recurrence = checkRecurrence(value, zone, start, policy, problems);
}

/** The rule of the series `id` names (rdates and exdates travel as they are), if it is one. */
async function inheritedRecurrence(db: Db, id: number | null): Promise<Recurrence | undefined> {
  if (id === null) return undefined;
  const source = await events.seriesIdOf(db, id);
  if (!source || source.series_id !== source.id) return undefined;
  const stored = await findRecurrence(db, source.id);
  return stored && { rrule: stored.rrule, rdates: stored.rdates, exdates: stored.exdates };
}

/** Start, end, all-day and time zone: local and UTC values, kept consistent whatever was sent. */
function checkDates(
  input: Record<string, unknown>,
  existing: EventRow | null,
  zone: Zone,
  tzName: string,
  changes: EventChanges,
  problems: Problems,
): void {
  let start = existing?.start_local;
  let end = existing?.end_local;
  for (const field of ['start_date', 'end_date'] as const) {
    if (input[field] === undefined) continue;
    const parsed = parseDateInput(input[field], zone);
    if (parsed === null) problems.add(field, `${field} is not a valid date.`);
    else if (field === 'start_date') start = parsed;
    else end = parsed;
  }

  let allDay = existing ? existing.all_day === 1 : false;
  if (input['all_day'] !== undefined) {
    const parsed = parseTruthy(input['all_day']);
    if (parsed === null) problems.add('all_day', 'all_day is not of type boolean.');
    else allDay = parsed;
  }
  if (start === undefined || end === undefined || problems.has('start_date') || problems.has('end_date')) return;
  if (allDay) {
    start = `${start.slice(0, 10)} 00:00:00`;
    end = `${end.slice(0, 10)} 23:59:59`;
  }
  if (end < start) {
    problems.add('end_date', 'end_date must not be before start_date.');
    return;
  }
  const datesTouched =
    ['start_date', 'end_date', 'all_day', 'timezone'].some((f) => input[f] !== undefined) || existing === null;
  if (!datesTouched) return;
  Object.assign(changes.columns, {
    all_day: allDay ? 1 : 0,
    start_local: start,
    end_local: end,
    start_utc: localToUtc(start, zone),
    end_utc: localToUtc(end, zone),
    timezone: tzName,
    timezone_abbr: timezoneAbbr(start, zone, tzName),
  });
}

/** Cost, website and the five presentation flags. */
function checkPresentation(
  input: Record<string, unknown>,
  creating: boolean,
  changes: EventChanges,
  problems: Problems,
): void {
  if (input['cost'] !== undefined) {
    const cost = parseCostInput(input['cost']);
    if (cost === null)
      problems.add(
        'cost',
        `cost must be a string, a number or a list of them (at most ${COST_MAX_VALUES} values of ${COST_MAX_LENGTH} characters).`,
      );
    else
      Object.assign(changes.columns, {
        cost: JSON.stringify(cost.raw),
        currency_symbol: cost.symbol,
        currency_position: cost.position,
      });
  }
  const website = input['website'];
  if (website !== undefined) {
    if (website === null) changes.columns.website = null;
    else if (typeof website !== 'string' || (website !== '' && !isHttpUrl(website)))
      problems.add('website', 'website is not a valid URL.');
    else changes.columns.website = website;
  }
  for (const flag of FLAGS) {
    const value = input[flag];
    if (value === undefined) {
      // The original saves a new event's map flags as false unless they are sent.
      if (creating) changes.columns[flag] = 0;
      continue;
    }
    const parsed = parseTruthy(value);
    if (parsed === null) problems.add(flag, `${flag} is not of type boolean.`);
    else changes.columns[flag] = parsed ? 1 : 0;
  }
}

/** The id an item names (`12`, `"12"` or `{id: 12}`), or null. */
function linkedIdOf(item: unknown): number | null {
  return (
    asId(item) ??
    (item && typeof item === 'object' && !Array.isArray(item) && 'id' in item
      ? asId((item as { id: unknown }).id)
      : null)
  );
}

/**
 * Of the venue and organizers named, the ids of records the caller may link: existing, not
 * trashed, readable (SPEC item 6); one query.
 */
async function linkableIds(
  db: Db,
  venue: unknown,
  organizers: unknown[],
  ctx: RequestContext,
): Promise<{ venues: Set<number>; organizers: Set<number> }> {
  const named = (kind: LinkedKind, items: unknown[]) => ({
    table: kind.table,
    ids: items.map(linkedIdOf).filter((id): id is number => id !== null),
    visible: visibleTo(ctx.actor, LIVE_STATUSES, kind.table),
  });
  const found = await events.visibleLinkedIds(db, [
    named(VENUE, venue === null ? [] : [venue]),
    named(ORGANIZER, organizers),
  ]);
  return { venues: found.get('venues') ?? new Set(), organizers: found.get('organizers') ?? new Set() };
}

/** One linked record given as an id, `{id}` or an object of fields; null when it is neither. */
async function checkLinkedItem(
  db: Db,
  kind: LinkedKind,
  item: unknown,
  linkable: Set<number>,
  ctx: RequestContext,
  problems: Problems,
): Promise<LinkPlan | null> {
  const field = kind.nameField;
  const id = linkedIdOf(item);
  if (id !== null) {
    if (!linkable.has(id)) problems.add(field, `${field} ${id} is not the id of an existing ${field}.`);
    return { kind: 'id', id };
  }
  if (!item || typeof item !== 'object' || Array.isArray(item) || 'id' in item) return null;
  const fields = item as Record<string, unknown>;
  if (typeof fields[field] !== 'string' || (fields[field] as string).trim() === '') return null;
  const changes = await checkLinkedInput(db, kind, fields, ctx, null, problems, `${field}.`);
  return { kind: 'new', changes };
}

const isEmptyLink = (value: unknown): boolean =>
  value === null || value === 0 || value === '' || value === '0' || (Array.isArray(value) && value.length === 0);

/** An event has at most one venue: an id, `{id}`, an object of venue fields, or nothing (null). */
function venueItem(value: unknown): unknown {
  if (isEmptyLink(value)) return null;
  const single = Array.isArray(value) && value.length === 1 ? value[0] : value;
  if (Array.isArray(single)) throw eventErrors.couldNotCreateVenue();
  return single;
}

async function checkVenue(
  db: Db,
  item: unknown,
  linkable: Set<number>,
  ctx: RequestContext,
  problems: Problems,
): Promise<LinkPlan | null> {
  if (item === null) return null;
  const plan = await checkLinkedItem(db, VENUE, item, linkable, ctx, problems);
  if (plan === null) throw eventErrors.couldNotCreateVenue();
  return plan;
}

/** Organizers: an id, a list (or CSV) of ids, `{id}` objects or objects of organizer fields. */
function organizerItems(value: unknown): unknown[] {
  if (isEmptyLink(value)) return [];
  return Array.isArray(value) ? value : typeof value === 'string' ? value.split(',').map((s) => s.trim()) : [value];
}

async function checkOrganizers(
  db: Db,
  items: unknown[],
  linkable: Set<number>,
  ctx: RequestContext,
  problems: Problems,
): Promise<LinkPlan[]> {
  const plans: LinkPlan[] = [];
  for (const item of items) {
    const plan = await checkLinkedItem(db, ORGANIZER, item, linkable, ctx, problems);
    if (plan === null) throw eventErrors.couldNotCreateOrganizer();
    if (plan.kind === 'new' || !plans.some((p) => p.kind === 'id' && p.id === plan.id)) plans.push(plan);
  }
  return plans;
}
