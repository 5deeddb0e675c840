import type { RaRecord } from 'react-admin';
import type { Submission, SubmissionState } from '../../../src/modules/submissions/submission.schema';

/** A submission as GET /cal/admin/v1/submissions answers it (the service's own schema type). */
export type SubmissionRecord = Submission & RaRecord;
export type { SubmissionState };

/** The queue's tabs, in order: what waits for a moderator first, `all` last (the API's `state=all`). */
export const SUBMISSION_TABS = ['pending', 'unconfirmed', 'approved', 'rejected', 'spam', 'all'] as const;
export type SubmissionTab = (typeof SUBMISSION_TABS)[number];

/** States a moderator may still decide on: a decided submission answers 409 to another decision. */
export function undecided(record: Pick<Submission, 'state'>): boolean {
  return record.state === 'pending' || record.state === 'unconfirmed';
}

/** The submitter as the queue names them: name and e-mail (a signed-in submitter is marked so). */
export function submitterLine(record: Submission, signedIn: string): string {
  const { name, email, user_id } = record.submitter;
  const who = [name, email ? `<${email}>` : ''].filter(Boolean).join(' ');
  return user_id !== null ? `${who} (${signedIn})` : who;
}
