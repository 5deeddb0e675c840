/** The import command's help, apart from the command so `cal-events user …` does not load the app. */

export const IMPORT_USAGE = `Usage:
  cal-events import --from <REST root URL> [--user U --password APP_PASSWORD] [--languages en,fr] [--since YYYY-MM-DD]
                    [--author NAME] [--dry-run] [--prune] [--report FILE]
  cal-events import --ics <file or URL> [--calendar-name X] [--category C] [--language xx]
                    [--author NAME] [--dry-run] [--prune] [--report FILE]
--from reads a site running The Events Calendar (…/wp-json/) or another cal-events service, in every language;
--ics reads an iCalendar feed. A second run updates what changed and creates nothing twice.`;

export class UsageError extends Error {}
