import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { addSqliteFunctions } from './sqlite-functions.js';
import { sqliteDatabase } from './sqlite-statements.js';
import type { ReaderReply, ReaderRequest, ReaderSetup } from './sqlite-readers.js';

/**
 * One reader thread of sqlite-readers.ts: a read-only connection to the service's database
 * (WAL lets it read while the main connection writes), running one statement at a time as the
 * main thread sends them, with the same functions, pragmas, statement cache and row building as
 * the main connection.
 */
const port = parentPort!;
const setup = workerData as ReaderSetup;
const sqlite = new SQLite(setup.file, { readonly: true, fileMustExist: true });
for (const pragma of setup.pragmas) sqlite.pragma(pragma);
addSqliteFunctions(sqlite);
const database = sqliteDatabase(sqlite);

port.on('message', (request: ReaderRequest) => {
  if (request.type === 'close') {
    sqlite.close();
    port.close();
    return;
  }
  let reply: ReaderReply;
  try {
    const started = performance.now();
    const rows = database.prepare(request.sql).all(request.parameters) as unknown[];
    reply = { id: request.id, rows, ms: performance.now() - started };
  } catch (error) {
    const { message, name, code } = error as { message: string; name: string; code?: string };
    reply = { id: request.id, error: { message, name, code } };
  }
  port.postMessage(reply);
});
port.postMessage({ id: 0, rows: [], ms: 0 } satisfies ReaderReply);
