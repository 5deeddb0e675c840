/**
 * The site settings every request carries in its context (time zone, geolocation, site address).
 * The settings module stores and changes them; the type lives with the shared HTTP pieces, which
 * read it but import no module.
 */
export interface Settings {
  timezone: string;
  geoloc: boolean;
  geoloc_radius: number;
  geoloc_unit: 'mi' | 'km';
  site_url: string | null;
  /** Who may submit events from the public form (issue 29). */
  submissions: 'off' | 'users' | 'anyone';
  /** With mail on, an anonymous submission waits until its e-mail address is confirmed. */
  submission_confirm: boolean;
  /** How long an address and e-mail marked as spam are refused. */
  spam_block_days: number;
}
