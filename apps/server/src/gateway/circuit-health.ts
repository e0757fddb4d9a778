import { createHash } from 'node:crypto';

export type TCircuitState = 'closed' | 'open' | 'probing';

/** Why a circuit is open for everyone (contract 6a), shown to the owner. */
export type TOpenReason = 'connection' | 'owner' | 'callers';

/**
 * Who a failure counts against: everyone when it cannot depend on the body (`connection`) or the
 * owner sent it (`owner`); else only the caller who sent it (`caller`), unless callers of at least
 * two accounts fail in the same streak.
 */
export type TFailureSource = 'connection' | 'owner' | 'caller';

/** Counts per clock minute over the last hour (60 buckets, reused as the minutes turn). */
export class HourCounts {
  private readonly counts = new Uint32Array(60);
  private readonly minutes = new Float64Array(60).fill(-1);

  add(now: number): void {
    const minute = Math.floor(now / 60_000);
    const slot = minute % 60;
    if (this.minutes[slot] !== minute) {
      this.minutes[slot] = minute;
      this.counts[slot] = 0;
    }
    this.counts[slot]!++;
  }

  total(now: number): number {
    const minute = Math.floor(now / 60_000);
    let sum = 0;
    for (let slot = 0; slot < 60; slot++) if (minute - this.minutes[slot]! < 60) sum += this.counts[slot]!;
    return sum;
  }
}

/**
 * The circuit of one upstream of one endpoint (its key: `circuitKeyOf`) and its last hour, as
 * this instance knows them.
 */
export interface TUpstreamHealth {
  readonly key: string;
  /** Metric labels: the route that last called it, and the upstream's host (never its path or query). */
  route: string;
  host: string;
  /** Failures in a row (0 on the fast path: nothing to reset on a success). */
  failuresInRow: number;
  /** The current streak by source (this instance's, or the shared counts when Redis answered). */
  connection: number;
  owner: number;
  callerFailures: number;
  distinctCallers: number;
  /** The callers of the streak this instance saw (at most MAX_STREAK_CALLERS), or null. */
  streakCallers: Set<string> | null;
  /** 0 while closed for everyone; else when the cooldown ends (ms since the epoch). */
  openUntil: number;
  /** A probe is in flight (here or, with Redis, on another instance) until this time. */
  probeUntil: number;
  /** Why it is open for everyone (null while closed), and how many caller accounts opened it. */
  reason: TOpenReason | null;
  reasonCallers: number;
  /** Callers with their own streak or open circuit on it (0 on the fast path). */
  callers: number;
  lastFailureAt: number;
  readonly attempts: HourCounts;
  readonly failures: HourCounts;
}

/** A streak remembers this many distinct callers: past two the count only says "several". */
export const MAX_STREAK_CALLERS = 100;

export function newHealth(key: string, route: string, host: string): TUpstreamHealth {
  return {
    key,
    route,
    host,
    failuresInRow: 0,
    connection: 0,
    owner: 0,
    callerFailures: 0,
    distinctCallers: 0,
    streakCallers: null,
    openUntil: 0,
    probeUntil: 0,
    reason: null,
    reasonCallers: 0,
    callers: 0,
    lastFailureAt: 0,
    attempts: new HourCounts(),
    failures: new HourCounts(),
  };
}

/** The streak is over (a success, or the circuit opened): counting starts again. */
export function resetStreak(health: TUpstreamHealth): void {
  health.failuresInRow = 0;
  health.connection = 0;
  health.owner = 0;
  health.callerFailures = 0;
  health.distinctCallers = 0;
  health.streakCallers = null;
}

/**
 * Whether a streak opens the circuit for everyone (contract 6a): connection failures and the
 * owner's count; other callers' failures count only once at least two accounts are among them.
 * Answers the reason, or null while it stays closed.
 */
export function openingReason(health: TUpstreamHealth, threshold: number): TOpenReason | null {
  const fromCallers = health.distinctCallers >= 2 ? health.callerFailures : 0;
  if (health.connection + health.owner + fromCallers < threshold) return null;
  if (fromCallers > 0 && fromCallers >= health.connection && fromCallers >= health.owner) return 'callers';
  return health.connection >= health.owner ? 'connection' : 'owner';
}

/**
 * The circuit's name for an upstream of an endpoint: the endpoint id and a hash of the URL, so two
 * endpoints on one URL keep their own circuits and no URL (nor a secret in its query) is a Redis
 * key or a change-bus message.
 */
export function circuitKeyOf(endpointId: string, url: string): string {
  return `${endpointId}:${createHash('sha256').update(url).digest('hex').slice(0, 16)}`;
}
