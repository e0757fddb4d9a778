import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meterBatches, usageEvents } from '../src/db/schema';
import { UsageJournal, type TJournalSegment } from '../src/modules/usage/journal';
import { insertUsageRows, Meter } from '../src/modules/usage/metering';
import { insertAccount } from './gateway-fixtures';
import { createTestApp, type TTestApp } from './helpers';

/*
 * Issue 37, item 7a: a crash after a batch was committed but before its journal segment was
 * deleted leaves a segment whose rows are already in usage_events (its name in meter_batches).
 * The next start must skip it (no call metered twice) and still replay the segment that was not
 * committed; replaying the committed one again would also fail the start on meter_batches' key.
 */

let t: TTestApp;
let dir: string;

beforeAll(async () => {
  t = await createTestApp();
  dir = mkdtempSync(path.join(os.tmpdir(), 'air-journal-replay-'));
});

afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A call of `accountId` that ended with `status` (the status tells the calls apart). */
function journalCall(journal: UsageJournal, accountId: string, status: number) {
  const id = journal.start(
    {
      callerAccountId: accountId,
      keyId: '00000000-0000-4000-8000-000000000001',
      endpointId: '00000000-0000-4000-8000-000000000002',
      providerAccountId: accountId,
    },
    Date.now(),
  );
  journal.end(id, {
    status,
    latencyMs: 5,
    promptTokens: 3,
    completionTokens: 4,
    tokensEstimated: false,
    streamed: false,
    errorCode: null,
    attempts: 1,
    cacheHit: false,
    createdAt: new Date(),
  });
}

describe('usage journal replay after a crash', () => {
  it('skips a segment already committed, replays the other, and starts', async () => {
    const account = await insertAccount(t.db, 'Journal replay');
    // The run that crashes: two calls in a first segment, one more in the second.
    const crashed = new UsageJournal(dir);
    crashed.open();
    journalCall(crashed, account.id, 200);
    journalCall(crashed, account.id, 201);
    const committedName = crashed.rotate();
    journalCall(crashed, account.id, 202);
    crashed.sync();

    // Its meter committed the first segment (its rows and its name, as Meter.write does), then
    // the process died before deleting the file. Nothing is closed.
    const committed: TJournalSegment = UsageJournal.recover(dir).find((s) => s.name === committedName)!;
    expect(committed.rows.map((row) => row.status).sort()).toEqual([200, 201]);
    await insertUsageRows(t.db, committed.rows);
    await t.db.insert(meterBatches).values({ segment: committedName });
    expect(readdirSync(dir)).toHaveLength(2);

    const meter = new Meter(t.db, t.app.log, { journalDir: dir });
    await expect(meter.open()).resolves.toBeUndefined();
    await meter.close();

    const rows = await t.db
      .select({ status: usageEvents.status })
      .from(usageEvents)
      .where(eq(usageEvents.callerAccountId, account.id));
    // Each call once: the committed two not again, the uncommitted one replayed.
    expect(rows.map((row) => row.status).sort()).toEqual([200, 201, 202]);
    // Both old segments are gone (the new run's clean close left none of its own).
    expect(readdirSync(dir)).toEqual([]);
  });
});
