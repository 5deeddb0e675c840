/** The old path, for src/server.ts until it imports language.repository.ts (then this file goes). */
export { countOutsideLanguages } from './language.repository.js';
