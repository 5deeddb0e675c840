/**
 * The API's times are UTC, either `YYYY-MM-DD HH:MM:SS` (the WordPress way) or ISO 8601: shown
 * in the reader's locale and zone.
 */
export function parseUtc(value: string | null | undefined): Date | null {
  if (!value) return null;
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(value) ? `${value.replace(' ', 'T')}Z` : value;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatUtc(value: string | null | undefined, locale: string, withTime = true): string {
  const date = parseUtc(value);
  if (!date) return '';
  return new Intl.DateTimeFormat(
    locale,
    withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' },
  ).format(date);
}
