import fs from 'node:fs';
import path from 'node:path';
import { SQLITE_FILE } from '../../db/connect.js';
import { createPrivateFile, READ_NOFOLLOW } from '../../lib/private-files.js';
import { databaseInUse } from './sqlite-file.repository.js';

/**
 * Whether a service runs on an embedded database: restore (and a copy into a DATA_DIR) must not
 * swap the database under one (its open handle would keep the old file, and its writes would go
 * nowhere). Two signs: `DATA_DIR/cal-events.pid`, written by server.ts and removed at exit, which
 * names the process; and, whatever holds the file (a service that crashed and was restarted by
 * hand, a `cal-events` command), SQLite's own lock.
 */
const NAME = 'cal-events.pid';

export class PidFileError extends Error {}

/**
 * Writes the pid file, 0600, made afresh: never written through a symbolic link someone put in
 * DATA_DIR (it would overwrite whatever the link names with the service's rights). One left by a
 * process that did not exit cleanly is removed first (unlink removes a link, never its target).
 */
export function holdPidFile(dataDir: string): void {
  const file = path.join(dataDir, NAME);
  const pid = String(process.pid);
  try {
    createPrivateFile(file, pid);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (fs.lstatSync(file).isSymbolicLink())
      throw new PidFileError(`${file} is a symbolic link: remove it, then start the service.`);
    fs.rmSync(file);
    // A second EEXIST means another process made it meanwhile: that is an error, not ours to remove.
    createPrivateFile(file, pid);
  }
  process.once('exit', () => {
    try {
      if (readNoFollow(file) === pid) fs.rmSync(file);
    } catch {
      // Already gone, or no longer ours.
    }
  });
}

/** A file's text, refusing a symbolic link in its place. */
function readNoFollow(file: string): string {
  const fd = fs.openSync(file, READ_NOFOLLOW);
  try {
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** The pid of a live service on `dataDir` according to its pid file, or null. */
export function runningService(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(readNoFollow(path.join(dataDir, NAME)).trim());
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

/** Who uses the database of `dataDir`, as a sentence ("A service (pid 12) is running on …"), or null when nothing does. */
export async function serviceOn(dataDir: string): Promise<string | null> {
  const pid = runningService(dataDir);
  if (pid !== null) return `A service (pid ${pid}) is running on ${dataDir}`;
  const file = path.join(dataDir, SQLITE_FILE);
  return (await databaseInUse(file)) ? `A process has ${file} open` : null;
}
