import { Type, type Static } from 'typebox';

/**
 * The pages' route schemas, for their types: no page is in the OpenAPI document (`hide`). A page
 * reads its query itself, leniently (the last of a repeated parameter, trimmed: page.service.ts),
 * and answers a bad value with the site's own 400 page, never the API's JSON error: so the query
 * schema accepts any query. Path parameters are texts; a path the views do not show is a 404 page.
 */
export const PageQuery = Type.Record(Type.String(), Type.Unknown());
export type PageQuery = Static<typeof PageQuery>;

export const MonthParams = Type.Object({ month: Type.String() });
export const DayParams = Type.Object({ day: Type.String() });
export const SlugParams = Type.Object({ slug: Type.String() });

/** Every page: public (pages show the public view whoever asks), out of the API's documents. */
export const PAGE = { hide: true } as const;
export const PUBLIC = { access: 'public' } as const;
