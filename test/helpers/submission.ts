import type { SubmissionFields } from '../../src/modules/submissions/submission.schema.js';

/** The submission form with nothing filled in (as a browser sends it: every field, empty); tests spread their own values over it. */
export const BLANK_SUBMISSION: Readonly<SubmissionFields> = Object.freeze({
  title: '',
  description: '',
  start: '',
  end: '',
  timezone: '',
  all_day: false,
  venue_id: '',
  venue_name: '',
  venue_address: '',
  venue_city: '',
  venue_country: '',
  organizer_id: '',
  organizer_name: '',
  organizer_email: '',
  organizer_website: '',
  category_id: '',
  tags: '',
  cost: '',
  website: '',
  image: '',
  name: '',
  email: '',
  homepage: '',
  altcha: '',
});
