import { routeAfterSignIn } from '@air/shared/route-guard';
import { setSession, type TSessionUser } from '@/lib/session';
import { applyStoredTheme } from '@/lib/theme';
import { applyStoredLocale } from '@/lib/i18n';

/** Router state carried from a first factor to /signin/otp. */
export interface TOtpRouteState {
  otpToken: string;
}

export function needsSecondFactor(data: unknown): data is { '2fa_required': true; token: string } {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as Record<string, unknown>)['2fa_required'] === true &&
    typeof (data as Record<string, unknown>).token === 'string'
  );
}

/**
 * Finish a sign-in from any door (password, social, magic link, OTP, impersonation), spec
 * section 4: a pending second factor goes to /signin/otp with the temporary token in router state
 * (not the URL, so it stays out of history and logs); otherwise the session is stored and the user
 * goes where routeAfterSignIn sends them.
 */
export function finishSignIn(
  data: unknown,
  navigate: (to: string, options?: { replace?: boolean; state?: TOtpRouteState }) => void,
): void {
  if (needsSecondFactor(data)) {
    navigate('/signin/otp', { state: { otpToken: data.token } });
    return;
  }
  const answer = (data ?? {}) as TSessionUser & { token?: string };
  setSession(answer);
  // The user's saved dark-mode flag and language apply unless this device has its own choice.
  applyStoredTheme();
  applyStoredLocale();
  navigate(
    routeAfterSignIn({
      verified: answer.verified === true,
      plan: answer.plan ?? null,
      onboarded: answer.onboarded === true,
    }),
    { replace: true },
  );
}
