import { issueToken, TOKEN_TTL_MS } from '../auth-otp/service';
import { userContactByEmail } from '../identity/service';
import type { TServices, TCaller } from '../../core/services';

/**
 * Mails a single-use link (magic sign-in, password reset) when the address has an account. The
 * caller answers the same for every address: the mails one address can be sent are capped (mail
 * bombing) whether or not it exists, and a mail failure is logged, never answered.
 */
export async function mailOneTimeLink(
  app: TServices,
  request: TCaller,
  email: string,
  kind: 'magic' | 'reset',
  linkTo: (token: string, email: string) => string,
): Promise<void> {
  const keys = [`${kind}:${email}`];
  await app.attempts.reserve(keys);
  const user = await userContactByEmail(app.db, email);
  if (!user) return;
  const token = await issueToken(app.db, {
    kind,
    userId: user.id,
    email: user.email,
    ttlMs: TOKEN_TTL_MS[kind],
  });
  const url = `${app.config.appUrl.replace(/\/+$/, '')}${linkTo(encodeURIComponent(token), encodeURIComponent(user.email))}`;
  await app.mailer
    .send({ to: user.email, locale: user.locale, template: kind, params: { name: user.name, url } })
    .catch((error: unknown) => request.log.error({ err: error }, `${kind} mail failed`));
}
