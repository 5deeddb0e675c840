import { Type, type Static } from 'typebox';

/**
 * Events from the public (issue 29): what the form sends, what its checks answer, and the
 * moderators' API (`cal/admin/v1/submissions`).
 */

/** The form's fields, as a browser sends them (every one a string; an unchecked box is absent). */
export interface SubmissionFields {
  title: string;
  /** Plain text: blank lines part paragraphs, addresses become links (submission.text.ts). */
  description: string;
  /** `YYYY-MM-DDTHH:MM` (datetime-local), or `YYYY-MM-DD` for an all-day event. */
  start: string;
  end: string;
  timezone: string;
  all_day: boolean;
  /** An existing venue's id, or empty to name a new one below (or none). */
  venue_id: string;
  venue_name: string;
  venue_address: string;
  venue_city: string;
  venue_country: string;
  organizer_id: string;
  organizer_name: string;
  organizer_email: string;
  organizer_website: string;
  category_id: string;
  /** Comma-separated tag names. */
  tags: string;
  cost: string;
  website: string;
  image: string;
  /** The submitter's, never shown publicly; ignored for a signed-in submitter. */
  name: string;
  email: string;
  /** The honeypot: a field people never see or fill. */
  homepage: string;
  /** The ALTCHA widget's payload (base64 JSON); empty without JavaScript. */
  altcha: string;
}

export const SUBMISSION_FIELDS = [
  'title',
  'description',
  'start',
  'end',
  'timezone',
  'venue_id',
  'venue_name',
  'venue_address',
  'venue_city',
  'venue_country',
  'organizer_id',
  'organizer_name',
  'organizer_email',
  'organizer_website',
  'category_id',
  'tags',
  'cost',
  'website',
  'image',
  'name',
  'email',
  'homepage',
  'altcha',
] as const satisfies readonly Exclude<keyof SubmissionFields, 'all_day'>[];

/** Where a problem is shown: beside a field, or above the form. */
export type ProblemField = keyof SubmissionFields | 'form';

/** What went wrong, as a code the page words in its language; `max` for the length codes. */
export type ProblemCode =
  | 'required'
  | 'too_long'
  | 'invalid_date'
  | 'end_before_start'
  | 'invalid_timezone'
  | 'invalid_email'
  | 'invalid_url'
  | 'too_many_links'
  | 'unknown_venue'
  | 'unknown_organizer'
  | 'unknown_category'
  | 'too_many_tags'
  | 'invalid' // a deeper check of the event (English `detail`)
  | 'duplicate' // same title and start as a live event or waiting submission
  | 'refused' // the honeypot, or an address or e-mail blocked as spam (not told apart on purpose)
  | 'rate_limited'
  | 'challenge_failed' // an ALTCHA payload that does not verify (absent is not a failure)
  | 'closed' // submissions are off, or for signed-in users only
  | 'server_error';

export interface FieldProblem {
  field: ProblemField;
  code: ProblemCode;
  /** For too_long: the limit. */
  max?: number;
  /** English detail of an `invalid` (from the event checks). */
  detail?: string;
}

export type SubmitOutcome =
  | { ok: true; submissionId: number; eventId: number; state: 'pending' | 'unconfirmed' }
  | { ok: false; status: 400 | 403 | 409 | 429 | 500; problems: FieldProblem[]; retryAfterSeconds?: number };

/** Where a submission is in its life. */
export const SUBMISSION_STATES = ['unconfirmed', 'pending', 'approved', 'rejected', 'spam'] as const;
export type SubmissionState = (typeof SUBMISSION_STATES)[number];

const Linked = Type.Object({ id: Type.Integer(), name: Type.String(), status: Type.String() });

export const SubmissionSchema = Type.Object(
  {
    id: Type.Integer(),
    event_id: Type.Integer(),
    lang: Type.String(),
    state: Type.Enum([...SUBMISSION_STATES], { description: 'unconfirmed, pending, approved, rejected or spam' }),
    created: Type.String({ description: 'When it was submitted, UTC (Y-m-d H:i:s)' }),
    decided: Type.Union([Type.String(), Type.Null()], { description: 'When a moderator decided, UTC' }),
    reason: Type.String({ description: 'The reason given on rejection (sent to the submitter)' }),
    submitter: Type.Object(
      {
        name: Type.String(),
        email: Type.String(),
        user_id: Type.Union([Type.Integer(), Type.Null()], { description: 'The signed-in submitter, if any' }),
        ip: Type.String(),
      },
      { description: 'Never shown publicly' },
    ),
    checks: Type.Object({
      verified: Type.Boolean({ description: 'The proof of work was solved (false: sent without JavaScript)' }),
      confirmed: Type.Boolean({ description: 'The e-mail address was confirmed (double opt-in)' }),
      duplicate_of: Type.Union([Type.Integer(), Type.Null()], {
        description: 'An event with the same title and start, when one existed',
      }),
      links: Type.Integer({ description: 'Links in the description' }),
    }),
    event: Type.Object({
      id: Type.Integer(),
      title: Type.String(),
      status: Type.String(),
      start_date: Type.String(),
      end_date: Type.String(),
      all_day: Type.Boolean(),
      timezone: Type.String(),
      venue: Type.Union([Linked, Type.Null()]),
      organizers: Type.Array(Linked),
    }),
    new_venue: Type.Union([Type.Integer(), Type.Null()], { description: 'A venue this submission created' }),
    new_organizers: Type.Array(Type.Integer(), { description: 'Organizers this submission created' }),
    new_tags: Type.Array(Type.String(), {
      description: 'Tags the submitter named that do not exist yet: made on approval',
    }),
  },
  { description: 'An event submitted from the public form, with its submitter and checks' },
);
export type Submission = Static<typeof SubmissionSchema>;

export const SubmissionListQuery = Type.Object({
  state: Type.Optional(
    Type.Enum([...SUBMISSION_STATES, 'all'], {
      default: 'pending',
      description: 'Which submissions (pending by default)',
    }),
  ),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});

export const SubmissionPatchSchema = Type.Object({
  state: Type.Optional(
    Type.Enum(['approved', 'rejected', 'spam'], {
      description:
        'approved publishes the event; rejected trashes it and tells the submitter why; spam also blocks its address and e-mail',
    }),
  ),
  reason: Type.Optional(Type.String({ maxLength: 2000, description: 'Why it was rejected (sent to the submitter)' })),
  venue: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: 'Merge: use this existing venue instead of the one the submission created',
    }),
  ),
  organizers: Type.Optional(
    Type.Array(Type.Integer({ minimum: 1 }), {
      maxItems: 20,
      description: 'Merge: these existing organizers instead of those the submission created',
    }),
  ),
});
export type SubmissionPatch = Static<typeof SubmissionPatchSchema>;

export const MailStatusSchema = Type.Object({
  enabled: Type.Boolean({ description: 'CAL_SMTP_URL and CAL_MAIL_FROM are set' }),
  from: Type.Union([Type.String(), Type.Null()]),
  outbox: Type.Object({ pending: Type.Integer(), sent: Type.Integer(), failed: Type.Integer() }),
});
