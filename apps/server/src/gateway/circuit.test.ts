import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { Registry } from 'prom-client';
import type { TChange } from '../lib/change-bus';
import {
  CLOSED,
  Circuits,
  HourCounts,
  PROBE,
  SKIP,
  circuitKeyOf,
  type TCircuitChange,
  type TUpstreamHealth,
} from './circuit';
import { circuitStateGauge, upstreamHealth } from './circuit-report';

// The circuit breakers of contract 6a, driven directly with a clock of the test's own: each rule
// (who a failure counts against, when a circuit opens, probes and closes, what reaches the other
// instances) at its exact boundary. The Redis half runs two instances in this process on one
// Redis, joined by a change bus of the test's own, as two servers on one Redis are.

const COOLDOWN = 30_000;
const T0 = 1_800_000_000_000;

interface THarness {
  circuits: Circuits;
  sent: TCircuitChange[];
  warn: ReturnType<typeof vi.fn>;
  opened: { key: string; until: number; reason: string | null }[];
  clock: { now: number };
}

function harness(
  options: { redisUrl?: string; clock?: { now: number }; publish?: (c: TChange) => Promise<void> } = {},
): THarness {
  const clock = options.clock ?? { now: T0 };
  const sent: TCircuitChange[] = [];
  const warn = vi.fn();
  const opened: THarness['opened'] = [];
  const circuits = new Circuits({
    redisUrl: options.redisUrl,
    publish: async (change) => {
      if (change.kind === 'circuit') sent.push(change);
      await options.publish?.(change);
    },
    log: { warn } as never,
    now: () => clock.now,
    onOpen: (health, until) => opened.push({ key: health.key, until, reason: health.reason }),
  });
  return { circuits, sent, warn, opened, clock };
}

function target(key = `ep-${randomUUID()}:abc`, host = 'up.example') {
  return { circuitKey: key, host };
}

describe('circuits on one instance', () => {
  it('creates one health per circuit key and keeps it; a renamed route relabels it', () => {
    const { circuits } = harness();
    const t = target();
    const health = circuits.health(t, 'acme/a');
    expect(health).toMatchObject({ key: t.circuitKey, route: 'acme/a', host: 'up.example', openUntil: 0 });
    expect(circuits.health(t, 'acme/a')).toBe(health);
    expect(circuits.peek(t.circuitKey)).toBe(health);
    expect(circuits.peek('nope')).toBeUndefined();
    circuits.health({ circuitKey: t.circuitKey, host: 'other.example' }, 'acme/b');
    expect(health).toMatchObject({ route: 'acme/b', host: 'other.example' });
    expect([...circuits.all()]).toEqual([health]);
  });

  it('opens after `failures` in a row from the owner, for the cooldown, then one probe; a good probe closes it', async () => {
    const { circuits, sent, warn, opened, clock } = harness();
    const health = circuits.health(target(), 'acme/a');
    expect(circuits.check(health, clock.now, 'owner')).toBe(CLOSED);
    expect(circuits.state(health)).toBe('closed');
    expect(circuits.failure(health, 'owner', 'owner', 3, COOLDOWN)).toBeUndefined();
    expect(circuits.failure(health, 'owner', 'owner', 3, COOLDOWN)).toBeUndefined();
    expect(health).toMatchObject({
      failuresInRow: 2,
      owner: 2,
      connection: 0,
      callerFailures: 0,
      openUntil: 0,
    });
    expect(health.lastFailureAt).toBe(T0);
    expect(sent).toEqual([]);
    await circuits.failure(health, 'owner', 'owner', 3, COOLDOWN);
    const until = T0 + COOLDOWN;
    expect(health).toMatchObject({
      openUntil: until,
      probeUntil: 0,
      reason: 'owner',
      reasonCallers: 0,
      failuresInRow: 0,
      owner: 0,
    });
    expect(sent).toEqual([{ kind: 'circuit', circuit: health.key, until, reason: 'owner', callers: 0 }]);
    expect(opened).toEqual([{ key: health.key, until, reason: 'owner' }]);
    expect(warn).toHaveBeenCalledWith(
      { route: 'acme/a', upstream: 'up.example', reason: 'owner', cooldownMs: COOLDOWN },
      'gateway: circuit opened',
    );
    expect(health.failures.total(clock.now)).toBe(3);

    // Open: everyone skips it until the cooldown ends (its last millisecond too).
    expect(circuits.state(health)).toBe('open');
    expect(circuits.check(health, until - 1, 'anyone')).toBe(SKIP);
    expect(circuits.reopensAt(health, 'anyone', until - 1)).toBe(until);
    // A call under way when it opened changes nothing.
    clock.now = until - 1;
    expect(circuits.failure(health, 'owner', 'owner', 3, COOLDOWN)).toBeUndefined();
    expect(health.openUntil).toBe(until);
    expect(sent).toHaveLength(1);

    // The cooldown is over: one probe.
    clock.now = until;
    expect(circuits.reopensAt(health, 'anyone', until)).toBe(0);
    expect(circuits.check(health, until, 'anyone')).toBe(PROBE);
    expect(circuits.state(health, until)).toBe('open');
    expect(circuits.claimProbe(health, 5000, COOLDOWN)).toBe(true);
    expect(health.probeUntil).toBe(until + 5000);
    expect(circuits.state(health, until)).toBe('probing');
    expect(circuits.check(health, until, 'other')).toBe(SKIP);
    expect(circuits.check(health, until + 4999, 'other')).toBe(SKIP);
    expect(circuits.check(health, until + 5000, 'other')).toBe(PROBE);
    expect(circuits.state(health, until + 5000)).toBe('open');

    circuits.success(health, 'owner');
    expect(health).toMatchObject({
      openUntil: 0,
      probeUntil: 0,
      reason: null,
      reasonCallers: 0,
      failuresInRow: 0,
    });
    expect(sent.at(-1)).toEqual({ kind: 'circuit', circuit: health.key, until: 0 });
    expect(warn).toHaveBeenLastCalledWith(
      { route: 'acme/a', upstream: 'up.example' },
      'gateway: circuit closed',
    );
    expect(circuits.check(health, until, 'anyone')).toBe(CLOSED);
    expect(circuits.state(health)).toBe('closed');
  });

  it('a failed probe opens it for another cooldown; a caller-only failed probe counts for that caller and frees the probe', async () => {
    const { circuits, sent, clock } = harness();
    const health = circuits.health(target(), 'acme/a');
    await circuits.failure(health, 'connection', 'x', 1, COOLDOWN);
    expect(health.reason).toBe('connection');
    clock.now = T0 + COOLDOWN;
    circuits.claimProbe(health, 5000, COOLDOWN);
    await circuits.failure(health, 'connection', 'x', 1, COOLDOWN);
    expect(health).toMatchObject({ openUntil: T0 + 2 * COOLDOWN, probeUntil: 0, reason: 'connection' });
    expect(sent.at(-1)).toEqual({
      kind: 'circuit',
      circuit: health.key,
      until: T0 + 2 * COOLDOWN,
      reason: 'connection',
      callers: 0,
    });

    // The next probe fails on what one caller sent: it stays open, another call may probe at once,
    // and the failure is that caller's own.
    clock.now = T0 + 2 * COOLDOWN;
    circuits.claimProbe(health, 5000, COOLDOWN);
    const count = sent.length;
    await circuits.failure(health, 'caller', 'c1', 2, COOLDOWN);
    expect(health).toMatchObject({ openUntil: T0 + 2 * COOLDOWN, probeUntil: 0, callers: 1 });
    expect(sent).toHaveLength(count);
    expect(circuits.check(health, clock.now, 'c2')).toBe(PROBE);
    expect(circuits.check(health, clock.now, 'c1')).toBe(PROBE);
    await circuits.failure(health, 'caller', 'c1', 2, COOLDOWN);
    // Its own circuit is open now: the others still probe, it is skipped.
    expect(circuits.check(health, clock.now, 'c1')).toBe(SKIP);
    expect(circuits.check(health, clock.now, 'c2')).toBe(PROBE);
    expect(sent.at(-1)).toEqual({
      kind: 'circuit',
      circuit: health.key,
      until: clock.now + COOLDOWN,
      caller: 'c1',
    });
  });

  it("counts one caller's failures against that caller only; two accounts in one streak open it for everyone", async () => {
    const { circuits, sent, warn, opened, clock } = harness();
    const health = circuits.health(target(), 'acme/a');
    expect(circuits.failure(health, 'caller', 'c1', 2, COOLDOWN)).toBeUndefined();
    expect(health).toMatchObject({ failuresInRow: 1, callerFailures: 1, distinctCallers: 1, callers: 1 });
    await circuits.failure(health, 'caller', 'c1', 2, COOLDOWN);
    // c1's own circuit opened; nobody else's.
    expect(health.openUntil).toBe(0);
    expect(health).toMatchObject({ failuresInRow: 2, callerFailures: 2, distinctCallers: 1 });
    expect(sent).toEqual([{ kind: 'circuit', circuit: health.key, until: T0 + COOLDOWN, caller: 'c1' }]);
    expect(opened).toEqual([]);
    expect(warn).toHaveBeenCalledWith(
      { route: 'acme/a', upstream: 'up.example', callerAccountId: 'c1', cooldownMs: COOLDOWN },
      'gateway: circuit opened for one caller',
    );
    expect(circuits.check(health, T0, 'c1')).toBe(SKIP);
    expect(circuits.check(health, T0 + COOLDOWN - 1, 'c1')).toBe(SKIP);
    expect(circuits.check(health, T0 + COOLDOWN, 'c1')).toBe(CLOSED);
    expect(circuits.check(health, T0, 'c2')).toBe(CLOSED);
    expect(circuits.state(health)).toBe('closed');
    expect(circuits.reopensAt(health, 'c1', T0)).toBe(T0 + COOLDOWN);
    expect(circuits.reopensAt(health, 'c1', T0 + COOLDOWN)).toBe(0);
    expect(circuits.reopensAt(health, 'c2', T0)).toBe(0);
    expect(circuits.openForCallers(health, T0)).toBe(1);
    expect(circuits.openForCallers(health, T0 + COOLDOWN)).toBe(0);
    // While its own circuit is open, its failures change nothing for it.
    clock.now = T0 + 1;
    const count = sent.length;
    expect(circuits.failure(health, 'caller', 'c1', 3, COOLDOWN)).toBeUndefined();
    expect(sent).toHaveLength(count);
    expect(circuits.reopensAt(health, 'c1', T0 + 1)).toBe(T0 + COOLDOWN);
    // A second account in the same streak: open for everyone, reason "callers", two accounts.
    await circuits.failure(health, 'caller', 'c2', 3, COOLDOWN);
    expect(health).toMatchObject({ openUntil: T0 + 1 + COOLDOWN, reason: 'callers', reasonCallers: 2 });
    expect(sent.slice(count)).toEqual([
      { kind: 'circuit', circuit: health.key, until: T0 + 1 + COOLDOWN, reason: 'callers', callers: 2 },
    ]);
    expect(opened).toEqual([{ key: health.key, until: T0 + 1 + COOLDOWN, reason: 'callers' }]);
  });

  it("a caller's success closes its own circuit and ends the shared streak; another caller's leaves it", async () => {
    const { circuits, sent, warn, clock } = harness();
    const health = circuits.health(target(), 'acme/a');
    await circuits.failure(health, 'caller', 'c1', 1, COOLDOWN);
    expect(circuits.check(health, T0, 'c1')).toBe(SKIP);
    circuits.success(health, 'c2');
    // c2's success ends the streak for everyone, not c1's own circuit.
    expect(health.failuresInRow).toBe(0);
    expect(circuits.check(health, T0, 'c1')).toBe(SKIP);
    expect(health.callers).toBe(1);
    expect(sent).toHaveLength(1);
    clock.now = T0 + COOLDOWN;
    circuits.success(health, 'c1');
    expect(health.callers).toBe(0);
    expect(sent.at(-1)).toEqual({ kind: 'circuit', circuit: health.key, until: 0, caller: 'c1' });
    expect(warn).toHaveBeenLastCalledWith(
      { route: 'acme/a', upstream: 'up.example', callerAccountId: 'c1' },
      'gateway: circuit closed for one caller',
    );
    expect(circuits.openForCallers(health, T0)).toBe(0);
    // A caller whose streak never opened closes quietly.
    await circuits.failure(health, 'caller', 'c3', 2, COOLDOWN);
    expect(health.callers).toBe(1);
    const count = sent.length;
    circuits.success(health, 'c3');
    expect(health.callers).toBe(0);
    expect(sent).toHaveLength(count);
    // Nothing to close: no message, no log.
    const warned = warn.mock.calls.length;
    circuits.success(health, 'c3');
    expect(sent).toHaveLength(count);
    expect(warn.mock.calls).toHaveLength(warned);
  });

  it("a caller's own circuit whose cooldown is over opens again at its next failure; a quiet cooldown forgets its streak", async () => {
    const { circuits, sent, clock } = harness();
    const health = circuits.health(target(), 'acme/a');
    await circuits.failure(health, 'caller', 'c1', 2, COOLDOWN);
    await circuits.failure(health, 'caller', 'c1', 2, COOLDOWN);
    expect(circuits.check(health, T0, 'c1')).toBe(SKIP);
    circuits.success(health, 'someone'); // ends the shared streak only
    clock.now = T0 + COOLDOWN - 1;
    expect(circuits.failure(health, 'caller', 'c1', 2, COOLDOWN)).toBeUndefined();
    expect(sent).toHaveLength(1);
    circuits.success(health, 'someone');
    clock.now = T0 + COOLDOWN;
    await circuits.failure(health, 'caller', 'c1', 2, COOLDOWN);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual({ kind: 'circuit', circuit: health.key, until: T0 + 2 * COOLDOWN, caller: 'c1' });
    expect(circuits.check(health, T0 + 2 * COOLDOWN - 1, 'c1')).toBe(SKIP);

    // c2: one failure, a cooldown exactly (still counts), then one more: open.
    const h2 = circuits.health(target(), 'acme/b');
    clock.now = T0;
    circuits.failure(h2, 'caller', 'c2', 2, COOLDOWN);
    circuits.success(h2, 'someone');
    clock.now = T0 + COOLDOWN;
    await circuits.failure(h2, 'caller', 'c2', 2, COOLDOWN);
    expect(circuits.check(h2, clock.now, 'c2')).toBe(SKIP);
    // c3: one failure, then one more after a quiet cooldown and 1 ms: the streak starts again.
    const h3 = circuits.health(target(), 'acme/c');
    clock.now = T0;
    circuits.failure(h3, 'caller', 'c3', 2, COOLDOWN);
    circuits.success(h3, 'someone');
    clock.now = T0 + COOLDOWN + 1;
    circuits.failure(h3, 'caller', 'c3', 2, COOLDOWN);
    expect(circuits.check(h3, clock.now, 'c3')).toBe(CLOSED);
    circuits.success(h3, 'someone');
    await circuits.failure(h3, 'caller', 'c3', 2, COOLDOWN);
    expect(circuits.check(h3, clock.now, 'c3')).toBe(SKIP);
  });

  it('resolves a failure once the opening is published, whichever of the two circuits opened', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { circuits } = harness({ publish: () => gate });
    const health = circuits.health(target(), 'acme/a');
    // The shared circuit opens (connection), nothing for the caller: a promise to wait on.
    const shared = circuits.failure(health, 'connection', 'c1', 1, COOLDOWN);
    expect(shared).toBeInstanceOf(Promise);
    const h2 = circuits.health(target(), 'acme/b');
    circuits.failure(h2, 'caller', 'c1', 2, COOLDOWN);
    circuits.failure(h2, 'caller', 'c2', 9, COOLDOWN);
    circuits.success(h2, 'none');
    // The caller's streak of c1 opens on this failure, the shared one does not.
    const own = circuits.failure(h2, 'caller', 'c1', 2, COOLDOWN);
    expect(own).toBeInstanceOf(Promise);
    const h3 = circuits.health(target(), 'acme/c');
    circuits.failure(h3, 'caller', 'c1', 9, COOLDOWN);
    // The shared one opens (two accounts), c2's own does not.
    const callers = circuits.failure(h3, 'caller', 'c2', 2, COOLDOWN);
    expect(callers).toBeInstanceOf(Promise);
    let settled = false;
    void Promise.all([shared, own, callers]).then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(settled).toBe(false);
    release();
    await expect.poll(() => settled).toBe(true);
  });

  it('names the reason by the larger share of the streak', async () => {
    const { circuits } = harness();
    type TCase = [string, number, ['connection' | 'owner' | 'caller', string][], string, number];
    const cases: TCase[] = [
      [
        'connection',
        3,
        [
          ['connection', 'x'],
          ['owner', 'o'],
          ['connection', 'x'],
        ],
        'connection',
        0,
      ],
      [
        'owner',
        3,
        [
          ['owner', 'o'],
          ['connection', 'x'],
          ['owner', 'o'],
        ],
        'owner',
        0,
      ],
      [
        'tie',
        4,
        [
          ['connection', 'x'],
          ['owner', 'o'],
          ['connection', 'x'],
          ['owner', 'o'],
        ],
        'connection',
        0,
      ],
      [
        'one caller',
        3,
        [
          ['owner', 'o'],
          ['caller', 'c1'],
          ['connection', 'x'],
          ['owner', 'o'],
        ],
        'owner',
        0,
      ],
      [
        'callers',
        3,
        [
          ['caller', 'c1'],
          ['caller', 'c2'],
          ['owner', 'o'],
        ],
        'callers',
        2,
      ],
      [
        'callers tie owner',
        4,
        [
          ['caller', 'c1'],
          ['owner', 'o'],
          ['caller', 'c2'],
          ['owner', 'o'],
        ],
        'callers',
        2,
      ],
      [
        'callers tie connection',
        4,
        [
          ['caller', 'c1'],
          ['connection', 'x'],
          ['caller', 'c2'],
          ['connection', 'x'],
        ],
        'callers',
        2,
      ],
      [
        'owner over callers',
        5,
        [
          ['caller', 'c1'],
          ['owner', 'o'],
          ['caller', 'c2'],
          ['owner', 'o'],
          ['owner', 'o'],
        ],
        'owner',
        0,
      ],
      [
        'connection over callers',
        5,
        [
          ['caller', 'c1'],
          ['connection', 'x'],
          ['caller', 'c2'],
          ['connection', 'x'],
          ['connection', 'x'],
        ],
        'connection',
        0,
      ],
    ];
    for (const [name, threshold, failures, reason, callers] of cases) {
      const health = circuits.health(target(), name);
      for (const [source, caller] of failures.slice(0, -1)) {
        await circuits.failure(health, source, caller, threshold, COOLDOWN);
        expect(health.openUntil, name).toBe(0);
      }
      const [source, caller] = failures.at(-1)!;
      await circuits.failure(health, source, caller, threshold, COOLDOWN);
      expect([health.reason, health.reasonCallers], name).toEqual([reason, callers]);
    }
  });

  it('forgets the oldest closed upstream past 10,000 and keeps an open one', async () => {
    const { circuits } = harness();
    const first = circuits.health(target('first:1'), 'r');
    await circuits.failure(first, 'connection', 'x', 1, COOLDOWN);
    const second = circuits.health(target('second:1'), 'r');
    // c1's own circuit on the second: left behind when the second is forgotten.
    await circuits.failure(second, 'caller', 'c1', 1, COOLDOWN);
    expect(second.callers).toBe(1);
    for (let i = 2; i < 10_000; i++) circuits.health(target(`k${i}:1`), 'r');
    expect([...circuits.all()]).toHaveLength(10_000);
    circuits.health(target('last:1'), 'r');
    expect([...circuits.all()]).toHaveLength(10_000);
    expect(circuits.peek('first:1')).toBe(first);
    expect(circuits.peek('second:1')).toBeUndefined();
    expect(circuits.peek('k2:1')).toBeDefined();
    // Known again: c1's entry of the forgotten health belongs to nobody.
    const again = circuits.health(target('second:1'), 'r');
    expect(again).not.toBe(second);
    expect(circuits.check(again, T0, 'c1')).toBe(CLOSED);
    await circuits.failure(again, 'caller', 'c2', 2, COOLDOWN);
    expect(again.callers).toBe(1);
    expect(circuits.check(again, T0, 'c1')).toBe(CLOSED);
    expect(circuits.reopensAt(again, 'c1', T0)).toBe(0);
    expect(circuits.openForCallers(again, T0)).toBe(0);
    await circuits.failure(again, 'caller', 'c1', 3, COOLDOWN);
    expect(second.callers).toBe(0);
    expect(again.callers).toBe(2);
    expect(circuits.check(again, T0, 'c1')).toBe(CLOSED);
  });

  it("forgets the least recently failing caller's own circuit past 20,000", async () => {
    const { circuits } = harness();
    const health = circuits.health(target(), 'r');
    const fail = (caller: string) => {
      circuits.failure(health, 'caller', caller, 2, COOLDOWN);
      circuits.success(health, 'nobody'); // keeps the shared streak from opening
    };
    fail('c0');
    for (let i = 1; i < 20_000; i++) fail(`c${i}`);
    expect(health.callers).toBe(20_000);
    fail('c0'); // its second: open, and now the most recent
    expect(circuits.check(health, T0, 'c0')).toBe(SKIP);
    fail('c20000');
    expect(health.callers).toBe(20_000);
    // c1 was forgotten, then c2 (for c1's new entry): their next failure is their first again;
    // c3's is its second.
    fail('c1');
    expect(circuits.check(health, T0, 'c1')).toBe(CLOSED);
    fail('c3');
    expect(circuits.check(health, T0, 'c3')).toBe(SKIP);
    expect(circuits.check(health, T0, 'c0')).toBe(SKIP);
    expect(health.callers).toBe(20_000);
  });

  it("applies another instance's openings and closings, for everyone and for one caller", () => {
    const { circuits, sent, opened } = harness();
    const t = target();
    // Unknown before: kept without a route (no metric label until a call names it).
    circuits.apply({ kind: 'circuit', circuit: t.circuitKey, until: T0 + 1000, reason: 'owner', callers: 0 });
    const health = circuits.peek(t.circuitKey)!;
    expect(health).toMatchObject({
      route: '',
      host: '',
      openUntil: T0 + 1000,
      reason: 'owner',
      reasonCallers: 0,
    });
    expect(circuits.check(health, T0, 'x')).toBe(SKIP);
    // An earlier end changes nothing; a later one moves it and clears a probe.
    health.probeUntil = T0 + 5;
    circuits.apply({
      kind: 'circuit',
      circuit: t.circuitKey,
      until: T0 + 500,
      reason: 'connection',
      callers: 0,
    });
    expect(health).toMatchObject({ openUntil: T0 + 1000, reason: 'owner', probeUntil: T0 + 5 });
    circuits.apply({
      kind: 'circuit',
      circuit: t.circuitKey,
      until: T0 + 1000,
      reason: 'connection',
      callers: 0,
    });
    expect(health).toMatchObject({ openUntil: T0 + 1000, reason: 'owner' });
    circuits.apply({
      kind: 'circuit',
      circuit: t.circuitKey,
      until: T0 + 2000,
      reason: 'callers',
      callers: 3,
    });
    expect(health).toMatchObject({
      openUntil: T0 + 2000,
      reason: 'callers',
      reasonCallers: 3,
      probeUntil: 0,
    });
    circuits.apply({ kind: 'circuit', circuit: t.circuitKey, until: T0 + 3000 } as TCircuitChange);
    expect(health).toMatchObject({ openUntil: T0 + 3000, reason: null, reasonCallers: 0 });
    expect(circuits.health(t, 'acme/a')).toBe(health);
    expect(health.route).toBe('acme/a');
    // Closed elsewhere: closed here, streak and probe too.
    health.failuresInRow = 2;
    health.owner = 2;
    health.probeUntil = T0 + 5;
    health.reason = 'owner';
    health.reasonCallers = 1;
    circuits.apply({ kind: 'circuit', circuit: t.circuitKey, until: 0 });
    expect(health).toMatchObject({
      openUntil: 0,
      probeUntil: 0,
      failuresInRow: 0,
      owner: 0,
      reason: null,
      reasonCallers: 0,
    });
    // Malformed messages are ignored.
    circuits.apply({ kind: 'circuit', circuit: 5, until: T0 + 9000 } as never);
    circuits.apply({
      kind: 'circuit',
      circuit: t.circuitKey,
      until: String(T0 + 9000),
    } as never);
    expect(health.openUntil).toBe(0);
    expect([...circuits.all()]).toHaveLength(1);

    // One caller's.
    circuits.apply({ kind: 'circuit', circuit: t.circuitKey, until: T0 + 1000, caller: 'c1' });
    expect(health.openUntil).toBe(0);
    expect(health.callers).toBe(1);
    expect(circuits.check(health, T0, 'c1')).toBe(SKIP);
    expect(circuits.check(health, T0, 'c2')).toBe(CLOSED);
    circuits.apply({ kind: 'circuit', circuit: t.circuitKey, until: T0 + 500, caller: 'c1' });
    expect(circuits.reopensAt(health, 'c1', T0)).toBe(T0 + 1000);
    circuits.apply({ kind: 'circuit', circuit: t.circuitKey, until: T0 + 1500, caller: 'c1' });
    expect(circuits.reopensAt(health, 'c1', T0)).toBe(T0 + 1500);
    circuits.apply({ kind: 'circuit', circuit: t.circuitKey, until: 0, caller: 'c2' });
    expect(health.callers).toBe(1);
    circuits.apply({ kind: 'circuit', circuit: t.circuitKey, until: 0, caller: 'c1' });
    expect(health.callers).toBe(0);
    expect(circuits.check(health, T0, 'c1')).toBe(CLOSED);
    circuits.apply({ kind: 'circuit', circuit: t.circuitKey, until: 0, caller: 'c1' });
    expect(health.callers).toBe(0);
    // Applying publishes nothing and tells no owner.
    expect(sent).toEqual([]);
    expect(opened).toEqual([]);
  });

  it("a caller's circuit heard from elsewhere holds here; once over, its next failure opens it again", async () => {
    const { circuits, clock } = harness();
    const health = circuits.health(target(), 'r');
    circuits.failure(health, 'caller', 'c1', 2, COOLDOWN);
    circuits.success(health, 'nobody');
    circuits.apply({ kind: 'circuit', circuit: health.key, until: T0 + 10, caller: 'c1' });
    expect(circuits.check(health, T0 + 9, 'c1')).toBe(SKIP);
    clock.now = T0 + 10;
    expect(circuits.check(health, T0 + 10, 'c1')).toBe(CLOSED);
    await circuits.failure(health, 'caller', 'c1', 2, COOLDOWN);
    expect(circuits.check(health, T0 + 10, 'c1')).toBe(SKIP);
  });

  it('a success ends the streak: the failures before it do not count', async () => {
    const { circuits } = harness();
    const health = circuits.health(target(), 'r');
    circuits.failure(health, 'owner', 'o', 2, COOLDOWN);
    circuits.success(health, 'o');
    expect(circuits.failure(health, 'owner', 'o', 2, COOLDOWN)).toBeUndefined();
    expect(health).toMatchObject({ openUntil: 0, failuresInRow: 1, owner: 1 });
  });

  it("a caller's success under way closes its own circuit while another caller's stays open", () => {
    const { circuits, clock } = harness();
    const health = circuits.health(target(), 'r');
    circuits.failure(health, 'caller', 'c1', 1, COOLDOWN);
    circuits.success(health, 'nobody');
    circuits.failure(health, 'caller', 'c2', 1, COOLDOWN);
    expect(health.openUntil).toBe(0);
    expect(circuits.openForCallers(health, T0)).toBe(2);
    clock.now = T0 + 1;
    circuits.success(health, 'c1');
    expect(circuits.check(health, T0 + 1, 'c1')).toBe(CLOSED);
    expect(circuits.check(health, T0 + 1, 'c2')).toBe(SKIP);
    expect(circuits.openForCallers(health, T0 + 1)).toBe(1);
    expect(health.callers).toBe(1);
  });

  it('a streak remembers at most 100 distinct callers', () => {
    const { circuits } = harness();
    const health = circuits.health(target(), 'r');
    for (let i = 0; i < 150; i++) circuits.failure(health, 'caller', `c${i}`, 1000, COOLDOWN);
    expect(health.streakCallers?.size).toBe(100);
    expect(health).toMatchObject({ distinctCallers: 100, callerFailures: 150, failuresInRow: 150 });
  });

  it('the reopening time is the later of the shared and the caller’s own', async () => {
    const { circuits, clock } = harness();
    const health = circuits.health(target(), 'r');
    await circuits.failure(health, 'caller', 'c1', 1, COOLDOWN);
    clock.now = T0 + 10;
    await circuits.failure(health, 'connection', 'c1', 1, COOLDOWN);
    expect(circuits.reopensAt(health, 'c1', T0 + 20)).toBe(T0 + 10 + COOLDOWN);
    expect(circuits.reopensAt(health, 'c2', T0 + 20)).toBe(T0 + 10 + COOLDOWN);
    const h2 = circuits.health(target(), 'r');
    await circuits.failure(h2, 'connection', 'c1', 1, COOLDOWN);
    clock.now = T0 + 20;
    circuits.apply({ kind: 'circuit', circuit: h2.key, until: T0 + 5 * COOLDOWN, caller: 'c1' });
    expect(circuits.reopensAt(h2, 'c1', T0 + 20)).toBe(T0 + 5 * COOLDOWN);
    expect(circuits.reopensAt(h2, 'c2', T0 + 20)).toBe(T0 + 10 + COOLDOWN);
  });
});

// Every key the test writes is named by a fresh endpoint id: runs on one Redis do not meet.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('circuits of two instances on one Redis', () => {
  const made: Circuits[] = [];
  const redis = new Redis(REDIS_URL);

  afterAll(async () => {
    for (const circuits of made) circuits.close();
    redis.disconnect();
  });

  /** Two instances (a third, `alone`, hears no message) sharing one clock and one Redis. */
  async function pair() {
    const clock = { now: T0 };
    const members: Circuits[] = [];
    const publish = async (change: TChange) => {
      for (const member of members) if (change.kind === 'circuit') member.apply(change);
    };
    const a = harness({ redisUrl: REDIS_URL, clock, publish });
    const b = harness({ redisUrl: REDIS_URL, clock, publish });
    const alone = harness({ redisUrl: REDIS_URL, clock });
    members.push(a.circuits, b.circuits);
    made.push(a.circuits, b.circuits, alone.circuits);
    const stores = [a, b, alone].map((h) => h.circuits['store']!);
    await expect.poll(() => stores.every((store) => store.ready)).toBe(true);
    const t = target();
    return {
      a,
      b,
      alone,
      clock,
      key: t.circuitKey,
      on: (h: THarness): TUpstreamHealth => h.circuits.health(t, 'acme/a'),
    };
  }

  it('counts connection failures of both instances in one streak, and both skip it once open', async () => {
    const { a, b, on } = await pair();
    await a.circuits.failure(on(a), 'connection', '', 3, COOLDOWN);
    await a.circuits.failure(on(a), 'connection', '', 3, COOLDOWN);
    expect(on(a).openUntil).toBe(0);
    await b.circuits.failure(on(b), 'connection', '', 3, COOLDOWN);
    expect(on(b)).toMatchObject({ openUntil: T0 + COOLDOWN, reason: 'connection' });
    expect(on(a)).toMatchObject({ openUntil: T0 + COOLDOWN, reason: 'connection' });
    expect(a.circuits.check(on(a), T0, 'x')).toBe(SKIP);
    expect(b.opened).toHaveLength(1);
    expect(a.opened).toHaveLength(0);
  });

  it("merges the owner's and the callers' counts of both, and the callers of both make two accounts", async () => {
    const { a, b, on } = await pair();
    await a.circuits.failure(on(a), 'owner', 'o', 2, COOLDOWN);
    await b.circuits.failure(on(b), 'owner', 'o', 2, COOLDOWN);
    expect(on(b)).toMatchObject({ openUntil: T0 + COOLDOWN, reason: 'owner' });
    const second = await pair();
    await second.a.circuits.failure(second.on(second.a), 'caller', 'c1', 2, COOLDOWN);
    await second.b.circuits.failure(second.on(second.b), 'caller', 'c2', 2, COOLDOWN);
    expect(second.on(second.b)).toMatchObject({
      openUntil: T0 + COOLDOWN,
      reason: 'callers',
      reasonCallers: 2,
    });
    expect(second.on(second.a)).toMatchObject({
      openUntil: T0 + COOLDOWN,
      reason: 'callers',
      reasonCallers: 2,
    });
  });

  it("counts one caller's failures on both instances against it alone", async () => {
    const { a, b, on } = await pair();
    await a.circuits.failure(on(a), 'caller', 'c1', 2, COOLDOWN);
    expect(a.circuits.check(on(a), T0, 'c1')).toBe(CLOSED);
    await b.circuits.failure(on(b), 'caller', 'c1', 2, COOLDOWN);
    expect(b.circuits.check(on(b), T0, 'c1')).toBe(SKIP);
    expect(a.circuits.check(on(a), T0, 'c1')).toBe(SKIP);
    expect(on(a).openUntil).toBe(0);
    expect(on(b).openUntil).toBe(0);
    expect(on(b)).toMatchObject({ callerFailures: 2, distinctCallers: 1, failuresInRow: 2 });
  });

  it("a success ends the streak and the caller's count in Redis; so does an opening", async () => {
    const { a, b, alone, on } = await pair();
    await a.circuits.failure(on(a), 'connection', '', 2, COOLDOWN);
    await a.circuits.failure(on(a), 'caller', 'c1', 3, COOLDOWN);
    a.circuits.success(on(a), 'c1');
    await expect.poll(() => redis.exists(`air:cb:${on(a).key}:f`, `air:cb:${on(a).key}:u:c1`)).toBe(0);
    await b.circuits.failure(on(b), 'connection', '', 2, COOLDOWN);
    expect(on(b).openUntil).toBe(0);
    await b.circuits.failure(on(b), 'caller', 'c1', 2, COOLDOWN);
    expect(b.circuits.check(on(b), T0, 'c1')).toBe(CLOSED);
    // c1's own circuit opens (its second failure): its count in Redis starts again.
    await b.circuits.failure(on(b), 'caller', 'c1', 2, COOLDOWN);
    expect(b.circuits.check(on(b), T0, 'c1')).toBe(SKIP);
    await expect.poll(() => redis.exists(`air:cb:${on(b).key}:u:c1`)).toBe(0);
    await alone.circuits.failure(on(alone), 'caller', 'c1', 2, COOLDOWN);
    expect(alone.circuits.check(on(alone), T0, 'c1')).toBe(CLOSED);
    // The shared circuit opens: its streak in Redis starts again, the probe claim stays.
    await redis.set(`air:cb:${on(b).key}:probe`, '1');
    await b.circuits.failure(on(b), 'connection', '', 2, COOLDOWN);
    expect(on(b).openUntil).toBe(T0 + COOLDOWN);
    await expect.poll(() => redis.exists(`air:cb:${on(b).key}:f`, `air:cb:${on(b).key}:c`)).toBe(0);
    expect(await redis.exists(`air:cb:${on(b).key}:probe`)).toBe(1);
    expect(await redis.pttl(`air:cb:${on(b).key}:probe`)).toBe(-1);
    // Its close clears the claim too.
    b.circuits.success(on(b), 'o');
    await expect.poll(() => redis.exists(`air:cb:${on(b).key}:probe`)).toBe(0);
  });

  it('lets one instance probe; the other waits a cooldown, or until a caller-only failure frees the probe', async () => {
    const { a, b, clock, on, key } = await pair();
    await a.circuits.failure(on(a), 'connection', '', 1, COOLDOWN);
    clock.now = T0 + COOLDOWN;
    expect(await a.circuits.claimProbe(on(a), 5000, COOLDOWN)).toBe(true);
    expect(await redis.pttl(`air:cb:${key}:probe`)).toBeGreaterThan(COOLDOWN - 2000);
    expect(await b.circuits.claimProbe(on(b), 5000, COOLDOWN)).toBe(false);
    expect(on(b).probeUntil).toBeGreaterThanOrEqual(T0 + 2 * COOLDOWN);
    expect(b.circuits.check(on(b), clock.now + 5000, 'x')).toBe(SKIP);
    // The probe fails on what its caller sent: the claim is freed for another call.
    await a.circuits.failure(on(a), 'caller', 'c1', 3, COOLDOWN);
    await expect.poll(() => redis.exists(`air:cb:${key}:probe`)).toBe(0);
    expect(await b.circuits.claimProbe(on(b), 5000, COOLDOWN)).toBe(true);
    expect(on(b).probeUntil).toBe(clock.now + 5000);
  });

  it("an owner's or a connection failure does not add its caller to the streak's callers", async () => {
    const { a, b, on, key } = await pair();
    await a.circuits.failure(on(a), 'owner', 'o', 3, COOLDOWN);
    await a.circuits.failure(on(a), 'connection', 'c9', 9, COOLDOWN);
    await b.circuits.failure(on(b), 'caller', 'c1', 4, COOLDOWN);
    expect(await redis.smembers(`air:cb:${key}:c`)).toEqual(['c1']);
    await a.circuits.failure(on(a), 'caller', 'c1', 4, COOLDOWN);
    // One caller account: its failures do not open it for everyone (1 owner + 1 connection < 4).
    expect(on(a)).toMatchObject({
      openUntil: 0,
      distinctCallers: 1,
      callerFailures: 2,
      owner: 1,
      connection: 1,
    });
    expect(on(a).failuresInRow).toBe(4);
  });

  it('an opening heard while a failure is being counted is not opened twice', async () => {
    const { a, on, key } = await pair();
    const counting = a.circuits.failure(on(a), 'connection', '', 1, COOLDOWN);
    a.circuits.apply({ kind: 'circuit', circuit: key, until: T0 + 5000, reason: 'owner', callers: 0 });
    await counting;
    expect(on(a)).toMatchObject({ openUntil: T0 + 5000, reason: 'owner' });
    const own = a.circuits.failure(on(a), 'caller', 'c1', 1, COOLDOWN);
    expect(own).toBeUndefined(); // open for everyone: a call under way changes nothing
    // The same for a caller's own circuit (on another upstream: this one's streak has begun).
    const other = a.circuits.health(target(), 'r');
    const callerCounting = a.circuits.failure(other, 'caller', 'c1', 1, COOLDOWN);
    a.circuits.apply({ kind: 'circuit', circuit: other.key, until: T0 + 7000, caller: 'c1' });
    await callerCounting;
    expect(a.circuits.reopensAt(other, 'c1', T0)).toBe(T0 + 7000);
    expect(a.sent).toEqual([]);
    expect(a.opened).toEqual([]);
  });

  it('counts alone when Redis answers nothing, and probes when the claim cannot be made', async () => {
    const { a, on } = await pair();
    const store = a.circuits['store']!;
    store.countStreak = async () => null;
    store.countCaller = async () => null;
    store['redis'].set = (() => Promise.reject(new Error('down'))) as never;
    await a.circuits.failure(on(a), 'owner', 'o', 2, COOLDOWN);
    expect(on(a).openUntil).toBe(0);
    await a.circuits.failure(on(a), 'owner', 'o', 2, COOLDOWN);
    expect(on(a).openUntil).toBe(T0 + COOLDOWN);
    const h2 = a.circuits.health(target(), 'r');
    await a.circuits.failure(h2, 'caller', 'c1', 2, COOLDOWN);
    a.circuits.success(h2, 'nobody');
    await a.circuits.failure(h2, 'caller', 'c1', 2, COOLDOWN);
    expect(a.circuits.check(h2, T0, 'c1')).toBe(SKIP);
    expect(await a.circuits.claimProbe(on(a), 10, COOLDOWN)).toBe(true);
    a.circuits.close();
    await expect.poll(() => store.ready).toBe(false);
  });

  it('each instance counts alone while Redis is unreachable', async () => {
    const alone = harness({ redisUrl: 'redis://127.0.0.1:1/0' });
    made.push(alone.circuits);
    const health = alone.circuits.health(target(), 'r');
    expect(alone.circuits.failure(health, 'owner', 'o', 2, COOLDOWN)).toBeUndefined();
    await alone.circuits.failure(health, 'owner', 'o', 2, COOLDOWN);
    expect(health.openUntil).toBe(T0 + COOLDOWN);
    health.openUntil = T0;
    expect(alone.circuits.claimProbe(health, 10, COOLDOWN)).toBe(true);
  });
});

describe("an upstream's last hour and the owner's view of its circuits", () => {
  it("counts per clock minute over the last 60 minutes, reusing a minute's slot an hour later", () => {
    const counts = new HourCounts();
    const minute = Math.floor(T0 / 60_000);
    const at = (m: number, s = 30) => (minute + m) * 60_000 + s * 1000;
    counts.add(at(0, 0));
    counts.add(at(0, 30));
    counts.add(at(0, 59.999));
    counts.add(at(1, 0));
    expect(counts.total(at(1))).toBe(4);
    expect(counts.total(at(59, 59.999))).toBe(4);
    expect(counts.total(at(60, 0))).toBe(1);
    expect(counts.total(at(61, 0))).toBe(0);
    // An hour later the slot of minute 0 starts again from zero.
    counts.add(at(60, 1));
    expect(counts.total(at(60, 2))).toBe(2);
    expect(counts.total(at(119, 59))).toBe(1);
    expect(counts.total(at(120, 0))).toBe(0);
  });

  it('names a circuit by its endpoint and a hash of its URL, never the URL', () => {
    const key = circuitKeyOf('ep1', 'https://up.example/v1?key=SEKRET123');
    expect(key).toMatch(/^ep1:[0-9a-f]{16}$/);
    expect(key).not.toContain('SEKRET');
    expect(circuitKeyOf('ep2', 'https://up.example/v1?key=SEKRET123')).not.toBe(key);
    expect(circuitKeyOf('ep1', 'https://up.example/v2')).not.toBe(key);
    expect(circuitKeyOf('ep1', 'https://up.example/v1?key=SEKRET123')).toBe(key);
  });

  it("shows each upstream's state, why it is open, its callers' own circuits and its last hour", async () => {
    const { circuits } = harness({ clock: { now: Date.now() } });
    const real = new Circuits({
      redisUrl: undefined,
      publish: async () => {},
      log: { warn() {} } as never,
    });
    const urls = ['https://a.example/v1', 'https://b.example/v1', 'https://c.example/v1'];
    const a = real.health({ circuitKey: circuitKeyOf('ep', urls[0]!), host: 'a.example' }, 'acme/x');
    a.attempts.add(Date.now());
    a.attempts.add(Date.now());
    await real.failure(a, 'caller', 'c1', 1, COOLDOWN);
    await real.failure(a, 'caller', 'c2', 1, COOLDOWN);
    const b = real.health({ circuitKey: circuitKeyOf('ep', urls[1]!), host: 'b.example' }, 'acme/x');
    b.attempts.add(Date.now());
    await real.failure(b, 'caller', 'c1', 5, COOLDOWN);
    const rows = upstreamHealth(
      real,
      'ep',
      urls.map((url, i) => ({ url, weight: i + 1 })),
    );
    expect(rows[0]).toMatchObject({
      url: urls[0],
      weight: 1,
      state: 'open',
      attempts_1h: 2,
      failures_1h: 2,
      open_reason: 'callers',
      opened_by_callers: 2,
      open_for_callers: 2,
    });
    expect(Date.parse(rows[0]!.last_failure_at!)).toBeGreaterThan(Date.now() - 60_000);
    // Closed with one caller's failure: no reason shown.
    expect(rows[1]).toMatchObject({
      state: 'closed',
      attempts_1h: 1,
      failures_1h: 1,
      open_reason: null,
      opened_by_callers: 0,
      open_for_callers: 0,
    });
    expect(rows[2]).toEqual({
      url: urls[2],
      weight: 3,
      state: 'closed',
      last_failure_at: null,
      attempts_1h: 0,
      failures_1h: 0,
      open_reason: null,
      opened_by_callers: 0,
      open_for_callers: 0,
    });
    // Probing still shows why it opened.
    a.openUntil = Date.now() - 1;
    a.probeUntil = Date.now() + 60_000;
    expect(upstreamHealth(real, 'ep', [{ url: urls[0]!, weight: 1 }])[0]).toMatchObject({
      state: 'probing',
      open_reason: 'callers',
      opened_by_callers: 2,
    });
    circuits.close();
  });

  it("gauges each route and host's circuit (the worse of two upstreams on one host), without a URL", async () => {
    const circuits = new Circuits({
      redisUrl: undefined,
      publish: async () => {},
      log: { warn() {} } as never,
    });
    const registry = new Registry();
    circuitStateGauge(registry, circuits);
    const now = Date.now();
    const set = (key: string, route: string, host: string, state: 'closed' | 'open' | 'probing') => {
      const health = circuits.health({ circuitKey: key, host }, route);
      health.openUntil = state === 'closed' ? 0 : state === 'open' ? now + 60_000 : now - 1;
      health.probeUntil = state === 'probing' ? now + 60_000 : 0;
    };
    set('k1', 'r/closed', 'h', 'closed');
    set('k2', 'r/closed', 'h', 'closed');
    set('k3', 'r/probing', 'h', 'closed');
    set('k4', 'r/probing', 'h', 'probing');
    set('k5', 'r/open', 'h', 'probing');
    set('k6', 'r/open', 'h', 'open');
    set('k7', 'r/open-first', 'h', 'open');
    set('k8', 'r/open-first', 'h', 'probing');
    set('k9', 'r/open-first', 'h', 'closed');
    set('k10', 'r/open', 'other', 'open');
    // Known only from another instance's message: no label.
    circuits.apply({ kind: 'circuit', circuit: 'k11', until: now + 60_000 });
    const metric = await registry.getSingleMetric('air_gateway_upstream_circuit_state')!.get();
    const values = Object.fromEntries(
      metric.values.map((v) => [`${v.labels.route} ${v.labels.upstream}`, v.value]),
    );
    expect(values).toEqual({
      'r/closed h': 0,
      'r/probing h': 2,
      'r/open h': 1,
      'r/open-first h': 1,
      'r/open other': 1,
    });
    // Collected afresh each time.
    set('k10', 'r/open', 'other', 'closed');
    const again = await registry.getSingleMetric('air_gateway_upstream_circuit_state')!.get();
    expect(again.values.find((v) => v.labels.upstream === 'other')?.value).toBe(0);
    expect(again.values).toHaveLength(5);
    // A renamed route's old label goes.
    circuits.health({ circuitKey: 'k10', host: 'other' }, 'r/renamed');
    const renamed = await registry.getSingleMetric('air_gateway_upstream_circuit_state')!.get();
    expect(renamed.values.map((v) => `${v.labels.route} ${v.labels.upstream}`).sort()).toEqual([
      'r/closed h',
      'r/open h',
      'r/open-first h',
      'r/probing h',
      'r/renamed other',
    ]);
  });
});
