import { describe, it } from 'node:test';
import fc from 'fast-check';
import { backends, createTestApp } from '../helpers/app.js';
import { commands, Model, usersOf, type Real } from '../helpers/stateful.js';

/**
 * The model-based property run (test/helpers/stateful.ts), short and seeded so `npm test` is
 * repeatable; `npm run fuzz -- --commands 100000 --seed N` runs the same commands for long.
 */
const SEED = 20261124;

for (const backend of backends()) {
  describe(`stateful property run [${backend}]`, () => {
    it('should keep every invariant of the model over random command sequences, as every role', async () => {
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: 90, size: '+1' }), async (sequence) => {
          const t = await createTestApp(backend);
          try {
            const real: Real = { t, users: await usersOf(t, 'p'), seen: new Map() };
            await fc.asyncModelRun(() => ({ model: new Model(), real }), sequence);
          } finally {
            await t.close();
          }
        }),
        { numRuns: 4, seed: SEED, endOnFailure: backend === 'postgres' },
      );
    });
  });
}
