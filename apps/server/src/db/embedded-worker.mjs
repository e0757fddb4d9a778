// The embedded database (PGlite) in its own thread: PostgreSQL's work (parsing, planning, writing
// pages, WASM memory growth) never runs on the event loop that serves gateway calls. Plain
// JavaScript so the same file loads from the sources (tests, `npm run dev`) and from the build.
// Protocol: see embedded-client.ts, which is the only other side.
import { readlinkSync } from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

// Ten nice steps below the event loop's priority: when the cores are all busy, the gateway's thread
// runs first and PostgreSQL's work (the meter's inserts above all) waits its turn. Without it, an
// insert holding a core made the kernel queue the event loop behind it for a time slice (3-8 ms),
// the gateway's p99 at concurrency 1 on a 2-core machine (decision 020). Linux keeps a nice value
// per thread; elsewhere, or where not permitted, the thread keeps its priority.
const NICE_STEPS = 10;
try {
  // `/proc/thread-self` links to `<pid>/task/<thread id>`.
  const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (threadId > 0) os.setPriority(threadId, Math.min(19, os.getPriority(threadId) + NICE_STEPS));
} catch {
  // Not Linux, or no /proc.
}

const { dataDir, loadDataDir, postgresqlconf, initialMemory } = workerData;
const identity = (value) => value;

const db = await PGlite.create({
  ...(dataDir ? { dataDir } : {}),
  ...(loadDataDir ? { loadDataDir: new Blob([loadDataDir]) } : {}),
  ...(postgresqlconf ? { postgresqlconf } : {}),
  ...(initialMemory ? { initialMemory } : {}),
});

/** Open transactions: id -> { tx, finish(commit) }. */
const transactions = new Map();

function queryOptions(message) {
  const options = { rowMode: message.rowMode ?? 'object' };
  // The caller's type parsers are functions (not transferable): drizzle's are all identity
  // parsers that keep dates and intervals as text, so the worker applies identity to those types.
  if (message.rawTypes?.length)
    options.parsers = Object.fromEntries(message.rawTypes.map((oid) => [oid, identity]));
  return options;
}

function serializeError(error) {
  const plain = { message: error?.message ?? String(error), name: error?.name ?? 'Error' };
  for (const [key, value] of Object.entries(error ?? {})) {
    if (value === undefined || typeof value === 'function') continue;
    if (key === 'queryOptions') continue;
    plain[key] = value;
  }
  return plain;
}

const ROLLBACK = Symbol('rollback');

/**
 * Opens a PGlite transaction held open across messages: it holds PGlite's lock (other queries wait,
 * as they would in-process) until an `end` message commits or rolls it back.
 */
function beginTransaction(id) {
  return new Promise((started, failed) => {
    const done = db
      .transaction(
        (tx) =>
          new Promise((resolve, reject) => {
            transactions.set(id, { tx, done, finish: (commit) => (commit ? resolve() : reject(ROLLBACK)) });
            started();
          }),
      )
      .catch((error) => {
        if (error !== ROLLBACK) throw error;
      });
    done.catch(failed); // BEGIN itself failed: `started` was never called
  });
}

async function handle(message) {
  switch (message.op) {
    case 'query': {
      const target = message.txId ? transactions.get(message.txId)?.tx : db;
      if (!target) throw new Error('The transaction has already ended');
      const result = await target.query(message.sql, message.params ?? [], queryOptions(message));
      return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
    }
    case 'batch':
      // Statements in one transaction and one message (a metering batch is one hop, not four); a
      // statement with `copyText` reads it as its `COPY … FROM '/dev/blob'`.
      await db.transaction(async (tx) => {
        for (const statement of message.statements)
          await tx.query(
            statement.sql,
            statement.params ?? [],
            statement.copyText === undefined ? {} : { blob: new Blob([statement.copyText]) },
          );
      });
      return {};
    case 'begin':
      await beginTransaction(message.id);
      return { txId: message.id };
    case 'end': {
      const open = transactions.get(message.txId);
      if (!open) return {};
      transactions.delete(message.txId);
      open.finish(message.commit);
      await open.done;
      return {};
    }
    case 'dump': {
      const blob = await db.dumpDataDir('none');
      return { dump: await blob.arrayBuffer() };
    }
    case 'close':
      await db.close();
      return {};
    default:
      throw new Error(`Unknown operation ${message.op}`);
  }
}

// Once the thread has had nothing to do for a second after start-up: one memory-reducing collection
// (compacting, shrinking the young generation), which gives back what compiling PGlite's WASM and
// opening the database left (about 9 MB of this thread's heap). No collection does that by itself
// while the thread idles. `gc` is there when the process allows it: `npm start` does
// (scripts/start.mjs sets --expose-gc before this thread starts); tests and `npm run dev` do not.
const collectGarbage = typeof globalThis.gc === 'function' ? globalThis.gc : undefined;
let idleCollection = collectGarbage
  ? setTimeout(() => {
      idleCollection = undefined;
      collectGarbage({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    }, 1000).unref()
  : undefined;

parentPort.on('message', (message) => {
  idleCollection?.refresh();
  handle(message).then(
    (result) => {
      idleCollection?.refresh();
      const transfer = result.dump ? [result.dump] : [];
      parentPort.postMessage({ id: message.id, result }, transfer);
      if (message.op === 'close') parentPort.close();
    },
    (error) => {
      idleCollection?.refresh();
      parentPort.postMessage({ id: message.id, error: serializeError(error) });
    },
  );
});
parentPort.postMessage({ ready: true });
