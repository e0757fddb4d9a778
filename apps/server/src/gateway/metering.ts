import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { TDb } from '../db/client';

export interface TUsageRow {
  callerAccountId: string;
  keyId: string;
  endpointId: string;
  providerAccountId: string;
  status: number;
  latencyMs: number;
  promptTokens: number | null;
  completionTokens: number | null;
  createdAt: Date;
}

export interface TMeterOptions {
  flushIntervalMs?: number;
  batchSize?: number;
  /** Rows per INSERT statement (see ROWS_PER_STATEMENT). */
  rowsPerStatement?: number;
}

/**
 * Usage rows are appended to an array on the request path and written to usage_events in batches
 * (every second, or at once when a batch is full, and on close). A failed batch is logged and
 * dropped: metering must never take the gateway down or hold memory without bound.
 */
export class Meter {
  private buffer: TUsageRow[] = [];
  private readonly timer: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();
  private readonly batchSize: number;
  private readonly rowsPerStatement: number;
  private queuedRows = 0;

  constructor(
    private readonly db: TDb,
    private readonly log: FastifyBaseLogger,
    options: TMeterOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.rowsPerStatement = options.rowsPerStatement ?? ROWS_PER_STATEMENT.postgres;
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 1000);
    this.timer.unref();
  }

  record(row: TUsageRow): void {
    this.buffer.push(row);
    if (this.buffer.length >= this.batchSize) void this.flush();
  }

  /** Writes what is buffered; resolves when this and earlier batches are written (or logged). */
  flush(): Promise<void> {
    if (this.buffer.length === 0) return this.writing;
    const batch = this.buffer;
    this.buffer = [];
    if (this.queuedRows + batch.length > MAX_QUEUED_ROWS) {
      // The database is not keeping up: shed rows rather than grow memory without bound.
      this.log.error({ rows: batch.length }, 'gateway: usage rows dropped, the database is not keeping up');
      return this.writing;
    }
    this.queuedRows += batch.length;
    // Batches are written one after another so rows land in call order.
    this.writing = this.writing
      .then(() => this.write(batch))
      .finally(() => (this.queuedRows -= batch.length));
    return this.writing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async write(batch: TUsageRow[]): Promise<void> {
    const step = this.rowsPerStatement;
    for (let start = 0; start < batch.length; start += step) {
      const rows = batch.slice(start, start + step);
      try {
        await this.db.execute(insertStatement(rows));
      } catch (error) {
        this.log.error({ err: error, rows: rows.length }, 'gateway: usage batch not written');
      }
      // The embedded database runs on this thread: let waiting calls through between statements.
      if (start + step < batch.length) await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

/**
 * One INSERT … SELECT FROM unnest() with one array parameter per column: the statement is the same
 * size for 1 or 500 rows, so the database parses and plans ten parameters instead of thousands
 * (the embedded database spent most of a loaded gateway's CPU on the VALUES form).
 */
function insertStatement(rows: TUsageRow[]) {
  // sql.param: one array parameter (a bare array in the template would expand into a list).
  const column = <K extends keyof TUsageRow>(name: K) => sql.param(rows.map((row) => row[name]));
  return sql`insert into usage_events
    (caller_account_id, key_id, endpoint_id, provider_account_id, status, latency_ms, prompt_tokens, completion_tokens, created_at)
    select * from unnest(
      ${column('callerAccountId')}::uuid[], ${column('keyId')}::uuid[], ${column('endpointId')}::uuid[],
      ${column('providerAccountId')}::uuid[], ${column('status')}::int[], ${column('latencyMs')}::int[],
      ${column('promptTokens')}::int[], ${column('completionTokens')}::int[],
      ${sql.param(rows.map((row) => row.createdAt.toISOString()))}::timestamptz[]
    )`;
}

/**
 * Rows per INSERT, by driver. The embedded database executes on the event loop (30-45 µs a row
 * here): a 500-row statement would stall every call in flight for 15-25 ms, so it gets 100-row
 * statements (~4 ms) with calls let through in between. Smaller ones cost more in total (each is
 * planned anew): 20-row statements fell to 41 % of the floor's throughput at c=64 (npm run bench).
 * PostgreSQL works in its own process, so big statements cost the gateway nothing.
 */
export const ROWS_PER_STATEMENT = { pglite: 100, postgres: 500 } as const;
/** Rows waiting for the database beyond which new batches are dropped (and logged). */
const MAX_QUEUED_ROWS = 200_000;

const USAGE_MARKER = Buffer.from('"usage"');
const PROMPT = /"prompt_tokens"\s*:\s*(\d+)/;
const COMPLETION = /"completion_tokens"\s*:\s*(\d+)/;

/**
 * Token counts from an OpenAI-style JSON answer, without parsing the whole body: `usage` comes
 * last in OpenAI's answers, so only the text after its last occurrence is read.
 */
export function tokensFrom(body: Buffer): { prompt: number | null; completion: number | null } {
  const at = body.lastIndexOf(USAGE_MARKER);
  if (at < 0) return { prompt: null, completion: null };
  const tail = body.toString('utf8', at, Math.min(body.length, at + 512));
  const prompt = PROMPT.exec(tail);
  const completion = COMPLETION.exec(tail);
  return { prompt: toInt(prompt?.[1]), completion: toInt(completion?.[1]) };
}

/** A count that fits the integer column, else null (a bogus figure must not sink the batch). */
function toInt(digits: string | undefined): number | null {
  if (digits === undefined) return null;
  const value = Number(digits);
  return value <= 2_147_483_647 ? value : null;
}
