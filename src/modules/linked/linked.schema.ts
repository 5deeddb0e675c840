import { Type, type Static, type TProperties, type TSchema } from 'typebox';
import { keepKeyOrder, PageSchema } from '../../http/pagination.js';
import { CommonQuery, I18nLanguage, Page, PerPage, TEXT_LIMITS, Truthy } from '../../http/schemas.js';
import type { LinkedKind } from './linked.kind.js';

/**
 * Venue and organizer request and response schemas, built from the kind. Fields whose accepted
 * forms are richer than one JSON type are checked by linked.service.ts, which names the bad
 * parameter in a `rest_invalid_param` 400.
 */

/**
 * A JSON Schema type list. Ajv coerces only a value that matches none of the types, so `null`
 * stays null (a union would coerce it to 0 or false in its first branch).
 */
const AnyOf = <T>(types: string[], description: string) => Type.Unsafe<T>({ type: types, description });

const ImageSchema = Type.Object(
  {
    url: Type.String(),
    id: Type.Integer(),
    extension: Type.String(),
    width: Type.Optional(Type.Integer()),
    height: Type.Optional(Type.Integer()),
  },
  { description: 'The featured image' },
);

/** What only venues have: map flags and the geolocation extension's coordinates (SPEC items 14, 23). */
const VENUE_BODY: TProperties = {
  show_map: Type.Optional(Truthy('Whether events at the venue show a map (true/false, 1/0, yes/no)')),
  show_map_link: Type.Optional(Truthy('Whether events at the venue show a map link')),
  // Any JSON value: while the extension is off they are ignored unread (SPEC 14); while it is on,
  // linked.service.ts checks them (a number or numeric string in range, null or "" to remove).
  geo_lat: Type.Optional(
    Type.Unknown({ description: 'Latitude, -90 to 90 (geolocation extension; ignored while it is off)' }),
  ),
  geo_lng: Type.Optional(
    Type.Unknown({ description: 'Longitude, -180 to 180 (geolocation extension; ignored while it is off)' }),
  ),
};
const VENUE_OBJECT: TProperties = {
  geo_lat: Type.Optional(Type.Number({ description: 'Latitude, when the geolocation extension is on' })),
  geo_lng: Type.Optional(Type.Number({ description: 'Longitude, when the geolocation extension is on' })),
};
const VENUE_TAIL: TProperties = { show_map: Type.Boolean(), show_map_link: Type.Boolean() };

const isVenue = (kind: LinkedKind): boolean => kind.table === 'venues';

function textProperties(kind: LinkedKind, optional: (schema: TSchema) => TSchema): TProperties {
  return Object.fromEntries(
    kind.textFields.map((field) => [field, optional(Type.String({ description: `The ${kind.code} ${field}` }))]),
  );
}

/** Create (name required) or update (every field optional) payload of a kind. */
function bodySchema(kind: LinkedKind, create: boolean) {
  const noun = kind.code;
  const name = Type.String({ description: `The ${noun} name` });
  return Type.Object(
    {
      [kind.nameField]: create ? name : Type.Optional(name),
      author: Type.Optional(
        Type.Integer({ minimum: 1, description: `The ${noun} author id (editors only for another user)` }),
      ),
      date: Type.Optional(Type.Union([Type.String(), Type.Integer()], { description: `The ${noun} publication date` })),
      date_utc: Type.Optional(
        Type.Union([Type.String(), Type.Integer()], { description: `The ${noun} publication date in UTC` }),
      ),
      description: Type.Optional(Type.String({ description: `The ${noun} description (HTML)` })),
      excerpt: Type.Optional(Type.String({ description: `The ${noun} excerpt (HTML)` })),
      slug: Type.Optional(
        Type.String({
          description: `The ${noun} slug; made unique in its language with -2, -3… (default: from the name)`,
        }),
      ),
      status: Type.Optional(
        Type.String({ description: 'Post status: publish, future, draft, pending, private or trash' }),
      ),
      ...textProperties(kind, Type.Optional),
      image: Type.Optional(
        AnyOf<number | string | boolean | null>(
          ['integer', 'string', 'boolean', 'null'],
          `The ${noun} image: an image id or URL; null, false or "" removes it`,
        ),
      ),
      ...(isVenue(kind) ? VENUE_BODY : {}),
      translation_of: Type.Optional(
        AnyOf<number | null>(['integer', 'null'], `Id of the ${noun} this one translates; null leaves the group`),
      ),
      i18n_language: Type.Optional(I18nLanguage),
    },
    // Unknown fields are ignored, as the original does.
    { additionalProperties: true },
  );
}

/** The venue or organizer object, in the original's key order. */
function objectSchema(kind: LinkedKind) {
  const text = (description: string) => Type.Optional(Type.String({ description }));
  return keepKeyOrder(
    Type.Object(
      {
        id: Type.Integer(),
        author: text('Author id as a numeric string'),
        status: text('Post status'),
        date: text('Publication date, site time'),
        date_utc: text('Publication date, UTC'),
        modified: text('Last change, site time'),
        modified_utc: text('Last change, UTC'),
        url: text('Public page'),
        [kind.nameField]: text(`The ${kind.code} name`),
        description: text('HTML'),
        excerpt: text('HTML'),
        slug: text('Slug'),
        image: Type.Optional(ImageSchema),
        ...textProperties(kind, Type.Optional),
        ...(isVenue(kind) ? VENUE_OBJECT : {}),
        json_ld: Type.Optional(
          Type.Object({}, { additionalProperties: true, description: 'schema.org object (single reads only)' }),
        ),
        ...(isVenue(kind) ? VENUE_TAIL : {}),
        global_id: Type.String(),
        global_id_lineage: Type.Array(Type.String()),
        i18n_language: Type.String(),
        translations: Type.Record(Type.String(), Type.Integer(), {
          description: 'Ids of the translations by language, this record included',
        }),
      },
      {
        $id: kind.label,
        description: `${kind.label}: keys with empty values are left out, as the original does; show_map, show_map_link, global_id… are always present`,
      },
    ),
  );
}

export const LinkedListQuery = Type.Object({
  page: Type.Optional(Page),
  per_page: Type.Optional(PerPage),
  search: Type.Optional(
    Type.String({ maxLength: TEXT_LIMITS.search, description: 'Records where one searched field contains every word' }),
  ),
  event: Type.Optional(Type.Integer({ minimum: 1, description: 'Only the records linked to this event' })),
  has_events: Type.Optional(Truthy('true: linked to a published, future or private event; false: linked to none')),
  only_with_upcoming: Type.Optional(Truthy('true: linked to an upcoming event the caller may read; false: no filter')),
  status: Type.Optional(Type.Array(Type.String(), { description: 'Post status(es), CSV or repeated' })),
  context: Type.Optional(
    Type.String({
      description:
        'edit: password-protected events the caller may edit count for event, has_events and only_with_upcoming (view: only events without a password do)',
    }),
  ),
  ...CommonQuery,
});
export type LinkedListParams = Static<typeof LinkedListQuery>;

/**
 * Every schema of one kind's routes. `object` is registered once (addSchema) as the `Venue` or
 * `Organizer` component; routes and the event's embedded records refer to it by `ref`.
 */
export function linkedSchemas(kind: LinkedKind) {
  const object = objectSchema(kind);
  const ref = Type.Ref(kind.label);
  return {
    object,
    ref,
    list: PageSchema(kind.table, ref, `A page of ${kind.table}`),
    create: bodySchema(kind, true),
    update: bodySchema(kind, false),
    // By slug the path names the record and `slug` is that path parameter, as in the original.
    updateBySlug: Type.Omit(bodySchema(kind, false), ['slug'], { additionalProperties: true }),
  };
}
