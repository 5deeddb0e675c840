import fs from 'node:fs';

/**
 * The files of the embedded database (the database, its WAL and shared memory, backups, the pid
 * file) hold webhook secrets, password hashes and the passwords of protected events: they are
 * the service user's alone, 0600 in a 0700 DATA_DIR.
 */
export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIRECTORY = 0o700;

/** Where the platform has no O_NOFOLLOW (Windows), 0: modes and symbolic links work otherwise there. */
const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** Open flags for a file made afresh: never one that exists, never through a symbolic link. */
export const CREATE_EXCLUSIVE = fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY | NOFOLLOW;
/** Open flags to read a file we made, refusing a symbolic link put in its place. */
export const READ_NOFOLLOW = fs.constants.O_RDONLY | NOFOLLOW;

function warn(message: string): void {
  process.emitWarning(message, 'SecurityWarning');
}

/** Whether this process may (and should) change the mode of what `stat` describes: its own files only. */
const ours = (stat: fs.Stats) => process.getuid === undefined || stat.uid === process.getuid();

/** Narrows the mode of `target` to `mode` when others may read it: when we own it, else a warning. */
function tighten(target: string, stat: fs.Stats, mode: number): void {
  if ((stat.mode & 0o777 & ~mode) === 0) return;
  if (!ours(stat)) {
    warn(
      `${target} is readable by others (mode ${(stat.mode & 0o777).toString(8)}) and not ours to change: make it ${mode.toString(8)}.`,
    );
    return;
  }
  fs.chmodSync(target, mode);
}

/**
 * Makes `dir` (and its missing parents) 0700, or narrows it to 0700 when it exists wider and is
 * ours. A directory we do not own (one an administrator prepared, say group-readable on purpose)
 * is left as it is, with a warning.
 */
export function privateDirectory(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIRECTORY });
  tighten(dir, fs.statSync(dir), PRIVATE_DIRECTORY);
}

/** Narrows each of `files` that exists to 0600 (files made by earlier versions were 0644). */
export function privateFiles(...files: string[]): void {
  for (const file of files) {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(file);
    } catch {
      continue;
    }
    // A symbolic link's target is not ours to change (and chmod would follow it).
    if (stat.isFile()) tighten(file, stat, PRIVATE_FILE);
  }
}

/**
 * Runs `work` with the process's umask at 077, so every file made meanwhile is 0600 whatever mode
 * its maker asks: SQLite makes the database with 0644, and better-sqlite3 gives no way to say
 * otherwise. `work` is synchronous, so no other JavaScript runs under the narrow umask; a file
 * the thread pool happens to create meanwhile is only made more private. In a worker thread,
 * where the umask cannot be set, `work` runs as it is.
 */
export function withPrivateUmask<T>(work: () => T): T {
  let previous: number;
  try {
    previous = process.umask(0o077);
  } catch {
    return work();
  }
  try {
    return work();
  } finally {
    process.umask(previous);
  }
}

/** Creates `file` (0600, exclusively, not through a symbolic link) holding `content`. */
export function createPrivateFile(file: string, content = ''): void {
  const fd = fs.openSync(file, CREATE_EXCLUSIVE, PRIVATE_FILE);
  try {
    if (content !== '') fs.writeSync(fd, content);
  } finally {
    fs.closeSync(fd);
  }
}
