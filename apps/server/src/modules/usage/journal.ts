import {
  closeSync,
  fdatasync,
  close as closeFd,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  unlink,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import type { TUpstreamFormat } from '@air/shared/schemas/aiendpoint';
import type { TPrice } from '@air/shared/schemas/price';

/** What the journal knows of a call when it is forwarded. */
export interface TJournalStart {
  callerAccountId: string;
  keyId: string;
  endpointId: string;
  providerAccountId: string;
}

/** How a call ended. */
export interface TJournalEnd {
  status: number;
  latencyMs: number;
  promptTokens: number | null;
  completionTokens: number | null;
  tokensEstimated: boolean;
  /** The answer was a `text/event-stream`. */
  streamed: boolean;
  /** The gateway's own error code (or client_closed); null when the upstream answered. */
  errorCode: string | null;
  /** Upstream calls made for the caller's request (retries and fallbacks included); 0 on a cache hit. */
  attempts: number;
  cacheHit: boolean;
  /**
   * The marketplace price the call is charged at (the route's when it was called), or null when
   * it is free to this caller (an unpriced route, the provider's own call). Whether it costs
   * anything is decided from it when the row is stored (`chargedPicos`, modules/money).
   */
  price?: TPrice | null;
  /**
   * The most the call may be charged (picos), when the caller's spend limit capped it
   * (gateway/spend.ts); absent: its cost in full.
   */
  costCapPicos?: number | null;
  /**
   * A streamed answer's first body bytes to the caller, ms after the request came in (decision
   * 057); absent otherwise. Not journalled: a replayed call has no time to first byte.
   */
  firstByteMs?: number | null;
  /**
   * When the call was counted against the quota (decision 049); absent for a refused call. Not
   * journalled: a replayed call's counter seeds read its start instead.
   */
  admittedAt?: Date | null;
  /** An MCP tool call's tool (contract 6d); absent on every other call. */
  tool?: string | null;
  /** An MCP tool call's answer size in bytes; absent on every other call. */
  bytes?: number | null;
  /** The API the caller spoke (decision 058); absent or null on an MCP call. */
  clientFormat?: TUpstreamFormat | null;
  /** The API of the upstream that answered; absent or null when none did (a cache hit, a refusal). */
  upstreamFormat?: TUpstreamFormat | null;
  /** A fallback's call: the endpoint the caller asked for; absent or null otherwise. */
  requestedEndpointId?: string | null;
  createdAt: Date;
}

/** The row: the route that answered may be a fallback, so its endpoint and provider are the end's. */
export type TJournalRow = TJournalStart & TJournalEnd;

/** One segment left by an earlier run, read back at start. */
export interface TJournalSegment {
  name: string;
  rows: TJournalRow[];
}

const EXTENSION = '.journal';
/** How often written lines are forced to the disk (a process kill needs none of it; a power cut does). */
const FSYNC_INTERVAL_MS = 100;
/** A call the journal saw start but not end (the process died while it was in flight). */
const UNFINISHED_STATUS = 499;

/** The last field of a priced end line written in micros and picos (decision 043). */
const MICROS_MARK = 'u';
/** Old lines (before decision 043) hold minor units and millionths of one: x 10,000. */
const unitsOf = (f: string[]) => (f.length >= 19 && f[18] === MICROS_MARK ? 1 : 10_000);
/** End lines by their number of fields, oldest first: each format added fields at the end. */
const END_LENGTHS = [8, 10, 14, 17, 18, 19, 21, 24];
const FORMATS: readonly string[] = ['openai', 'anthropic', 'gemini'] satisfies TUpstreamFormat[];
/** A journalled format, or null for an empty or unknown field. */
const formatOf = (field: string | undefined) =>
  field !== undefined && FORMATS.includes(field) ? (field as TUpstreamFormat) : null;

/**
 * An append-only file of the calls this instance forwards, so a `kill -9` loses none of them:
 * a start line (`S`) when a call is forwarded, an end line (`E`) when it completes. Lines are
 * collected during one turn of the event loop and written with one `write` (and an `fdatasync`
 * behind it, off the loop); before the first byte of an answer goes to the caller the gateway
 * calls `ensureStarted`, which writes at once if that call's start line is still collected, so a
 * call a caller saw succeed is always in the file (the kernel keeps what was written when the
 * process is killed).
 *
 * The file is cut into segments: `rotate()` starts a new one (carrying the start lines of calls
 * still in flight) and hands back the old one's name, which the meter deletes once its rows are
 * committed together with that name in meter_batches. At start the segments left behind are read
 * back (`recover`): a segment whose name is in meter_batches was committed already; the others
 * become usage rows, a call with a start but no end as status 499.
 */
export class UsageJournal {
  private fd = -1;
  private segment = '';
  private pending = '';
  private scheduled = false;
  private syncTimer: NodeJS.Timeout | null = null;
  private nextId = 1;
  /** Calls up to this id have their start line written. */
  private writtenThrough = 0;
  private segmentSeq = 0;
  /** The start lines of calls in flight, carried into each new segment. */
  private readonly inFlight = new Map<number, string>();
  private readonly run = Date.now().toString(36).padStart(10, '0');
  private readonly writeScheduled = () => {
    this.scheduled = false;
    this.sync();
  };
  private readonly scheduleWrite = () => setImmediate(this.writeScheduled);

  constructor(private readonly dir: string) {}

  /** Segments left by earlier runs (call before `open`). */
  static recover(dir: string): TJournalSegment[] {
    mkdirSync(dir, { recursive: true });
    const names = readdirSync(dir)
      .filter((name) => name.endsWith(EXTENSION))
      .sort();
    const segments: TJournalSegment[] = [];
    // Call ids are unique within one run; a run's calls appear in several of its segments
    // (carried start lines), so each call becomes one row per run.
    const byRun = new Map<string, string[]>();
    for (const name of names) {
      const run = name.slice(0, name.indexOf('-'));
      const list = byRun.get(run) ?? [];
      list.push(name);
      byRun.set(run, list);
    }
    for (const list of byRun.values()) {
      const starts = new Map<string, { segment: number; start: TJournalStart; at: number }>();
      const ended = new Set<string>();
      const rowsBySegment: TJournalRow[][] = list.map(() => []);
      list.forEach((name, index) => {
        for (const line of readFileSync(path.join(dir, name), 'utf8').split('\n')) {
          const f = line.split('\t');
          if (f[0] === 'S' && f.length === 7) {
            if (!starts.has(f[1]!)) {
              starts.set(f[1]!, {
                segment: index,
                at: Number(f[6]),
                start: { callerAccountId: f[2]!, keyId: f[3]!, endpointId: f[4]!, providerAccountId: f[5]! },
              });
            }
          } else if (f[0] === 'E' && END_LENGTHS.includes(f.length) && !ended.has(f[1]!)) {
            const started = starts.get(f[1]!);
            if (!started) continue;
            ended.add(f[1]!);
            rowsBySegment[index]!.push({
              ...started.start,
              status: Number(f[2]),
              latencyMs: Number(f[3]),
              promptTokens: f[4] === '' ? null : Number(f[4]),
              completionTokens: f[5] === '' ? null : Number(f[5]),
              tokensEstimated: f[6] === '1',
              createdAt: new Date(Number(f[7])),
              // Written since streamed and error_code were stored (older lines carry 8 fields).
              streamed: f[8] === '1',
              errorCode: f[9] ? f[9] : null,
              // Written since routing (older lines carry 10 fields): attempts, cache hit, and the
              // endpoint that answered (a fallback's).
              attempts: f.length >= 14 ? Number(f[10]) : 1,
              cacheHit: f[11] === '1',
              ...(f.length >= 14 && f[12] ? { endpointId: f[12], providerAccountId: f[13]! } : {}),
              // A priced call's price (17 fields): spend survives a kill -9 like the call itself.
              // Lines of 19 fields are in micros and picos (decision 043); older ones in minor
              // units and millionths of one, both 10,000 times smaller.
              // An MCP tool call's line (21 fields) has the price fields empty when it is free.
              price:
                f.length >= 17 && f[14] !== ''
                  ? {
                      per_call: Number(f[14]) * unitsOf(f),
                      per_1m_input_tokens: Number(f[15]) * unitsOf(f),
                      per_1m_output_tokens: Number(f[16]) * unitsOf(f),
                    }
                  : null,
              // The spend limit's cap on its charge (18 or 19 fields).
              ...(f.length >= 18 && f[17] !== '' ? { costCapPicos: Number(f[17]) * unitsOf(f) } : {}),
              // An MCP tool call's tool and answer bytes (21 fields, contract 6d; empty on a
              // 24-field line of another call).
              ...(f.length >= 21 && f[19] !== '' ? { tool: f[19]!, bytes: Number(f[20]) } : {}),
              // The client's and the upstream's formats and a fallback's asked endpoint (24
              // fields, decision 058); older lines have none: unknown, null.
              ...(f.length === 24
                ? {
                    clientFormat: formatOf(f[21]),
                    upstreamFormat: formatOf(f[22]),
                    requestedEndpointId: f[23] ? f[23] : null,
                  }
                : {}),
            });
          }
          // Anything else is a line cut short by the kill: skipped.
        }
      });
      // Unfinished calls land in the last segment of their run that carried them (the latest).
      for (const [id, started] of starts) {
        if (ended.has(id)) continue;
        rowsBySegment[list.length - 1]!.push({
          ...started.start,
          status: UNFINISHED_STATUS,
          latencyMs: 0,
          promptTokens: null,
          completionTokens: null,
          tokensEstimated: false,
          streamed: false,
          // The process stopped while the call was in flight: how it ended is unknown.
          errorCode: 'unfinished',
          attempts: 1,
          cacheHit: false,
          createdAt: new Date(started.at),
        });
      }
      list.forEach((name, index) => segments.push({ name, rows: rowsBySegment[index]! }));
    }
    return segments;
  }

  static remove(dir: string, name: string): void {
    try {
      unlinkSync(path.join(dir, name));
    } catch {
      // Already gone.
    }
  }

  open(): void {
    mkdirSync(this.dir, { recursive: true });
    this.openSegment();
  }

  /** Calls journalled as started and not yet ended. */
  get unfinished(): number {
    return this.inFlight.size;
  }

  /** Journals the start of a forwarded call; the id is handed back to `end`. */
  start(call: TJournalStart, at: number): number {
    const id = this.nextId++;
    const line = `S\t${id}\t${call.callerAccountId}\t${call.keyId}\t${call.endpointId}\t${call.providerAccountId}\t${at}\n`;
    this.inFlight.set(id, line);
    this.append(line);
    return id;
  }

  end(
    id: number,
    row: TJournalEnd & { endpointId?: string | null; providerAccountId?: string | null },
  ): void {
    this.inFlight.delete(id);
    const price = row.price;
    // An MCP tool call's line always carries the price fields (empty when free), then its tool;
    // a line with formats (decision 058) carries both before them, empty where they have none.
    const tool = row.tool == null ? null : row.tool;
    const client = row.clientFormat ?? null;
    const priced =
      price || tool !== null || client !== null
        ? `\t${price?.per_call ?? ''}\t${price?.per_1m_input_tokens ?? ''}\t${price?.per_1m_output_tokens ?? ''}\t${row.costCapPicos ?? ''}\t${MICROS_MARK}`
        : '';
    let toolPart = tool === null ? '' : `\t${tool}\t${row.bytes ?? 0}`;
    if (client !== null) {
      if (tool === null) toolPart = '\t\t';
      toolPart += `\t${client}\t${row.upstreamFormat ?? ''}\t${row.requestedEndpointId ?? ''}`;
    }
    this.append(
      `E\t${id}\t${row.status}\t${row.latencyMs}\t${row.promptTokens ?? ''}\t${row.completionTokens ?? ''}\t${row.tokensEstimated ? 1 : 0}\t${row.createdAt.getTime()}\t${row.streamed ? 1 : 0}\t${row.errorCode ?? ''}\t${row.attempts}\t${row.cacheHit ? 1 : 0}\t${row.endpointId ?? ''}\t${row.providerAccountId ?? ''}${priced}${toolPart}\n`,
    );
  }

  /**
   * Call `id`'s answer is about to go out: its start line is written now if it is still collected.
   * It seldom is: the upstream answers in a later turn of the event loop than the one that forwarded
   * the call, after that turn's lines were written. A write per answer cost 4-5 % of the event
   * loop's time at concurrency 64 (decision 020).
   */
  ensureStarted(id: number): void {
    if (id > this.writtenThrough) this.sync();
  }

  /** Writes what is collected now. */
  sync(): void {
    if (this.pending === '' || this.fd < 0) return;
    const text = this.pending;
    this.pending = '';
    writeSync(this.fd, text);
    this.writtenThrough = this.nextId - 1;
    if (!this.syncTimer) {
      // One fdatasync per interval at most: syncing after every write made the next writes wait
      // on the flush (measured: +0.2 ms p50 at concurrency 1).
      const fd = this.fd;
      this.syncTimer = setTimeout(() => fdatasync(fd, () => (this.syncTimer = null)), FSYNC_INTERVAL_MS);
      this.syncTimer.unref();
    }
  }

  /** Starts a new segment and answers the finished one's name. */
  rotate(): string {
    this.sync();
    const finished = this.segment;
    const fd = this.fd;
    // The finished segment gets its own sync below; the next write schedules one for the new one.
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.syncTimer = null;
    this.openSegment();
    let carried = '';
    for (const line of this.inFlight.values()) carried += line;
    if (carried !== '') writeSync(this.fd, carried);
    // The finished segment is synced and closed off the event loop.
    fdatasync(fd, () => closeFd(fd, () => {}));
    return finished;
  }

  /** Deletes a segment whose rows are committed (off the event loop: an unlink took 0.3-0.7 ms). */
  remove(name: string): void {
    unlink(path.join(this.dir, name), () => {});
  }

  /** Closes the file; a segment holding nothing to replay (`empty`, no call in flight) is deleted. */
  close(empty: boolean): void {
    this.sync();
    if (this.syncTimer) clearTimeout(this.syncTimer);
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    if (empty && this.inFlight.size === 0) UsageJournal.remove(this.dir, this.segment);
  }

  private append(line: string): void {
    this.pending += line;
    if (!this.scheduled) {
      this.scheduled = true;
      // Queued once the current callback has returned, so behind the upstream request that undici
      // (7.x) writes from an Immediate on a reused socket: the write waits for the request, not
      // the request for the write.
      process.nextTick(this.scheduleWrite);
    }
  }

  private openSegment(): void {
    this.segmentSeq++;
    this.segment = `${this.run}-${String(this.segmentSeq).padStart(10, '0')}${EXTENSION}`;
    this.fd = openSync(path.join(this.dir, this.segment), 'a');
  }
}
