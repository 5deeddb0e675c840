import { Type, type Static } from 'typebox';

/** The admin route's imports: what starting one takes, and what it shows of one. */

/**
 * Most characters of an uploaded iCalendar file: the whole request body is refused over 1 MiB
 * (413) before this is read, so a larger calendar comes by URL (up to CAL_IMPORT_MAX_ICS_BYTES).
 */
export const ICS_UPLOAD_MAX_CHARS = 1024 * 1024;

/** What `POST /cal/admin/v1/imports` takes: the command line's options, as JSON. */
export const ImportBody = Type.Object(
  {
    from: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description: 'REST root of a site running The Events Calendar (…/wp-json/) or of another cal-events service',
      }),
    ),
    ics: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'http(s) URL of an iCalendar feed' })),
    ics_content: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: ICS_UPLOAD_MAX_CHARS,
        description:
          'The text of an iCalendar file sent by the client (an upload), instead of from or ics; the request body stays under 1 MiB',
      }),
    ),
    filename: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description:
          'With ics_content: the file name, which names the source, so that uploading it again updates what the first upload created',
      }),
    ),
    user: Type.Optional(
      Type.String({ maxLength: 254, description: 'Source user (with password: drafts and private records too)' }),
    ),
    password: Type.Optional(
      Type.String({ maxLength: 1024, description: 'Source application password; never stored nor shown' }),
    ),
    languages: Type.Optional(
      Type.Array(Type.String({ maxLength: 16 }), { maxItems: 50, description: 'Languages to import (default: all)' }),
    ),
    since: Type.Optional(
      Type.String({
        pattern: '^\\d{4}-\\d{2}-\\d{2}$',
        description:
          "REST source: only events ending on or after this day; both: a series' occurrences before it are not made (iCalendar default: CAL_RECURRENCE_HORIZON_DAYS before today)",
      }),
    ),
    author: Type.Optional(
      Type.Integer({ minimum: 1, description: 'User the imported records belong to (default: the caller)' }),
    ),
    dry_run: Type.Optional(Type.Boolean({ description: 'Read and compare only; write nothing' })),
    prune: Type.Optional(
      Type.Boolean({
        description: 'Move to the trash what an earlier import took from this source and the source no longer has',
      }),
    ),
    calendar_name: Type.Optional(Type.String({ maxLength: 200 })),
    category: Type.Optional(
      Type.String({ maxLength: 200, description: 'iCalendar: a category every imported event gets' }),
    ),
    language: Type.Optional(Type.String({ maxLength: 16, description: 'iCalendar: the language of its events' })),
  },
  { additionalProperties: false },
);

/** An import started through the admin route: its options (no password), progress, then report or error. */
export const ImportJobSchema = Type.Object(
  {
    id: Type.Integer(),
    status: Type.String({ enum: ['running', 'done', 'failed'] }),
    options: Type.Object({}, { additionalProperties: true }),
    progress: Type.Object({}, { additionalProperties: true, description: 'Per kind: done and total' }),
    report: Type.Unknown({
      description: 'Counts per kind and language, skips with reasons, records gone from the source, warnings, rate',
    }),
    error: Type.Union([Type.String(), Type.Null()]),
    user_id: Type.Integer(),
    started: Type.String(),
    finished: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);

export type ImportRequest = Static<typeof ImportBody>;
