import { Type, type TObject, type TSchema } from 'typebox';

/**
 * The list envelope of events, venues and organizers (original 2.1/2.2): the items, `rest_url`
 * echoing the effective arguments, `next_rest_url`/`previous_rest_url` when those pages exist,
 * `total` and `total_pages`, and the X-Cal-Total headers carrying the same numbers.
 */
export const MAX_PER_PAGE = 50;

/** `per_page` above the maximum is clamped, as the original does (validation rejects < 1). */
export function clampPerPage(perPage: number | undefined): number {
  return Math.min(perPage ?? MAX_PER_PAGE, MAX_PER_PAGE);
}

export function totalPages(total: number, perPage: number): number {
  return total === 0 ? 0 : Math.ceil(total / perPage);
}

export function offsetOf(page: number, perPage: number): number {
  return (page - 1) * perPage;
}

/** A page after the first with nothing on it: the lists answer their `*-archive-page-not-found` 404. */
export function isPastTheEnd(page: number, perPage: number, total: number): boolean {
  return page > 1 && offsetOf(page, perPage) >= total;
}

export interface PageInput {
  /** `<base>/events/` (trailing slash, as the original). */
  base: string;
  page: number;
  perPage: number;
  total: number;
  /** Effective arguments after page and per_page, in the order rest_url shows them. */
  echo: [string, string][];
}

export type Page<K extends string> = { [key in K]: unknown[] } & {
  rest_url: string;
  next_rest_url?: string;
  previous_rest_url?: string;
  total: number;
  total_pages: number;
};

// WordPress's add_query_arg leaves values raw; only what would change the query's structure is escaped.
const rawValue = (value: string): string => value.replace(/[%&#+]/g, (c) => encodeURIComponent(c));

/**
 * `rest_url` shows the values raw (WordPress's add_query_arg does not encode them); the next and
 * previous links are encoded, with `page` moved last, as the original's are.
 */
export function buildPage<K extends string>(key: K, items: unknown[], input: PageInput): Page<K> {
  const pages = totalPages(input.total, input.perPage);
  const raw = [['page', String(input.page)], ['per_page', String(input.perPage)], ...input.echo]
    .map(([k, v]) => `${k}=${rawValue(v)}`)
    .join('&');
  const linkTo = (page: number): string => {
    const params = new URLSearchParams([['per_page', String(input.perPage)], ...input.echo]);
    if (page > 1) params.append('page', String(page));
    return `${input.base}?${params.toString()}`;
  };
  const envelope: Record<string, unknown> = { [key]: items, rest_url: `${input.base}?${raw}` };
  if (input.page < pages) envelope['next_rest_url'] = linkTo(input.page + 1);
  if (input.page > 1 && input.page - 1 <= pages) envelope['previous_rest_url'] = linkTo(input.page - 1);
  envelope['total'] = input.total;
  envelope['total_pages'] = pages;
  return envelope as Page<K>;
}

/** The X-Cal-Total / X-Cal-TotalPages headers of a page (the original's X-TEC-* pair). */
export function totalHeaders(page: { total: number; total_pages: number }): Record<string, string> {
  return { 'X-Cal-Total': String(page.total), 'X-Cal-TotalPages': String(page.total_pages) };
}

/**
 * The serializer (fast-json-stringify) writes required keys before the others, while the original's
 * key order is part of what clients see. So only the required keys ahead of the first optional one
 * stay required; the later ones are documented as always present instead.
 */
export function keepKeyOrder<T extends TObject>(schema: T): T {
  const required = new Set(schema.required ?? []);
  const keys = Object.keys(schema.properties);
  const firstOptional = keys.findIndex((key) => !required.has(key));
  return { ...schema, required: firstOptional === -1 ? keys : keys.slice(0, firstOptional) };
}

/** The envelope's response schema, key order as the original's. */
export function PageSchema(key: string, item: TSchema, description: string) {
  return keepKeyOrder(
    Type.Object(
      {
        [key]: Type.Array(item),
        rest_url: Type.String({ description: 'This page, with the effective arguments' }),
        next_rest_url: Type.Optional(Type.String({ description: 'The next page, when it has records' })),
        previous_rest_url: Type.Optional(Type.String({ description: 'The previous page, when there is one' })),
        total: Type.Integer({ description: 'Records matching the filters (always present)' }),
        total_pages: Type.Integer({ description: 'Pages of per_page records (always present)' }),
      },
      { description },
    ),
  );
}
