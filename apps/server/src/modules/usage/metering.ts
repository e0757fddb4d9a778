import { inArray, lt, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { TPrice } from '@air/shared/schemas/price';
import { chargedPicos } from '../money/service';
import type { TLog } from '../../core/services';
import type { TBatchStatement, TDatabase, TDb } from '../../db/client';
import { meterBatches } from '../../db/schema/meter-batches';
import { accountNames } from '../membership/service';
import { UsageJournal, type TJournalRow, type TJournalStart } from './journal';

/**
 * A metered call. A call with a valid key to a route that does not exist (or that the key may not
 * call) is metered too, with no endpoint nor provider: it shows in the caller's request log and 4xx
 * count. Such a row is never journalled (nothing was forwarded; it is not billed).
 */
export type TUsageRow = Omit<TJournalRow, 'endpointId' | 'providerAccountId'> & {
  endpointId: string | null;
  providerAccountId: string | null;
};

export interface TMeterOptions {
  flushIntervalMs?: number;
  batchSize?: number;
  /** Where the usage journal lives (one folder per instance); none: rows live in memory only. */
  journalDir?: string;
  /**
   * The embedded database's one-message transaction (TDatabase.batch): batches go in as COPY
   * text, which costs the database thread about half of what the arrays of the INSERT do.
   */
  batch?: TDatabase['batch'];
}

interface TBatch {
  rows: TUsageRow[];
  /** The journal segment holding these rows, committed with them and then deleted. */
  segment: string | null;
}

const RETRY_MIN_MS = 500;
const CLOSE_WAIT_MS = 2000;
const RETRY_MAX_MS = 15_000;

/**
 * Usage rows are appended to an array on the request path and written to usage_events in batches
 * of one INSERT (every second, or at once when BATCH_ROWS are waiting, and on close). Each call
 * is journalled first (journal.ts) when it is forwarded and when it ends, so rows a `kill -9`
 * caught in memory are replayed at the next start (`open`). A batch is committed in one
 * transaction with its journal segment's name; a failed batch is retried (with backoff, in order)
 * until the database takes it, and the journal keeps it across a restart meanwhile.
 */
export class Meter {
  private buffer: TUsageRow[] = [];
  private readonly timer: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();
  private readonly batchSize: number;
  private queuedRows = 0;
  private readonly journal: UsageJournal | null;
  private closing = false;
  /** The embedded database's staging table exists (copyStatements). */
  private staged = false;
  /** Rows waiting for their charge to be settled (recordWhen). */
  private readonly settling = new Set<Promise<void>>();

  constructor(
    private readonly db: TDb,
    private readonly log: TLog,
    private readonly options: TMeterOptions = {},
  ) {
    this.batchSize = options.batchSize ?? BATCH_ROWS;
    this.journal = options.journalDir ? new UsageJournal(options.journalDir) : null;
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 1000);
    this.timer.unref();
  }

  /** Replays what an earlier run journalled but did not commit, then opens the journal. */
  async open(): Promise<void> {
    const dir = this.options.journalDir;
    if (!dir || !this.journal) return;
    const segments = UsageJournal.recover(dir);
    if (segments.length > 0) {
      const committed = new Set(
        (
          await this.db
            .select({ segment: meterBatches.segment })
            .from(meterBatches)
            .where(
              inArray(
                meterBatches.segment,
                segments.map((segment) => segment.name),
              ),
            )
        ).map((row) => row.segment),
      );
      const replayed = segments.filter((segment) => !committed.has(segment.name));
      const rows = replayed.flatMap((segment) => segment.rows);
      if (replayed.length > 0) {
        await this.db.transaction(async (tx) => {
          await insertInStatements(tx, rows);
          await tx.insert(meterBatches).values(replayed.map((segment) => ({ segment: segment.name })));
        });
        this.log.info(
          { rows: rows.length, segments: replayed.length },
          'gateway: usage replayed from the journal',
        );
      }
      for (const segment of segments) UsageJournal.remove(dir, segment.name);
    }
    // Names older than a week can no longer be on disk (a segment lives about a second).
    await this.db
      .delete(meterBatches)
      .where(lt(meterBatches.committedAt, new Date(Date.now() - 7 * 86_400_000)));
    this.journal.open();
  }

  /** A call is being forwarded: journalled now, so it is metered even if this process dies. */
  begin(call: TJournalStart): number {
    return this.journal ? this.journal.start(call, Date.now()) : 0;
  }

  /** The caller is about to see the first byte of call `callId`'s answer: its start line is written. */
  beforeAnswer(callId: number): void {
    this.journal?.ensureStarted(callId);
  }

  record(row: TUsageRow, callId = 0): void {
    if (this.journal && callId > 0) this.journal.end(callId, row);
    this.buffer.push(row);
    if (this.buffer.length >= this.batchSize) void this.flush();
  }

  /**
   * Records the row once it is known: a call whose charge the spend limit settles in Redis. A
   * flush waits for it, so a report written after the call answered includes it.
   */
  recordWhen(row: Promise<TUsageRow>, callId = 0): void {
    const pending: Promise<void> = row
      .then((known) => this.record(known, callId))
      .finally(() => this.settling.delete(pending));
    this.settling.add(pending);
  }

  /** Writes what is buffered; resolves when this and earlier batches are written. */
  flush(): Promise<void> {
    // The rows settling now, not those that start meanwhile: a busy gateway still flushes.
    if (this.settling.size > 0) return Promise.all([...this.settling]).then(() => this.flushBuffer());
    return this.flushBuffer();
  }

  private flushBuffer(): Promise<void> {
    if (this.buffer.length === 0) return this.writing;
    const batch: TBatch = { rows: this.buffer, segment: this.journal ? this.journal.rotate() : null };
    this.buffer = [];
    if (this.queuedRows + batch.rows.length > MAX_QUEUED_ROWS) {
      // The database is not keeping up: the rows stay in the journal (replayed at the next start)
      // rather than growing memory without bound.
      this.log.error(
        { rows: batch.rows.length, segment: batch.segment },
        'gateway: usage rows left in the journal, the database is not keeping up',
      );
      return this.writing;
    }
    this.queuedRows += batch.rows.length;
    // Batches are written one after another so rows land in call order.
    this.writing = this.writing
      .then(() => this.writeWithRetry(batch))
      .finally(() => (this.queuedRows -= batch.rows.length));
    return this.writing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.closing = true;
    // Calls cut at the shutdown deadline (core/shutdown.ts) end a moment after their connections
    // closed, when the upstream request is aborted: their rows are waited for, briefly. A call
    // still unfinished stays in the journal and is replayed at the next start.
    for (let waited = 0; (this.journal?.unfinished ?? 0) > 0 && waited < CLOSE_WAIT_MS; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    // Rows recorded while a batch was being written are flushed too.
    do await this.flush();
    while (this.buffer.length > 0);
    this.journal?.close(this.queuedRows === 0);
  }

  private async writeWithRetry(batch: TBatch): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.write(batch);
        if (batch.segment) this.journal?.remove(batch.segment);
        return;
      } catch (error) {
        this.log.error(
          { err: error, rows: batch.rows.length, attempt },
          'gateway: usage batch not written, retrying',
        );
        // Closing: the journal keeps the rows for the next start.
        if (this.closing) return;
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** attempt)),
        );
      }
    }
  }

  private async write({ rows, segment }: TBatch): Promise<void> {
    if (this.options.batch) {
      await this.options.batch(copyStatements(this.db, rows, segment, !this.staged));
      // Created by a committed batch, the session's staging table stays.
      this.staged = true;
      return;
    }
    // Without a journal segment to record, one statement needs no transaction round trips.
    if (!segment) return void (await this.db.execute(insertStatement(this.db, rows)));
    await this.db.transaction(async (tx) => {
      await tx.execute(insertStatement(tx, rows));
      await tx.insert(meterBatches).values({ segment });
    });
  }
}

/** Writes usage rows outside the gateway's meter (the `seed-demo` command), in one transaction. */
export async function insertUsageRows(db: TDb, rows: TUsageRow[]): Promise<void> {
  await db.transaction((tx) => insertInStatements(tx, rows));
}

/** Any number of rows (a replayed journal, the demo's month) in statements of BATCH_ROWS. */
async function insertInStatements(db: TDb, rows: TUsageRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH_ROWS) {
    await db.execute(insertStatement(db, rows.slice(start, start + BATCH_ROWS)));
  }
}

/**
 * One INSERT … SELECT FROM unnest() with one array parameter per column: the statement is the same
 * size for 1 or 500 rows, so the database parses and plans ten parameters instead of thousands
 * (the embedded database spent most of a loaded gateway's CPU on the VALUES form). Rows of an
 * account closed since the call are left out: usage_events has no foreign key (it would fail the
 * whole batch, and every retry of it, for one closed account).
 */
function insertStatement(db: TDb, rows: TUsageRow[]) {
  // sql.param: one array parameter (a bare array in the template would expand into a list).
  const column = <K extends keyof TUsageRow>(name: K) => sql.param(rows.map((row) => row[name]));
  const priced = rows.map((row) => (chargedPicos(row) === null ? null : row.price!));
  const pricePart = (part: keyof TPrice) => sql.param(priced.map((price) => (price ? price[part] : null)));
  return sql`insert into usage_events
    (caller_account_id, key_id, endpoint_id, provider_account_id, status, latency_ms, prompt_tokens, completion_tokens, tokens_estimated, streamed, error_code, attempts, cache_hit,
     cost_picos, price_per_call, price_per_1m_input, price_per_1m_output, tool, bytes, created_at, first_byte_ms,
     client_format, upstream_format, requested_endpoint_id, admitted_at)
    select * from unnest(
      ${column('callerAccountId')}::uuid[], ${column('keyId')}::uuid[], ${column('endpointId')}::uuid[],
      ${column('providerAccountId')}::uuid[], ${column('status')}::int[], ${column('latencyMs')}::int[],
      ${column('promptTokens')}::int[], ${column('completionTokens')}::int[], ${column('tokensEstimated')}::bool[],
      ${column('streamed')}::bool[], ${column('errorCode')}::text[],
      ${column('attempts')}::smallint[], ${column('cacheHit')}::bool[],
      ${sql.param(rows.map(chargedPicos))}::bigint[], ${pricePart('per_call')}::int[],
      ${pricePart('per_1m_input_tokens')}::int[], ${pricePart('per_1m_output_tokens')}::int[],
      ${sql.param(rows.map((row) => row.tool ?? null))}::text[], ${sql.param(rows.map((row) => row.bytes ?? null))}::int[],
      ${sql.param(rows.map((row) => row.createdAt.toISOString()))}::timestamptz[],
      ${sql.param(rows.map((row) => row.firstByteMs ?? null))}::int[],
      ${sql.param(rows.map((row) => row.clientFormat ?? null))}::text[],
      ${sql.param(rows.map((row) => row.upstreamFormat ?? null))}::text[],
      ${sql.param(rows.map((row) => row.requestedEndpointId ?? null))}::uuid[],
      ${sql.param(rows.map((row) => row.admittedAt?.toISOString() ?? null))}::timestamptz[]
    ) as u(caller_account_id)
    where exists (select 1 from ${accountNames(db, 'a')} where a.id = u.caller_account_id)`;
}

const dialect = new PgDialect();
/** The staging table a COPY fills; emptied by every commit. */
const STAGING = `create temp table if not exists usage_staging (
  caller_account_id uuid, key_id uuid, endpoint_id uuid, provider_account_id uuid, status int,
  latency_ms int, prompt_tokens int, completion_tokens int, tokens_estimated bool, streamed bool,
  error_code text, attempts smallint, cache_hit bool, cost_picos bigint, price_per_call int,
  price_per_1m_input int, price_per_1m_output int, tool text, bytes int, created_ms bigint,
  first_byte_ms int, client_format text, upstream_format text, requested_endpoint_id uuid,
  admitted_ms bigint) on commit delete rows`;
const COLUMNS = `caller_account_id, key_id, endpoint_id, provider_account_id, status, latency_ms,
  prompt_tokens, completion_tokens, tokens_estimated, streamed, error_code, attempts, cache_hit,
  cost_picos, price_per_call, price_per_1m_input, price_per_1m_output, tool, bytes, first_byte_ms,
  client_format, upstream_format, requested_endpoint_id`;

/** A COPY text field: null is \N; backslash, tab and line breaks escaped. */
function field(value: string | number | boolean | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return String(value);
  return value.replace(/[\\\t\n\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  );
}

/**
 * A batch for the embedded database, as one transaction in one message: the rows as COPY text
 * into a staging table (PostgreSQL's cheapest way in: no array parameters to serialise and parse),
 * then the same INSERT … SELECT as on PostgreSQL (rows of a closed account left out, the roll-up
 * trigger fired once), and the journal segment's name.
 */
function copyStatements(db: TDb, rows: TUsageRow[], segment: string | null, createStaging: boolean) {
  let text = '';
  for (const row of rows) {
    const cost = chargedPicos(row);
    const price = cost === null ? null : row.price!;
    text += `${row.callerAccountId}\t${field(row.keyId)}\t${field(row.endpointId)}\t${field(row.providerAccountId)}\t${row.status}\t${row.latencyMs}\t${field(row.promptTokens)}\t${field(row.completionTokens)}\t${row.tokensEstimated ? 't' : 'f'}\t${row.streamed ? 't' : 'f'}\t${field(row.errorCode)}\t${row.attempts}\t${row.cacheHit ? 't' : 'f'}\t${field(cost)}\t${field(price ? price.per_call : null)}\t${field(price ? price.per_1m_input_tokens : null)}\t${field(price ? price.per_1m_output_tokens : null)}\t${field(row.tool ?? null)}\t${field(row.bytes ?? null)}\t${row.createdAt.getTime()}\t${field(row.firstByteMs ?? null)}\t${field(row.clientFormat ?? null)}\t${field(row.upstreamFormat ?? null)}\t${field(row.requestedEndpointId ?? null)}\t${field(row.admittedAt?.getTime() ?? null)}\n`;
  }
  const insert =
    dialect.sqlToQuery(sql`insert into usage_events (${sql.raw(COLUMNS)}, created_at, admitted_at)
    select ${sql.raw(COLUMNS)}, timestamptz 'epoch' + created_ms * interval '1 millisecond',
      timestamptz 'epoch' + admitted_ms * interval '1 millisecond'
    from usage_staging u
    where exists (select 1 from ${accountNames(db, 'a')} where a.id = u.caller_account_id)`);
  const statements: TBatchStatement[] = [
    ...(createStaging ? [{ sql: STAGING }] : []),
    { sql: `copy usage_staging from '/dev/blob'`, copyText: text },
    insert,
  ];
  if (segment) statements.push(db.insert(meterBatches).values({ segment }).toSQL());
  return statements;
}

/**
 * Rows a batch holds at most, and so a statement: at 1,000-5,000 calls a second, one flush and one
 * INSERT a second. Each statement costs the event loop its parameters (built here, copied to the
 * embedded database's thread) and the database a burst of work beside the gateway; five 100-row
 * statements at every 500 rows made the flushes the main cause of the gateway's p99 at
 * concurrency 1 on the embedded database (decision 020).
 */
const BATCH_ROWS = 5000;
/** Rows waiting for the database beyond which new batches are dropped (and logged). */
const MAX_QUEUED_ROWS = 200_000;
