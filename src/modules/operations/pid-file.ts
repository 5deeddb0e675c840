import fs from 'node:fs';
import path from 'node:path';

/**
 * `DATA_DIR/cal-events.pid` while a service runs on the embedded database: restore must not swap
 * the database file under a running service (its open handle would keep the old one, and writes
 * would go nowhere). Removed at exit; a file left by a crash names a process that is gone.
 */
const NAME = 'cal-events.pid';

export function holdPidFile(dataDir: string): void {
  const file = path.join(dataDir, NAME);
  fs.writeFileSync(file, String(process.pid));
  process.once('exit', () => {
    try {
      if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.rmSync(file);
    } catch {
      // Already gone.
    }
  });
}

/** The pid of a live service on `dataDir`, or null. */
export function runningService(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(dataDir, NAME), 'utf8').trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: it exists but is someone else's; still running.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}
