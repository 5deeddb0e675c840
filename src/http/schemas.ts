import { Type, type Static, type TSchema } from 'typebox';

/** Shared pieces of the route schemas. */

export const ErrorSchema = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
    data: Type.Object({ status: Type.Integer() }, { additionalProperties: true }),
  },
  { $id: 'Error', description: 'Error' },
);

/** A numeric id path segment: anything else matches no route (404 rest_no_route), as in WordPress. */
export const ID_SEGMENT = ':id(^\\d+$)';

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 0, description: 'Numeric identifier' }) });
export const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, pattern: '^[^/]+$', description: 'Slug' }) });

/** A WordPress boolean: a JSON boolean, 1/0, or true/false/yes/no/on/off. Parsed with parseTruthy. */
export const Truthy = (description: string) =>
  Type.Union([Type.Boolean(), Type.Integer(), Type.String()], { description });

export const I18nLanguage = Type.String({ description: 'Language of the returned or written record' });

/** Query parameters every GET accepts. */
export const CommonQuery = {
  i18n_language: Type.Optional(I18nLanguage),
  _fields: Type.Optional(Type.String({ description: 'Comma-separated top-level keys to return' })),
};

/**
 * Free texts that a parser or a pattern reads are bounded here, in the schemas, so that nothing
 * longer reaches it (the date parser's time grew faster than its input). Query-string values are
 * bounded to {@link QUERY_TEXT_MAX} by src/http/numbers.ts when a schema sets no bound of its own.
 */
export const TEXT_LIMITS = {
  date: 64,
  search: 200,
  searchWords: 12,
  timezone: 64,
  password: 255,
  status: 20,
  slug: 400,
  rrule: 1000,
  url: 2048,
} as const;

/** A date as clients write it ("2027-01-05 10:00", "next friday"): at most 64 characters. */
export const DateText = (options: { minLength?: number; description?: string } = {}) =>
  Type.String({ ...options, maxLength: TEXT_LIMITS.date });

/** A search: at most 200 characters (the word count is checked where the words are split). */
export const SearchText = (description: string) =>
  Type.String({ minLength: 1, maxLength: TEXT_LIMITS.search, description });

export const Page = Type.Integer({ minimum: 1, default: 1, description: 'Page of the result to return' });
export const PerPage = Type.Integer({ minimum: 1, default: 50, description: 'Records per page (at most 50)' });

/** Integers or CSV of integers. */
export const IdList = (description: string) => Type.Array(Type.Integer({ minimum: 1 }), { description });
/** Ids or slugs. */
export const IdOrSlugList = (description: string) =>
  Type.Array(Type.Union([Type.Integer({ minimum: 1 }), Type.String({ minLength: 1 })]), { description });

/** Error responses every route may give (503: the overload guard); `responses({200: X})` adds them. */
export function responses(ok: Record<number, TSchema>): Record<number | string, TSchema> {
  const error = Type.Ref('Error');
  return {
    ...ok,
    400: error,
    401: error,
    403: error,
    404: error,
    409: error,
    410: error,
    413: error,
    429: error,
    500: error,
    503: error,
  };
}

/** The responses of a record's write, which may carry `If-Match`: 412 when the record changed. */
export function conditionalResponses(ok: Record<number, TSchema>): Record<number | string, TSchema> {
  return { ...responses(ok), 412: Type.Ref('Error') };
}

/** Request headers of a record's write (RFC 9110 §13.1.1), checked by src/http/conditional.ts. */
export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      description:
        "The ETag of the record as last read (a GET, or a write's answer), or *: the write applies only if the record is unchanged since, else 412 rest_precondition_failed and nothing changes",
    }),
  ),
});

/**
 * A nullable scalar as `type: [t, 'null']`: with Ajv's type coercion an `anyOf` would turn a JSON
 * null into "" or 0 through its first branch, and null means "remove" for several fields.
 */
export const Nullable = <T extends TSchema>(schema: T) =>
  Type.Unsafe<Static<T> | null>({ ...schema, type: [(schema as unknown as { type: string }).type, 'null'] });
