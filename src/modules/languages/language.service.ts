import type { Db } from '../../db/database.js';
import { countOutsideLanguages } from './language.repository.js';

/**
 * Records whose language is not among the configured ones (CAL_LANGUAGES shrank): start-up warns
 * of them, since no root serves them any more; they are kept, never deleted.
 */
export function strandedRecords(db: Db, languages: readonly string[]): Promise<number> {
  return countOutsideLanguages(db, languages);
}
