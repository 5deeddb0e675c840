/**
 * Long runs of the model-based property test (test/helpers/stateful.ts):
 *
 *   npm run fuzz -- --commands 100000 --seed 7 [--per-run 200] [--database-url postgres://…]
 *
 * Runs sequences of up to --per-run commands, each on a fresh database, until --commands commands
 * ran, printing progress. On a failure fast-check shrinks the sequence and the script prints the
 * smallest failing one with the seed and path that replay it, and exits 1.
 */
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import type { Real } from '../test/helpers/stateful.js';

// The checks npm test runs under (src/db/prepared.ts, event-list.service.ts), set before the service loads.
process.env['CAL_VERIFY_PREPARED'] = '1';
process.env['CAL_VERIFY_COUNTS'] = '1';
const { createTestApp } = await import('../test/helpers/app.js');
const { commands, Model, usersOf } = await import('../test/helpers/stateful.js');

const { values } = parseArgs({
  options: {
    commands: { type: 'string', default: '10000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    'per-run': { type: 'string', default: '200' },
    'database-url': { type: 'string' },
    path: { type: 'string' },
  },
});
const total = Number(values.commands);
const seed = Number(values.seed);
const perRun = Number(values['per-run']);
if (values['database-url']) process.env['TEST_DATABASE_URL'] = values['database-url'];
const backend = values['database-url'] ? 'postgres' : 'sqlite';

let ran = 0;
let runs = 0;
const started = Date.now();
const seen = new Map<string, number>();

const property = fc.asyncProperty(fc.commands(commands, { maxCommands: perRun, size: 'max' }), async (sequence) => {
  const t = await createTestApp(backend);
  try {
    const real: Real = { t, users: await usersOf(t, 'f'), seen };
    await fc.asyncModelRun(() => ({ model: new Model(), real }), sequence);
  } finally {
    await t.close();
  }
  runs += 1;
  ran += [...sequence].length;
  const rate = Math.round(ran / ((Date.now() - started) / 1000));
  process.stdout.write(`\r${backend} seed ${seed}: ${ran}/${total} commands in ${runs} runs (${rate}/s)   `);
});

// One sequence per check, each with its own seed, until enough commands ran: a failure shrinks
// within its check and prints the seed that replays it (with --commands 1 --seed S).
for (let i = 0; ran < total; i++) {
  const runSeed = seed + i;
  const result = await fc.check(property, { seed: runSeed, numRuns: 1, ...(values.path ? { path: values.path } : {}) });
  if (result.failed) {
    process.stdout.write('\n');
    console.error(fc.defaultReportMessage(result));
    console.error(
      String(
        result.errorInstance instanceof Error
          ? (result.errorInstance.cause ?? result.errorInstance)
          : result.errorInstance,
      ),
    );
    console.error(
      `replay: npm run fuzz -- --commands 1 --seed ${runSeed}${backend === 'postgres' ? ' --database-url …' : ''}`,
    );
    process.exit(1);
  }
}
process.stdout.write('\n');
console.log('answers seen:', Object.fromEntries([...seen.entries()].sort()));
console.log(
  `no failure: ${ran} commands in ${runs} runs from seed ${seed}, ${Math.round((Date.now() - started) / 1000)} s`,
);
