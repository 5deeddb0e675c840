// A test reporter that prints, once the run is over, the files whose tests took longest: the sum of
// each file's top-level tests' durations (its suites and tests run one after the other), which is
// what CI's time is made of. run-tests.mjs adds it after the spec reporter.
const SHOWN = 15;

export default async function* fileTimes(source) {
  const seconds = new Map();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      const file = event.data.file.replace(/^.*?\/test\//, 'test/');
      seconds.set(file, (seconds.get(file) ?? 0) + (event.data.details.duration_ms ?? 0) / 1000);
    }
  }
  const rows = [...seconds].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, s]) => sum + s, 0);
  yield `\nThe test files' own times: ${Math.round(total)} s over ${rows.length} files; the longest:\n`;
  for (const [file, s] of rows.slice(0, SHOWN)) yield `${s.toFixed(1).padStart(8)} s  ${file}\n`;
}
