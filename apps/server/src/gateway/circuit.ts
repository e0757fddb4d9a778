import type { FastifyBaseLogger } from 'fastify';
import type { TChange } from '../lib/change-bus';
import {
  MAX_STREAK_CALLERS,
  newHealth,
  openingReason,
  resetStreak,
  type TCircuitState,
  type TFailureSource,
  type TOpenReason,
  type TUpstreamHealth,
} from './circuit-health';
import { CircuitStore, type TStreakCounts } from './circuit-store';

export { HourCounts, circuitKeyOf } from './circuit-health';
export type { TCircuitState, TFailureSource, TOpenReason, TUpstreamHealth } from './circuit-health';

/** `check` answers: take it, skip it (open, or another caller probes it), or probe it. */
export const CLOSED = 0;
export const SKIP = 1;
export const PROBE = 2;

/** Upstreams (of routed endpoints) the gateway keeps health for at most. */
const MAX_UPSTREAMS = 10_000;

/** Callers' own circuits kept at most, all upstreams together (the least recently failing go first). */
const MAX_CALLERS = 20_000;

/** One caller's own circuit on one upstream: opened by failures that may depend on what it sent. */
interface TCallerCircuit {
  readonly health: TUpstreamHealth;
  readonly caller: string;
  failuresInRow: number;
  lastFailureAt: number;
  /** 0 while closed; else when its cooldown ends. After it, the caller's calls go through again. */
  openUntil: number;
}

/** An upstream's circuit opened (until `until`) or closed (0), for everyone or for `caller` only. */
export type TCircuitChange = Extract<TChange, { kind: 'circuit' }>;

type TPending = Promise<void> | void;

function both(first: TPending, second: TPending): TPending {
  if (first instanceof Promise || second instanceof Promise)
    return Promise.all([first, second]).then(() => {});
}

/**
 * Circuit breakers per upstream of an endpoint (contract 6a, `config.circuit`): `failures` failed
 * calls in a row open the circuit for the cooldown; then one call probes it, and its success
 * closes it (a failed probe opens it for another cooldown). A success on a closed circuit with no
 * failures costs three property reads.
 *
 * No account opens a circuit for another: each endpoint has its own (keyed by endpoint and URL),
 * and a failure that may depend on what one caller sent opens the circuit for that caller only,
 * unless the owner's calls or callers of two accounts fail in the same streak. Failures that
 * cannot depend on the body count for everyone.
 *
 * With REDIS_URL, every instance shares them: failures are counted in Redis (expiring after a
 * quiet cooldown), openings and closings are broadcast on the change bus, and a probe is claimed
 * with SET NX so only one call of all instances probes. Redis unreachable: each instance keeps its
 * own circuits meanwhile.
 */
export class Circuits {
  private readonly byKey = new Map<string, TUpstreamHealth>();
  /** Callers' own circuits by `${circuit key} ${account id}`, oldest first. */
  private readonly byCaller = new Map<string, TCallerCircuit>();
  private readonly store: CircuitStore | null;

  constructor(
    private readonly options: {
      redisUrl: string | undefined;
      publish: (change: TChange) => Promise<void>;
      log: FastifyBaseLogger;
      now?: () => number;
      /** Told when this instance opens a circuit for everyone (the owner's webhook event); must not block. */
      onOpen?: (health: TUpstreamHealth, until: number) => void;
    },
  ) {
    this.store = options.redisUrl ? new CircuitStore(options.redisUrl) : null;
  }

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }

  /** The health of an upstream of a route (created on first use); its labels follow a renamed route. */
  health(target: { circuitKey: string; host: string }, route: string): TUpstreamHealth {
    const health = this.byKey.get(target.circuitKey) ?? this.create(target.circuitKey, route, target.host);
    if (health.route !== route) {
      health.route = route;
      health.host = target.host;
    }
    return health;
  }

  private create(key: string, route: string, host: string): TUpstreamHealth {
    if (this.byKey.size >= MAX_UPSTREAMS) {
      // Forget the oldest closed entry (Map keeps insertion order).
      for (const [name, entry] of this.byKey) {
        if (entry.openUntil === 0) {
          this.byKey.delete(name);
          break;
        }
      }
    }
    const health = newHealth(key, route, host);
    this.byKey.set(key, health);
    return health;
  }

  /** The known health of a circuit, without creating it. */
  peek(key: string): TUpstreamHealth | undefined {
    return this.byKey.get(key);
  }

  all(): IterableIterator<TUpstreamHealth> {
    return this.byKey.values();
  }

  /** The state for everyone (a caller's own circuit aside). */
  state(health: TUpstreamHealth, now = this.now()): TCircuitState {
    if (health.openUntil === 0) return 'closed';
    if (now < health.openUntil) return 'open';
    return health.probeUntil > now ? 'probing' : 'open';
  }

  /** What `caller`'s call does with this upstream now. */
  check(health: TUpstreamHealth, now: number, caller: string): number {
    if (health.openUntil === 0) return health.callers === 0 ? CLOSED : this.checkCaller(health, caller, now);
    if (now < health.openUntil || health.probeUntil > now) return SKIP;
    return health.callers !== 0 && this.checkCaller(health, caller, now) === SKIP ? SKIP : PROBE;
  }

  private checkCaller(health: TUpstreamHealth, caller: string, now: number): number {
    const own = this.callerCircuit(health, caller);
    return own !== undefined && now < own.openUntil ? SKIP : CLOSED;
  }

  private callerCircuit(health: TUpstreamHealth, caller: string): TCallerCircuit | undefined {
    const own = this.byCaller.get(`${health.key} ${caller}`);
    // An entry left from a health forgotten since belongs to nobody.
    return own?.health === health ? own : undefined;
  }

  /** When the upstream is back for `caller` (ms since the epoch; 0: it is not skipped for it). */
  reopensAt(health: TUpstreamHealth, caller: string, now: number): number {
    const shared = health.openUntil > now ? health.openUntil : 0;
    const own = health.callers === 0 ? undefined : this.callerCircuit(health, caller);
    return Math.max(shared, own && own.openUntil > now ? own.openUntil : 0);
  }

  /** Callers whose own circuit on this upstream is open now (the owner's view). */
  openForCallers(health: TUpstreamHealth, now = this.now()): number {
    if (health.callers === 0) return 0;
    let count = 0;
    for (const own of this.byCaller.values()) if (own.health === health && own.openUntil > now) count++;
    return count;
  }

  /**
   * This call probes the upstream (its cooldown is over): true when it won the probe. With Redis
   * only one caller of all instances wins until `holdMs` passes.
   */
  claimProbe(health: TUpstreamHealth, holdMs: number, cooldownMs: number): boolean | Promise<boolean> {
    const now = this.now();
    health.probeUntil = now + holdMs;
    const store = this.store;
    if (!store?.ready) return true;
    // The claim lasts a cooldown: a failed probe's new cooldown ends after it, so no other
    // instance probes again before hearing of the failure.
    return store.claimProbe(health.key, cooldownMs).then((won) => {
      if (!won) health.probeUntil = Math.max(health.probeUntil, this.now() + cooldownMs);
      return won;
    });
  }

  success(health: TUpstreamHealth, caller: string): void {
    if (health.failuresInRow === 0 && health.openUntil === 0 && health.callers === 0) return;
    if (health.failuresInRow !== 0 || health.openUntil !== 0) this.closeShared(health);
    if (health.callers !== 0) this.closeForCaller(health, caller);
  }

  private closeShared(health: TUpstreamHealth): void {
    const wasOpen = health.openUntil !== 0;
    resetStreak(health);
    health.openUntil = 0;
    health.probeUntil = 0;
    health.reason = null;
    health.reasonCallers = 0;
    if (this.store?.ready) this.store.clearStreak(health.key, true);
    if (wasOpen) {
      this.options.log.warn({ route: health.route, upstream: health.host }, 'gateway: circuit closed');
      void this.options.publish({ kind: 'circuit', circuit: health.key, until: 0 });
    }
  }

  private closeForCaller(health: TUpstreamHealth, caller: string): void {
    const own = this.callerCircuit(health, caller);
    if (!own) return;
    this.byCaller.delete(`${health.key} ${caller}`);
    health.callers--;
    if (this.store?.ready) this.store.clearCaller(health.key, caller);
    if (own.openUntil !== 0) {
      this.options.log.warn(
        { route: health.route, upstream: health.host, callerAccountId: caller },
        'gateway: circuit closed for one caller',
      );
      void this.options.publish({ kind: 'circuit', circuit: health.key, until: 0, caller });
    }
  }

  /**
   * A failed call (retryable status, connection error, timeout) of `caller`, counted against
   * everyone or that caller as `source` says. Resolves once the shared state knows.
   */
  failure(
    health: TUpstreamHealth,
    source: TFailureSource,
    caller: string,
    threshold: number,
    cooldownMs: number,
  ): TPending {
    const now = this.now();
    health.lastFailureAt = now;
    health.failures.add(now);
    if (health.openUntil !== 0) {
      // A call that was under way when the circuit opened changes nothing.
      if (now < health.openUntil) return;
      // A failed probe opens it for another cooldown, unless one caller's body may have failed it:
      // then that caller's own count, and another call probes.
      if (source !== 'caller') return this.open(health, source, 0, cooldownMs);
      health.probeUntil = 0;
      if (this.store?.ready) this.store.releaseProbe(health.key);
      return this.callerFailure(health, caller, threshold, cooldownMs, now);
    }
    const shared = this.countStreak(health, source, caller, threshold, cooldownMs);
    if (source !== 'caller') return shared;
    return both(shared, this.callerFailure(health, caller, threshold, cooldownMs, now));
  }

  private countStreak(
    health: TUpstreamHealth,
    source: TFailureSource,
    caller: string,
    threshold: number,
    cooldownMs: number,
  ): TPending {
    health.failuresInRow++;
    if (source === 'connection') health.connection++;
    else if (source === 'owner') health.owner++;
    else {
      health.callerFailures++;
      const seen = (health.streakCallers ??= new Set());
      if (seen.size < MAX_STREAK_CALLERS) seen.add(caller);
      health.distinctCallers = Math.max(health.distinctCallers, seen.size);
    }
    const store = this.store;
    if (!store?.ready) return this.openIfDue(health, threshold, cooldownMs);
    const field = source === 'connection' ? 'n' : source === 'owner' ? 'o' : 'c';
    return store
      .countStreak(health.key, field, source === 'caller' ? caller : '', cooldownMs)
      .then((shared) => {
        if (shared) mergeStreak(health, shared);
        return this.openIfDue(health, threshold, cooldownMs);
      });
  }

  private openIfDue(health: TUpstreamHealth, threshold: number, cooldownMs: number): TPending {
    if (health.openUntil !== 0) return;
    const reason = openingReason(health, threshold);
    if (reason === null) return;
    return this.open(health, reason, reason === 'callers' ? health.distinctCallers : 0, cooldownMs);
  }

  private open(
    health: TUpstreamHealth,
    reason: TOpenReason,
    callers: number,
    cooldownMs: number,
  ): Promise<void> {
    const until = this.now() + cooldownMs;
    health.openUntil = until;
    health.probeUntil = 0;
    health.reason = reason;
    health.reasonCallers = callers;
    resetStreak(health);
    this.options.log.warn(
      { route: health.route, upstream: health.host, reason, cooldownMs },
      'gateway: circuit opened',
    );
    if (this.store?.ready) this.store.clearStreak(health.key, false);
    this.options.onOpen?.(health, until);
    return this.options.publish({ kind: 'circuit', circuit: health.key, until, reason, callers });
  }

  private callerFailure(
    health: TUpstreamHealth,
    caller: string,
    threshold: number,
    cooldownMs: number,
    now: number,
  ): TPending {
    const own = this.touchCaller(health, caller);
    if (own.openUntil !== 0) {
      if (now < own.openUntil) return;
      // Its cooldown is over and it fails again: another cooldown at once.
      return this.openForCaller(own, cooldownMs);
    }
    // A quiet cooldown forgets the streak, as the shared count's expiry does.
    if (now - own.lastFailureAt > cooldownMs) own.failuresInRow = 0;
    own.lastFailureAt = now;
    own.failuresInRow++;
    const store = this.store;
    if (!store?.ready)
      return own.failuresInRow >= threshold ? this.openForCaller(own, cooldownMs) : undefined;
    return store.countCaller(health.key, caller, cooldownMs).then((shared) => {
      own.failuresInRow = Math.max(own.failuresInRow, shared ?? 0);
      if (own.failuresInRow >= threshold && own.openUntil === 0) return this.openForCaller(own, cooldownMs);
    });
  }

  /** The caller's own circuit, created if needed and moved to the newest end (the oldest go first). */
  private touchCaller(health: TUpstreamHealth, caller: string): TCallerCircuit {
    const name = `${health.key} ${caller}`;
    let own = this.callerCircuit(health, caller);
    if (own) this.byCaller.delete(name);
    else {
      const stale = this.byCaller.get(name);
      if (stale) {
        this.byCaller.delete(name);
        stale.health.callers--;
      }
      if (this.byCaller.size >= MAX_CALLERS) this.forgetOldestCaller();
      own = { health, caller, failuresInRow: 0, lastFailureAt: 0, openUntil: 0 };
      health.callers++;
    }
    this.byCaller.set(name, own);
    return own;
  }

  private forgetOldestCaller(): void {
    for (const [name, oldest] of this.byCaller) {
      this.byCaller.delete(name);
      oldest.health.callers--;
      return;
    }
  }

  private openForCaller(own: TCallerCircuit, cooldownMs: number): Promise<void> {
    const until = this.now() + cooldownMs;
    own.openUntil = until;
    own.failuresInRow = 0;
    const { health, caller } = own;
    this.options.log.warn(
      { route: health.route, upstream: health.host, callerAccountId: caller, cooldownMs },
      'gateway: circuit opened for one caller',
    );
    if (this.store?.ready) this.store.clearCaller(health.key, caller);
    return this.options.publish({ kind: 'circuit', circuit: health.key, until, caller });
  }

  /** Another instance (or this one) opened or closed a circuit. */
  apply(change: TCircuitChange): void {
    if (typeof change.circuit !== 'string' || typeof change.until !== 'number') return;
    const health = this.byKey.get(change.circuit) ?? this.create(change.circuit, '', '');
    if (typeof change.caller === 'string') return this.applyForCaller(health, change.caller, change.until);
    if (change.until === 0) {
      resetStreak(health);
      health.openUntil = 0;
      health.probeUntil = 0;
      health.reason = null;
      health.reasonCallers = 0;
    } else if (change.until > health.openUntil) {
      health.openUntil = change.until;
      health.probeUntil = 0;
      health.reason = change.reason ?? null;
      health.reasonCallers = change.callers ?? 0;
    }
  }

  private applyForCaller(health: TUpstreamHealth, caller: string, until: number): void {
    if (until === 0) {
      const own = this.callerCircuit(health, caller);
      if (!own) return;
      this.byCaller.delete(`${health.key} ${caller}`);
      health.callers--;
      return;
    }
    const own = this.touchCaller(health, caller);
    if (until > own.openUntil) {
      own.openUntil = until;
      own.failuresInRow = 0;
    }
  }

  close(): void {
    this.store?.close();
  }
}

/** Redis's counts of the streak (every instance's) are at least this instance's own. */
function mergeStreak(health: TUpstreamHealth, shared: TStreakCounts): void {
  health.connection = Math.max(health.connection, shared.connection);
  health.owner = Math.max(health.owner, shared.owner);
  health.callerFailures = Math.max(health.callerFailures, shared.callers);
  health.distinctCallers = Math.max(health.distinctCallers, shared.distinctCallers);
  health.failuresInRow = Math.max(
    health.failuresInRow,
    health.connection + health.owner + health.callerFailures,
  );
}
