/**
 * The addresses of the public pages under one language's root (`/` or `/fr/`). Pages link to each
 * other by path, so they work under whatever host serves them; the API's `url` fields use the
 * site address (CAL_SITE_URL) and the same paths.
 */

/** The filters a view takes as plain query parameters, so every view is a shareable URL. */
export interface ViewFilters {
  category?: string;
  tag?: string;
  venue?: string;
  search?: string;
}

/** `?a=1&b=2` of the given values (empty ones left out), or ''. */
export function queryString(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values))
    if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

const segment = (slug: string) => encodeURIComponent(slug);

export function pagePaths(root: string) {
  return {
    root,
    month: (month?: string) => (month === undefined ? `${root}events/` : `${root}events/month/${month}/`),
    list: () => `${root}events/list/`,
    /** The week holding `day` (the week view takes any of its days), or this week. */
    week: (day?: string) => (day === undefined ? `${root}events/week/` : `${root}events/week/${day}/`),
    photo: () => `${root}events/photo/`,
    map: () => `${root}events/map/`,
    /** The page that writes the `<iframe>` snippet of a view with its filters. */
    embed: () => `${root}events/embed/`,
    day: (day: string) => `${root}events/day/${day}/`,
    event: (slug: string) => `${root}event/${segment(slug)}/`,
    venue: (slug: string) => `${root}venue/${segment(slug)}/`,
    organizer: (slug: string) => `${root}organizer/${segment(slug)}/`,
    category: (slug: string) => `${root}events/category/${segment(slug)}/`,
    tag: (slug: string) => `${root}tag/${segment(slug)}/`,
    /** The REST API of this language, for the iCalendar links. */
    api: (path: string) => `${root}cal/events/v1/${path}`,
  };
}

export type PagePaths = ReturnType<typeof pagePaths>;
