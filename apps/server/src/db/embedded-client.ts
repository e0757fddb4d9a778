import { spawn } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * The main thread's side of the embedded database: a client with the surface drizzle's PGlite
 * driver uses (`query`, `transaction`), each call a message to the worker that owns PGlite
 * (embedded-worker.mjs). Queries cost a structured clone each way; in exchange PostgreSQL's own
 * work (metering writes included) runs off the event loop that serves gateway calls.
 */

interface TQueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, unknown>;
}

interface TResults {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

export interface TEmbeddedOptions {
  /** On-disk data folder; omitted with loadDataDir or for an in-memory database. */
  dataDir?: string;
  /** A `dumpDataDir()` tarball to start from (tests). */
  loadDataDir?: ArrayBuffer;
  /** postgresql.conf lines (memory settings). */
  postgresqlconf?: string[];
  /** Initial WASM memory in bytes. */
  initialMemory?: number;
}

/** One statement of a batch; `copyText` is the data of its `COPY … FROM '/dev/blob'`. */
export interface TBatchStatement {
  sql: string;
  params?: unknown[];
  copyText?: string;
}

type TPending = { resolve: (value: never) => void; reject: (error: Error) => void };

/** The worker's V8 young generation in MB: two semi-spaces and the new large-object space, 2 MB each. */
const WORKER_YOUNG_GENERATION_MB = 6;
const WORKER_FILE = new URL('./embedded-worker.mjs', import.meta.url);
const CREATE_FILE = new URL('./embedded-create.mjs', import.meta.url);
/** A new database, dumped by the build (`scripts/server-build.mjs`); absent when run from sources. */
export const TEMPLATE_FILE = new URL('./embedded-template.tar.gz', import.meta.url);

/**
 * Creates the database in `dataDir` in a child process that exits when done. Creating a database
 * inside the server cost it about 300 MB for the rest of its life (PGlite runs initdb in a second
 * PostgreSQL instance and keeps what it allocated; a worker thread's memory did not go back to the
 * system either); a process's memory does. From the build's template no initdb runs at all (a
 * tarball is unpacked: a few seconds faster and half the peak). The database is made in a
 * sibling folder and renamed into place, so a start killed half-way leaves no half-made database.
 */
export async function createDatabase(
  dataDir: string,
  postgresqlconf: string[] | undefined,
  /** A `dumpDataDir` tarball to make it from instead of the build's template (a restored backup). */
  from?: string,
): Promise<void> {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0)
    throw new Error(`${dataDir} holds files but no database (no PG_VERSION): move them away to start anew`);
  const staging = `${dataDir}.creating-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const args = [fileURLToPath(CREATE_FILE), staging, JSON.stringify(postgresqlconf ?? [])];
  if (from) args.push(from);
  else if (existsSync(TEMPLATE_FILE)) args.push(fileURLToPath(TEMPLATE_FILE));
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve); // after its stderr is read whole
  });
  if (code !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`The embedded database could not be created in ${dataDir}: ${stderr.trim()}`);
  }
  if (existsSync(dataDir)) rmdirSync(dataDir); // empty (checked above)
  renameSync(staging, dataDir);
}

function reviveError(plain: Record<string, unknown>): Error {
  const error = new Error(String(plain.message));
  Object.assign(error, plain);
  return error;
}

export class EmbeddedClient {
  readonly #worker: Worker;
  readonly #pending = new Map<number, TPending>();
  #nextId = 1;
  #closed = false;
  #openTransactions = 0;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (message: { id: number; result?: unknown; error?: Record<string, unknown> }) => {
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if (message.error) pending.reject(reviveError(message.error));
      else pending.resolve(message.result as never);
    });
    worker.on('error', (error) => this.#failAll(error));
    worker.on('exit', () => this.#failAll(new Error('The embedded database thread has stopped')));
  }

  /** Starts the worker and resolves once its PGlite is open. */
  static async start(options: TEmbeddedOptions): Promise<EmbeddedClient> {
    if (options.dataDir && !existsSync(path.join(options.dataDir, 'PG_VERSION')))
      await createDatabase(options.dataDir, options.postgresqlconf);
    // libuv's thread pool (file system calls, dns.lookup, crypto) serves the whole process, and its
    // threads inherit the priority of the thread that starts them, on the first call that needs
    // one. Started here by the event loop's thread, before the database thread lowers its own
    // priority (embedded-worker.mjs), the pool keeps the event loop's priority.
    await stat(WORKER_FILE);
    const transfer = options.loadDataDir ? [options.loadDataDir] : [];
    const worker = new Worker(WORKER_FILE, {
      workerData: options,
      transferList: transfer,
      // The thread's JavaScript is a thin layer over PGlite's WASM: 2 MB semi-spaces instead of
      // V8's default of up to 16 MB, mostly empty once idle (decision 015). A process-wide
      // --max-semi-space-size, if given, overrides this.
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: { ready?: boolean }) => {
        if (!message.ready) return;
        worker.off('error', reject);
        worker.off('message', onMessage);
        resolve();
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
      worker.once('exit', (code) =>
        reject(new Error(`The embedded database thread exited (${code}) at start`)),
      );
    });
    return new EmbeddedClient(worker);
  }

  #failAll(error: Error) {
    this.#closed = true;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  #call<T>(message: Record<string, unknown>): Promise<T> {
    if (this.#closed) return Promise.reject(new Error('The embedded database is closed'));
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: never) => void, reject });
      this.#worker.postMessage({ ...message, id });
    });
  }

  #query(sql: string, params: unknown[] | undefined, options: TQueryOptions | undefined, txId?: number) {
    return this.#call<TResults>({
      op: 'query',
      sql,
      params,
      txId,
      rowMode: options?.rowMode,
      rawTypes: options?.parsers ? Object.keys(options.parsers).map(Number) : undefined,
    });
  }

  query(sql: string, params?: unknown[], options?: TQueryOptions): Promise<TResults> {
    return this.#query(sql, params, options);
  }

  /** Runs `callback` in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(callback: (tx: { query: EmbeddedClient['query'] }) => Promise<T>): Promise<T> {
    this.#openTransactions += 1;
    try {
      const { txId } = await this.#call<{ txId: number }>({ op: 'begin' });
      const tx = {
        query: (sql: string, params?: unknown[], options?: TQueryOptions) =>
          this.#query(sql, params, options, txId),
      };
      let result: T;
      try {
        result = await callback(tx);
      } catch (error) {
        await this.#call({ op: 'end', txId, commit: false });
        throw error;
      }
      await this.#call({ op: 'end', txId, commit: true });
      return result;
    } finally {
      this.#openTransactions -= 1;
    }
  }

  /** Runs the statements in one transaction, in one message to the database thread. */
  batch(statements: TBatchStatement[]): Promise<void> {
    return this.#call({ op: 'batch', statements });
  }

  /** Open, with no query waiting and no transaction open (tests reuse such a database). */
  get idle(): boolean {
    return !this.#closed && this.#pending.size === 0 && this.#openTransactions === 0;
  }

  /** A `dumpDataDir('none')` tarball of the database (tests start from a migrated copy). */
  async dumpDataDir(): Promise<Blob> {
    const { dump } = await this.#call<{ dump: ArrayBuffer }>({ op: 'dump' });
    return new Blob([dump]);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#call({ op: 'close' });
    this.#closed = true;
    await this.#worker.terminate();
  }
}
