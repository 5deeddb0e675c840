import cliProgress from 'cli-progress';

/** The copy's progress bar on stderr (the CLI draws it only on a terminal). */
export interface Progress {
  update(done: number, table: string): void;
  /** Ends the bar; `next` says what follows (the check, which reads the target again). */
  stop(next?: string): void;
}

export function progressBar(total: number): Progress {
  const bar = new cliProgress.SingleBar(
    {
      format: 'copy [{bar}] {percentage}% | {value}/{total} rows | {eta_formatted} left | {table}',
      hideCursor: true,
      stream: process.stderr,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { table: '' });
  return {
    update: (done, table) => bar.update(done, { table }),
    stop: (next) => {
      bar.stop();
      if (next) process.stderr.write(`${next}\n`);
    },
  };
}
