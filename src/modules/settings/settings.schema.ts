import { Type, type Static } from 'typebox';
import { Problems } from '../../http/problems.js';
import type { Settings } from './settings.service.js';
import { isHttpUrl } from '../../lib/url.js';

/**
 * `type: ['string', 'null']` rather than anyOf: with Ajv's coerceTypes an anyOf tries the string
 * branch first and turns a JSON null into "" before the null branch is reached.
 */
const NullableUrl = Type.Unsafe<string | null>({
  type: ['string', 'null'],
  description: "Public site address (http or https), null for the service's own origin",
});

const Submissions = Type.Enum(['off', 'users', 'anyone'], {
  description: 'Events from the public form: off, signed-in users only, or anyone',
});

const Unit = Type.Enum(['mi', 'km'], { description: 'Unit of geoloc_radius' });

export const SettingsSchema = Type.Object(
  {
    timezone: Type.String({ description: 'IANA time zone of events created without one' }),
    geoloc: Type.Boolean({ description: 'Geolocation extension on or off' }),
    geoloc_radius: Type.Number({ description: 'Search radius of geoloc_lat/geoloc_lng' }),
    geoloc_unit: Unit,
    site_url: NullableUrl,
    submissions: Submissions,
    submission_confirm: Type.Boolean({ description: 'Anonymous submitters confirm their e-mail (with mail on)' }),
    spam_block_days: Type.Integer({ description: 'Days an address and e-mail marked as spam are refused' }),
  },
  { description: 'Site settings' },
);

export const SettingsPatchSchema = Type.Object({
  timezone: Type.Optional(Type.String({ description: 'IANA time zone name' })),
  geoloc: Type.Optional(Type.Boolean({ description: 'Geolocation extension on or off' })),
  geoloc_radius: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'Search radius, a positive number' })),
  geoloc_unit: Type.Optional(Unit),
  site_url: Type.Optional(NullableUrl),
  submissions: Type.Optional(Submissions),
  submission_confirm: Type.Optional(Type.Boolean({ description: 'Double opt-in for anonymous submitters' })),
  spam_block_days: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 3650, description: 'Days spam addresses are refused (1 to 3650)' }),
  ),
});
export type SettingsPatch = Static<typeof SettingsPatchSchema>;

/**
 * The checks JSON Schema cannot make, all reported at once; returns only the known keys (the
 * body may carry others, which are ignored and must never reach the settings table).
 */
export function parseSettingsPatch(
  body: SettingsPatch,
  options: { siteUrlFromEnv: boolean; isValidTimezone: (tz: string) => boolean },
): Partial<Settings> {
  const problems = new Problems();
  const { timezone, geoloc, geoloc_radius, geoloc_unit, site_url, submissions, submission_confirm, spam_block_days } =
    body;
  if (timezone !== undefined && !options.isValidTimezone(timezone))
    problems.add('timezone', 'timezone is not a valid time zone.');
  if (site_url !== undefined && options.siteUrlFromEnv) {
    problems.add('site_url', 'site_url is set by the environment (CAL_SITE_URL) and cannot be changed here.');
  } else if (typeof site_url === 'string' && !isHttpUrl(site_url)) {
    problems.add('site_url', 'site_url must be an http or https URL, or null.');
  }
  problems.throwIfAny();
  const patch: Partial<Settings> = {
    timezone,
    geoloc,
    geoloc_radius,
    geoloc_unit,
    submissions,
    submission_confirm,
    spam_block_days,
  };
  if (site_url !== undefined) patch.site_url = site_url === null ? null : site_url.replace(/\/+$/, '');
  return patch;
}
