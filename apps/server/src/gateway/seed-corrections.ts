/*
 * A counter seeded again after Redis lost it (a restart, or a month dropped from it) starts from
 * the stored usage, which lacks the rows other instances still had in their meters, and the rows
 * of calls still in flight, all counted before the loss (decision 049). Each such seed is
 * corrected a few times afterwards: the stored figure of the calls from before the loss is read
 * again, and what it grew by is added to the counter, if the counter is still that seed's (a seed
 * token in Redis says so). A counter seeded with no loss behind it (a month's first call) needs
 * no correction and gets none.
 */

/** After the seed: the meters have flushed (1 s), then calls in flight at the loss have ended. */
export const SEED_CORRECTION_DELAYS_MS: readonly number[] = [3_000, 15_000, 60_000, 300_000];

/** How long a loss stays worth correcting for: past the last pass, no late row can come. */
export const LOSS_MEMORY_MS = 360_000;

export interface TSeedCorrection {
  /** What the counter lacks so far, in its own units (calls, nanos): never less than before. */
  lacking(): Promise<number>;
  /** Adds `delta` if the counter is still the seed's; false: seeded again, or gone. */
  add(delta: number): Promise<boolean>;
}

interface TPending {
  correction: TSeedCorrection;
  seededAt: number;
  pass: number;
  added: number;
}

export class SeedCorrections {
  private pending: TPending[] = [];
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(
    /** Writes this instance's pending usage, so a read sees it. */
    private readonly beforeRead: () => Promise<void>,
    private readonly warn: (error: unknown, message: string) => void,
    private readonly delays: readonly number[] = SEED_CORRECTION_DELAYS_MS,
    private readonly now: () => number = Date.now,
  ) {}

  add(correction: TSeedCorrection): void {
    this.pending.push({ correction, seededAt: this.now(), pass: 0, added: 0 });
    this.schedule();
  }

  /** Corrections still to run (for tests and the health of a shutdown). */
  size(): number {
    return this.pending.length;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = [];
  }

  private schedule(): void {
    if (this.timer || this.running || this.pending.length === 0) return;
    const next = Math.min(...this.pending.map((entry) => entry.seededAt + this.delays[entry.pass]!));
    this.timer = setTimeout(
      () => {
        this.timer = null;
        void this.run();
      },
      Math.max(0, next - this.now()),
    );
    this.timer.unref();
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      const time = this.now();
      const due = this.pending.filter((entry) => entry.seededAt + this.delays[entry.pass]! <= time);
      // A due correction uses its pass up whatever happens below: when the usage cannot be written
      // (the database is down), it waits for its next pass instead of being tried again at once.
      for (const entry of due) entry.pass++;
      if (due.length > 0) await this.beforeRead();
      for (const entry of due) {
        try {
          const lacking = await entry.correction.lacking();
          if (lacking > entry.added) {
            const kept = await entry.correction.add(lacking - entry.added);
            entry.added = lacking;
            if (!kept) entry.pass = this.delays.length;
          }
        } catch (error) {
          // Tried again at the next pass; a counter that stays unreachable is re-seeded anyway.
          this.warn(error, 'gateway: a re-seeded counter not corrected yet');
        }
      }
    } catch (error) {
      this.warn(error, 'gateway: re-seeded counters not corrected yet');
    } finally {
      this.pending = this.pending.filter((entry) => entry.pass < this.delays.length);
      this.running = false;
      this.schedule();
    }
  }
}
