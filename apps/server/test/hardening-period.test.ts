import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, createActor } from './support/actors';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('usage period from a request', () => {
  it.each([
    ['9999-12-31', '9999-12-31', 'from'],
    ['0000-01-01', '2026-01-01', 'from'],
    ['1999-12-31', '2000-01-05', 'from'],
    ['2026-13-01', '2026-12-31', 'from'],
    ['2026-02-30', '2026-03-01', 'from'],
    ['2026-01-01', '2101-01-01', 'to'],
    ['2026-01-01', '2027-01-03', 'to'],
    ['2026-01-01T00:00:00Z', '2026-01-02', 'from'],
  ])('from=%s to=%s is a 400 naming %s, at once', async (from, to, field) => {
    const actor = await createActor(t.app);
    const response = await t.app.inject({
      url: `/api/account/usage/insight?period=custom&from=${from}&to=${to}`,
      headers: bearer(actor.token),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().inputError).toBe(field);
    expect(response.json().message).toMatch(
      field === 'to' && to < '2100' ? /366 days/ : /2000-01-01 to 2100-12-31/,
    );
  });

  it('answers the edges of the supported range and a full year', async () => {
    const actor = await createActor(t.app);
    for (const [from, to] of [
      ['2000-01-01', '2000-01-01'],
      ['2100-12-31', '2100-12-31'],
      ['2024-01-01', '2024-12-31'],
    ]) {
      const response = await t.app.inject({
        url: `/api/account/usage/insight?period=custom&from=${from}&to=${to}`,
        headers: bearer(actor.token),
      });
      expect(response.statusCode, `${from}..${to}`).toBe(200);
      expect(response.json().data.caller.days.length).toBeGreaterThan(0);
    }
  });
});
