import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TApp } from '../src/app';

/* The usage and overview tests' fixtures: their plans, and the gateway called in-process. */

/**
 * A plans file in a fresh temporary folder: free flat plans of 1000 calls a minute, one per
 * `[id, name, monthly quota]`, sorted as given.
 */
export function freePlansFile(plans: Array<[id: string, name: string, quotaCallsMonth: number]>): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'air-plans-')), 'plans.json');
  const base = { currency: 'usd', currency_symbol: '$', interval: 'month', type: 'flat', price: 0 };
  writeFileSync(
    file,
    JSON.stringify({
      plans: plans.map(([id, name, quota], sort) => ({
        ...base,
        id,
        name,
        quota_calls_month: quota,
        rate_limit_per_minute: 1000,
        sort,
      })),
    }),
  );
  return file;
}

/** One chat call through the app's gateway with the key given; `stream` is sent only when given. */
export function injectChat(app: TApp, rawKey: string, model: string, stream?: boolean) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/chat/completions',
    headers: { authorization: `Bearer ${rawKey}`, 'content-type': 'application/json' },
    payload: { model, stream, messages: [{ role: 'user', content: 'Hi' }] },
  });
}
