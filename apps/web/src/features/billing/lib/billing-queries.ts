import type { QueryClient } from '@tanstack/react-query';
import type { TSessionUser } from '@/lib/session';
import { call } from '@/lib/api';
import { updateUser } from '@/lib/session';

/** The billing reads (spec section 7); useApiQuery caches each under its call's name. */
export const BILLING_READS = [
  'GET /api/account/plans',
  'GET /api/account/subscription',
  'GET /api/account/card',
  'GET /api/account/invoice',
  'GET /api/account/usage',
] as const;

/**
 * After any billing write: the stored user takes the plan and subscription the server now has
 * (the route guard and the banners read them), and every billing read is fetched again.
 */
export async function afterBillingChange(queryClient: QueryClient, answer: unknown) {
  if (answer && typeof answer === 'object' && 'plan' in answer) updateUser(answer as TSessionUser);
  await Promise.all(
    [...BILLING_READS, 'GET /api/account/plan/preview'].map((name) =>
      queryClient.invalidateQueries({ queryKey: [name] }),
    ),
  );
  try {
    const res = await call('GET /api/auth');
    if (res.data?.authenticated) {
      const { authenticated: _authenticated, ...user } = res.data;
      updateUser(user);
    }
  } catch {
    // The answer above already carried the new plan; the next auth check refreshes the rest.
  }
}
