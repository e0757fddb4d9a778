import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  intentOf,
  invoiceMetadata,
  planMetadata,
  ZPlanIntent,
  type TInvoiceIntent,
  type TPlanIntent,
} from '../src/modules/billing/intent';

const plan: TPlanIntent = {
  accountId: 'acc-1',
  planId: 'pro',
  mode: 'prorate',
  seats: 3,
  lines: [{ description: 'Pro (prorated change from Basic)', quantity: 1, unitAmount: 1234, amount: 1234 }],
  periodStart: null,
  onCard: { ref: 'pm_1', card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 } },
  actorUserId: 'user-1',
};

describe('payment intents (the processor metadata of a charge)', () => {
  it('writes a plan change as the string metadata the processors keep, and reads it back whole', () => {
    const meta = planMetadata(plan);
    expect(meta).toEqual({
      account_id: 'acc-1',
      action: 'plan',
      plan: 'pro',
      mode: 'prorate',
      seats: '3',
      lines: JSON.stringify(plan.lines),
      pm: 'pm_1',
      brand: 'visa',
      last4: '4242',
      exp_month: '12',
      exp_year: '2030',
      actor: 'user-1',
    });
    expect(Object.values(meta).every((value) => typeof value === 'string')).toBe(true);
    expect(intentOf(meta)).toEqual({ action: 'plan', intent: plan });
  });

  it('reads an invoice payment without a card or actor (a renewal) and one with both', () => {
    const bare: TInvoiceIntent = { accountId: 'acc-1', invoiceId: 'inv-1', onCard: null, actorUserId: null };
    expect(invoiceMetadata(bare)).toEqual({ account_id: 'acc-1', action: 'invoice', invoice_id: 'inv-1' });
    expect(intentOf(invoiceMetadata(bare))).toEqual({ action: 'invoice', intent: bare });
    const full = { ...bare, onCard: plan.onCard, actorUserId: 'user-2' };
    expect(intentOf(invoiceMetadata(full))).toEqual({ action: 'invoice', intent: full });
  });

  it('keeps a period start that older payments carry', () => {
    const meta = { ...planMetadata({ ...plan, mode: 'new' }), period_start: '2026-01-31T00:00:00.000Z' };
    const read = intentOf(meta);
    expect(read?.action === 'plan' && read.intent.periodStart?.toISOString()).toBe(
      '2026-01-31T00:00:00.000Z',
    );
  });

  it('answers null for metadata that is not one of ours or is damaged, instead of applying it', () => {
    expect(intentOf({ account_id: 'acc-1' })).toBeNull();
    expect(intentOf({ ...planMetadata(plan), action: 'refund' })).toBeNull();
    expect(intentOf({ ...planMetadata(plan), lines: '[{' })).toBeNull();
    expect(intentOf({ ...planMetadata(plan), seats: 'three' })).toBeNull();
    expect(intentOf({ ...planMetadata(plan), mode: 'sideways' })).toBeNull();
    expect(intentOf({ ...planMetadata(plan), lines: '[{"amount":"1"}]' })).toBeNull();
    expect(() => z.decode(ZPlanIntent, { ...planMetadata(plan), account_id: '' } as never)).toThrow();
  });
});
