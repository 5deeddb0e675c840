import { Command } from 'commander';
import type { ImportOptions } from './import.service.js';

/**
 * The `import` command's options and their checks, apart from the command (import.cli.ts) so
 * `cal-events user …` and `cal-events import --help` do not load the app.
 */

/** A mistake in the command line: exit status 2. */
export class UsageError extends Error {}

/** The flags as commander gives them. */
export interface ImportFlags {
  from?: string;
  ics?: string;
  user?: string;
  password?: string;
  languages?: string;
  since?: string;
  author?: string;
  dryRun?: boolean;
  prune?: boolean;
  report?: string;
  calendarName?: string;
  category?: string;
  language?: string;
}

export interface ImportRequest {
  options: ImportOptions;
  author?: string | undefined;
  report?: string | undefined;
}

export function importDefinition(): Command {
  return new Command('import')
    .summary('import a site (--from) or an iCalendar feed (--ics); run again to update')
    .description(
      'import a site running The Events Calendar (…/wp-json/) or another cal-events service (--from), ' +
        'or an iCalendar feed (--ics). A second run updates what changed and creates nothing twice; ' +
        'an interrupted run resumes where it stopped.',
    )
    .option('--from <url>', 'REST root URL of the site to read, in every language')
    .option('--ics <file or url>', 'iCalendar file or http(s) URL to read')
    .option('--user <name>', '--from: user name on the source (with --password)')
    .option('--password <app-password>', '--from: application password on the source (with --user)')
    .option('--languages <list>', '--from: only these languages, comma-separated (en,fr)')
    .option(
      '--since <YYYY-MM-DD>',
      '--from: only events from this day on; --ics: the day series are kept from (default: as far back ' +
        'as CAL_RECURRENCE_HORIZON_DAYS reaches ahead)',
    )
    .option('--calendar-name <name>', "--ics: the calendar's name in the report (default: the feed's own)")
    .option('--category <name>', '--ics: a category every imported event gets')
    .option('--language <code>', "--ics: the language of its events (default: the site's)")
    .option('--author <name>', 'the user the imported records belong to (default: the first administrator)')
    .option('--dry-run', 'read and check everything, write nothing')
    .option('--prune', 'move to the trash what an earlier run imported and the source no longer has')
    .option('--report <file>', 'also write the report as JSON to this file')
    .addHelpText(
      'after',
      `
Exit status: 0 imported; 3 finished with skips (each skipped record and its reason in the report);
1 the source could not be read or the run failed; 2 a usage error; 130 stopped by Ctrl-C (run again to resume).`,
    );
}

/** The flags checked and turned into the importer's options; UsageError on a mistake. */
export function importRequest(flags: ImportFlags): ImportRequest {
  if ((flags.from === undefined) === (flags.ics === undefined)) throw new UsageError('Give either --from or --ics.');
  if (flags.since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(flags.since))
    throw new UsageError('--since takes a day, YYYY-MM-DD.');
  if ((flags.user === undefined) !== (flags.password === undefined))
    throw new UsageError('--user and --password go together.');
  return {
    options: {
      from: flags.from,
      ics: flags.ics,
      user: flags.user,
      password: flags.password,
      languages: flags.languages
        ?.split(',')
        .map((l) => l.trim().toLowerCase())
        .filter(Boolean),
      since: flags.since,
      dryRun: flags.dryRun === true,
      prune: flags.prune === true,
      calendarName: flags.calendarName,
      category: flags.category,
      language: flags.language,
    },
    author: flags.author,
    report: flags.report,
  };
}
