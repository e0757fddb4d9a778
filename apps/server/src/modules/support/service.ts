import { and, count, eq, gt, sql } from 'drizzle-orm';
import { SUPPORT_MESSAGES_PER_HOUR, type TSupportMail } from '@air/shared/schemas/support';
import { planById } from '../billing/service';
import { supportMessages } from '../../db/schema/support-messages';
import { AppError } from '../../lib/app-error';
import { lockUserContact } from '../identity/service';
import { accountSummary } from '../membership/service';
import type { TServices } from '../../core/services';

const HOUR_MS = 3_600_000;

/**
 * `POST /api/utility/mail`: sends the help page's message to SUPPORT_EMAIL with who sent it
 * (account, user, plan) and a copy to the user's own address (never to the typed-in one, so the
 * form cannot mail strangers). At most 5 an hour per user: the user's row is locked while the
 * hour's messages are counted and this one recorded, so concurrent requests cannot all pass.
 */
export async function sendSupportMessage(
  app: TServices,
  sender: { userId: string; accountId: string },
  body: TSupportMail,
): Promise<void> {
  const supportEmail = app.config.supportEmail;
  if (!supportEmail) throw new AppError('service_unavailable', { messageKey: 'support.not_configured' });

  const claim = await app.db.transaction(async (tx) => {
    const user = await lockUserContact(tx, sender.userId);
    if (!user) throw new AppError('unauthenticated');
    const [recent] = await tx
      .select({ total: count() })
      .from(supportMessages)
      .where(
        and(
          eq(supportMessages.userId, sender.userId),
          gt(supportMessages.createdAt, sql`now() - interval '1 hour'`),
        ),
      );
    if (Number(recent?.total ?? 0) >= SUPPORT_MESSAGES_PER_HOUR) {
      const [oldest] = await tx
        .select({ at: sql<string>`min(${supportMessages.createdAt})::text` })
        .from(supportMessages)
        .where(
          and(
            eq(supportMessages.userId, sender.userId),
            gt(supportMessages.createdAt, sql`now() - interval '1 hour'`),
          ),
        );
      const retryAfterMs = oldest?.at ? Date.parse(oldest.at) + HOUR_MS - Date.now() : HOUR_MS;
      throw new AppError('rate_limited', {
        messageKey: 'support.too_many',
        retryAfter: Math.max(1, Math.ceil(retryAfterMs / 1000)),
      });
    }
    const [row] = await tx
      .insert(supportMessages)
      .values({ userId: sender.userId, accountId: sender.accountId })
      .returning({ id: supportMessages.id });
    return { id: row!.id, user };
  });

  const account = await accountSummary(app.db, sender.accountId);
  const plan = account?.planId ? await planById(app.db, app.plans, account.planId) : null;
  const params = {
    contact_name: body.name,
    contact_email: body.email,
    message: body.message,
    user_name: claim.user.name,
    user_email: claim.user.email,
    user_id: claim.user.id,
    account_name: account?.name ?? '',
    account_id: sender.accountId,
    plan: plan?.name ?? account?.planId ?? 'none',
  };
  try {
    await app.mailer.send({ to: supportEmail, locale: 'en', template: 'support_request', params });
  } catch (error) {
    // Not sent: the message must not count against the user's hourly limit.
    await app.db.delete(supportMessages).where(eq(supportMessages.id, claim.id));
    app.log.error({ err: error }, 'support mail failed');
    throw new AppError('service_unavailable', { cause: error });
  }
  await app.mailer
    .send({ to: claim.user.email, locale: claim.user.locale, template: 'support_copy', params })
    .catch((error: unknown) => app.log.error({ err: error }, 'support copy mail failed'));
}
