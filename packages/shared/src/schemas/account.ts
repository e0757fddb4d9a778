import { z } from 'zod';
import { ZPlanChange, type TPlanChange } from './billing';
import { ZEmail, ZName, ZStrongPassword } from './user';

/** Sign-up: `POST /api/account`. `confirm_password` is sent hidden and empty: a bot trap. */
export const ZSignUp = z.strictObject({
  name: ZName,
  email: ZEmail,
  password: ZStrongPassword,
  confirm_password: z.string().max(200).optional(),
});
export type TSignUp = z.infer<typeof ZSignUp>;

/** `POST /api/account/plan` (at sign-up) and `PATCH /api/account/plan`: see ZPlanChange (billing). */
export const ZPlanChoice = ZPlanChange;
export type TPlanChoice = TPlanChange;

/** A plan as the plan form lists it (spec section 3: Plan). */
export const ZPlanOption = z.object({
  id: z.string(),
  name: z.string(),
  price: z.number().int(),
  currency: z.object({ code: z.string(), symbol: z.string() }),
  interval: z.string(),
  type: z.string(),
  quota_calls_month: z.number().int(),
  rate_limit_per_minute: z.number().int(),
  /** Tokens per key and minute, or null for no token limit (contract 6e). */
  tokens_per_minute: z.number().int().nullable(),
});
export type TPlanOption = z.infer<typeof ZPlanOption>;

/** `GET /api/account/plans`: the plans, the active plan id (null before one is chosen) and the select's options. */
export const ZPlansAnswer = z.object({
  plans: z.array(ZPlanOption),
  active: z.string().nullable(),
  options: z.array(z.object({ value: z.string(), label: z.string() })),
});
export type TPlansAnswer = z.infer<typeof ZPlansAnswer>;
