import { z } from 'zod';

/**
 * A billing plan as configured in the plans file (apps/server/src/billing/plans.json or PLANS_FILE).
 * Prices are minor units (cents). `type: 'tiered'` means priced per seat.
 */
export const ZPlan = z.strictObject({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9_-]+$/),
  name: z.string().min(1).max(100),
  price: z.number().int().min(0),
  currency: z
    .string()
    .length(3)
    .regex(/^[a-z]{3}$/),
  currency_symbol: z.string().min(1).max(4),
  interval: z.enum(['month', 'year']),
  type: z.enum(['flat', 'tiered']),
  quota_calls_month: z.number().int().min(0),
  rate_limit_per_minute: z.number().int().min(1),
  /**
   * Prompt plus completion tokens per key and minute (contract 6e), as the rate limit is per key;
   * a key's own `tokens_per_minute` may be lower. null or absent: no token limit.
   */
  tokens_per_minute: z.number().int().min(1).max(1_000_000_000).nullable().default(null),
  sort: z.number().int().default(0),
});
export type TPlan = z.infer<typeof ZPlan>;

export const ZPlanFile = z
  .strictObject({ plans: z.array(ZPlan).min(1) })
  .refine((file) => file.plans.some((plan) => plan.id === 'free' && plan.price === 0), {
    message: 'the plans file must contain a "free" plan with price 0',
  })
  .refine((file) => new Set(file.plans.map((plan) => plan.id)).size === file.plans.length, {
    message: 'plan ids must be unique',
  });
export type TPlanFile = z.infer<typeof ZPlanFile>;
