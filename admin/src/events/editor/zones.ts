import { useEffect, useState } from 'react';
import { ADMIN_API, api } from '../../api/http';
import { can } from '../../api/permissions';
import type { Role } from '../../api/session';

/** Every IANA zone the browser knows, UTC first. */
export function zoneNames(): string[] {
  const names = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...names.filter((name) => name !== 'UTC')];
}

export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

let known: Promise<string> | null = null;

/**
 * The site's time zone, a new event's default. The public API does not name it (the REST index
 * has no `timezone_string`), so administrators read it from the settings and everyone else
 * falls back to the browser's zone, which they can change in the form.
 */
export function siteZone(role: Role | undefined): Promise<string> {
  if (!can(role, 'manage_options')) return Promise.resolve(browserZone());
  known ??= api<{ timezone?: string }>(`${ADMIN_API}/settings`)
    .then(({ json }) => json?.timezone || browserZone())
    .catch(() => {
      known = null;
      return browserZone();
    });
  return known;
}

/** The site zone once known, `undefined` while it is being asked. */
export function useSiteZone(role: Role | undefined, ready: boolean): string | undefined {
  const [zone, setZone] = useState<string>();
  useEffect(() => {
    if (!ready) return;
    let live = true;
    void siteZone(role).then((value) => live && setZone(value));
    return () => {
      live = false;
    };
  }, [role, ready]);
  return zone;
}
