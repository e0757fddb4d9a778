import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityEvents } from '../src/db/schema/activity';
import { invoices } from '../src/db/schema/invoices';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, createActor, type TActor } from './support/actors';

/*
 * Decision 051: one pagination style on the console API's lists, `?cursor=&limit=` in and
 * `{ items, next_cursor }` out. `limit` is honoured within its bounds, and walking a list by its
 * cursors meets every row once, none twice and none missed, while rows are inserted between
 * pages (an offset page would show a row again once a newer one pushed it down). Runs on both
 * databases.
 */
let t: TTestApp;
let owner: TActor;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createActor(t.app, { role: 'owner' });
});
afterAll(async () => {
  await t?.close();
});

interface TPage {
  items: { id: string }[];
  next_cursor: string | null;
}

async function page(url: string): Promise<TPage> {
  const answer = await t.app.inject({ url, headers: bearer(owner.token) });
  expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
  return (answer.json() as { data: TPage }).data;
}

/** Every id met walking `url` by `limit`, calling `between` after each page. */
async function walk(url: string, limit: number, between: () => Promise<void>) {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const sep = url.includes('?') ? '&' : '?';
    const got = await page(`${url}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(got.items.length).toBeLessThanOrEqual(limit);
    if (got.next_cursor) expect(got.items).toHaveLength(limit);
    seen.push(...got.items.map((item) => item.id));
    cursor = got.next_cursor;
    if (!cursor) return seen;
    await between();
  }
  throw new Error(`${url}: the walk did not end`);
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describe('cursor pages', () => {
  it('walks the activity log once over, newest first, while new entries arrive', async () => {
    // Seven entries, two of them at the very same instant (the id breaks the tie).
    const same = minutesAgo(30);
    const times = [
      minutesAgo(10),
      minutesAgo(20),
      same,
      same,
      minutesAgo(40),
      minutesAgo(50),
      minutesAgo(60),
    ];
    const rows = await t.db
      .insert(activityEvents)
      .values(
        times.map((createdAt, n) => ({
          accountId: owner.accountId,
          type: 'key.created',
          data: { name: `k${n}` },
          createdAt,
        })),
      )
      .returning({ id: activityEvents.id, createdAt: activityEvents.createdAt });
    const expected = [...rows]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .map((row) => row.id);
    let added = 0;
    const seen = await walk('/api/account/activity?type=key.created', 3, async () => {
      added += 1;
      await t.db.insert(activityEvents).values({
        accountId: owner.accountId,
        type: 'key.created',
        data: { name: `new${added}` },
      });
    });
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(seen.length);
    // The first page, asked again, starts with what arrived meanwhile.
    expect((await page('/api/account/activity?type=key.created&limit=2')).items).toHaveLength(2);
    expect((await page('/api/account/activity?type=key.created&limit=50')).items).toHaveLength(7 + added);
  });

  it('walks the invoices once over while an invoice is written between pages', async () => {
    const mark = owner.accountId.slice(0, 8).toUpperCase();
    const write = (n: number, date: Date) => ({
      accountId: owner.accountId,
      number: `INV-${mark}-${String(n).padStart(4, '0')}`,
      date,
      status: 'paid',
      total: 100 * n,
      currency: 'usd',
    });
    const same = minutesAgo(300);
    const rows = await t.db
      .insert(invoices)
      .values([
        write(1, minutesAgo(500)),
        write(2, same),
        write(3, same),
        write(4, minutesAgo(100)),
        write(5, minutesAgo(50)),
      ])
      .returning({ id: invoices.id, number: invoices.number });
    const byNumber = new Map(rows.map((row) => [row.number, row.id]));
    const expected = ['0005', '0004', '0003', '0002', '0001'].map((n) => byNumber.get(`INV-${mark}-${n}`)!);
    let next = 6;
    const seen = await walk('/api/account/invoice', 2, async () => {
      await t.db.insert(invoices).values(write(next++, new Date()));
    });
    expect(seen).toEqual(expected);
  });

  it('honours limit within its bounds and refuses one outside them, or a forged cursor', async () => {
    expect((await page('/api/account/activity?limit=1')).items).toHaveLength(1);
    expect((await page('/api/account/invoice?limit=1')).items).toHaveLength(1);
    const refusals = [
      '/api/account/activity?limit=0',
      '/api/account/activity?limit=201',
      '/api/account/invoice?limit=abc',
      '/api/account/usage/log?limit=201',
      '/api/marketplace?limit=49',
      '/api/account/activity?cursor=bm90LWEtY3Vyc29y',
      '/api/account/invoice?cursor=bm90LWEtY3Vyc29y',
      '/api/account/usage/log?cursor=bm90LWEtY3Vyc29y',
    ];
    for (const url of refusals) {
      const answer = await t.app.inject({
        url,
        headers: { ...bearer(owner.token), 'accept-language': 'es' },
      });
      expect(answer.statusCode, `${url}: ${answer.body}`).toBe(400);
      const body = answer.json() as { code: string; inputError: string; message: string };
      expect(body).toMatchObject({
        code: 'validation',
        inputError: url.includes('cursor=') ? 'cursor' : 'limit',
      });
      expect(body.message).not.toMatch(/\b(is|must)\b/);
    }
  });

  it('gives the catalog (contract 5a) its page of 24 and honours a smaller limit', async () => {
    const catalog = await t.app.inject({ url: '/api/marketplace?limit=8' });
    expect(catalog.statusCode).toBe(200);
    expect(catalog.json().data).toEqual({ items: expect.any(Array), next_cursor: null });
  });
});
