import { request, type Dispatcher } from 'undici';
import type { TLog } from '../../core/services';
import type { TDb } from '../../db/client';
import { isIP } from 'node:net';
import { decryptSecret } from '../../lib/crypto';
import { isPrivateAddress } from '../../lib/upstream-address';
import { claimDue, nextDueAt, recordAttempt, type TClaimed, type TOutcome } from './queue';
import { signedHeaders } from './signing';

const BATCH = 20;
const SEND_TIMEOUT_MS = 10_000;
/** Polled at least this often, for what another instance queued or a killed one left behind. */
const IDLE_POLL_MS = 15_000;
/** Bytes of an error answer kept for the delivery log. */
const ERROR_TEXT = 200;

export interface TWorkerOptions {
  db: TDb;
  secret: string;
  /** The upstreams' agent rule: guarded against private addresses unless they are allowed. */
  agent: Dispatcher;
  /** UPSTREAM_ALLOW_PRIVATE: the agent checks resolved names; an IP literal is checked here. */
  allowPrivate: boolean;
  log: TLog;
  /** The retry schedule's clock (tests move it instead of waiting hours). */
  now?: () => number;
}

/**
 * Sends queued deliveries: claims the due ones (queue.ts), posts each signed body, records the
 * outcome, and repeats while anything is due; then sleeps until the next due attempt (or the idle
 * poll). One run at a time per instance; instances share the queue through their claims.
 */
export class DeliveryWorker {
  now: () => number;
  private running: Promise<number> | null = null;
  private next: Promise<number> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: TWorkerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Starts the loop (the app's plugin calls it when the server is ready). */
  start(): void {
    this.wake();
  }

  /** Something was queued here: run now instead of waiting for the poll. */
  wake(): void {
    if (this.closed) return;
    void this.run().catch((error: unknown) =>
      this.options.log.error({ err: error }, 'webhook delivery run failed'),
    );
  }

  /**
   * Sends everything due now; resolves with the attempts made (tests await it). Called during a
   * run, it answers a fresh run that starts when that one ends, so what is due at the call's
   * moment is always seen.
   */
  run(): Promise<number> {
    if (this.running) {
      this.next ??= this.running
        .catch(() => 0)
        .then(() => {
          this.next = null;
          return this.run();
        });
      return this.next;
    }
    const running = this.drain().finally(() => {
      this.running = null;
      if (!this.next) void this.schedule();
    });
    this.running = running;
    return running;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  private async drain(): Promise<number> {
    let attempts = 0;
    while (!this.closed) {
      const claimed = await claimDue(this.options.db, this.now(), BATCH);
      if (claimed.length === 0) break;
      await Promise.all(claimed.map((claim) => this.attempt(claim)));
      attempts += claimed.length;
    }
    return attempts;
  }

  private async attempt(claim: TClaimed): Promise<void> {
    const outcome = await this.send(claim);
    await recordAttempt(this.options.db, claim, outcome, this.now());
  }

  private async send(claim: TClaimed): Promise<TOutcome> {
    const host = new URL(claim.url).hostname.replace(/^\[|\]$/g, '');
    if (!this.options.allowPrivate && isIP(host) !== 0 && isPrivateAddress(host))
      return { ok: false, status: null, error: 'EAI_PRIVATE' };
    try {
      const secret = decryptSecret(this.options.secret, claim.secretEnc);
      const answer = await request(claim.url, {
        method: 'POST',
        body: claim.body,
        headers: signedHeaders(secret, claim.id, claim.body, this.now()),
        dispatcher: this.options.agent,
        headersTimeout: SEND_TIMEOUT_MS,
        bodyTimeout: SEND_TIMEOUT_MS,
      });
      const text = (await answer.body.text()).slice(0, ERROR_TEXT);
      const ok = answer.statusCode >= 200 && answer.statusCode < 300;
      return { ok, status: answer.statusCode, error: ok ? null : text || `HTTP ${answer.statusCode}` };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return { ok: false, status: null, error: code ?? (error instanceof Error ? error.message : 'failed') };
    }
  }

  private async schedule(): Promise<void> {
    if (this.closed) return;
    clearTimeout(this.timer);
    let delay = IDLE_POLL_MS;
    try {
      const due = await nextDueAt(this.options.db);
      if (due !== null) delay = Math.min(delay, Math.max(due - this.now(), 50));
    } catch (error) {
      this.options.log.error({ err: error }, 'webhook queue poll failed');
    }
    if (this.closed) return;
    this.timer = setTimeout(() => this.wake(), delay);
    this.timer.unref();
  }
}
