// Preloaded into the service by bench/memory.ts: answers its parent's messages with the process's
// memory (after a full garbage collection when asked; the service runs with --expose-gc) and the
// resident bytes of its mappings by kind (/proc/self/smaps), or writes a heap snapshot where asked.
import fs from 'node:fs';
import v8 from 'node:v8';

/** Resident bytes by kind of mapping: the malloc heap, other anonymous memory, files (code). */
function residentByKind() {
  const kinds = { brk: 0, anonymous: 0, files: 0 };
  let kind = 'anonymous';
  for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) kind = head[1] === '[heap]' ? 'brk' : head[1].startsWith('/') ? 'files' : 'anonymous';
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kinds[kind] += Number(rss[1]) * 1024;
  }
  return kinds;
}

process.on('message', (message) => {
  if (message.snapshot) {
    v8.writeHeapSnapshot(message.snapshot);
    process.send({ done: true });
    return;
  }
  if (message.gc) globalThis.gc?.();
  const spaces = Object.fromEntries(
    v8.getHeapSpaceStatistics().map((s) => [s.space_name, { size: s.space_size, used: s.space_used_size }]),
  );
  const threads = Number(/^Threads:\s+(\d+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]);
  process.send({ ...process.memoryUsage(), ...residentByKind(), spaces, threads });
});
process.channel?.unref();
