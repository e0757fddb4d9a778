import type { TPlanOption } from '@air/shared/schemas/account';

export const FREE_PLAN = 'free';

/** A plan that charges a card (every plan but free). */
export function isPaid(plan: Pick<TPlanOption, 'id' | 'price'> | undefined): boolean {
  return Boolean(plan && plan.id !== FREE_PLAN && plan.price > 0);
}
