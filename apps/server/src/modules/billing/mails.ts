import type { TNotificationName } from '@air/shared/schemas/notification';
import { ownerContacts } from '../membership/service';
import { isNotificationOn } from '../notification/service';
import type { TBilling } from './context';

export type TBillingMail =
  | { template: 'plan_updated'; params: { plan: string; detail: string } }
  | { template: 'card_updated'; params: { brand: string; last4: string } }
  | {
      template: 'billing_status';
      params: {
        kind: 'renewed' | 'payment_failed' | 'action_required' | 'canceled';
        plan: string;
        amount: string;
      };
    };

const PREFERENCE: Partial<Record<TBillingMail['template'], TNotificationName>> = {
  plan_updated: 'plan_updated',
  card_updated: 'card_updated',
};

/**
 * Mails the account's owners. plan_updated and card_updated respect each owner's preference;
 * renewal and dunning mails are about money owed and always go. A failed mail is logged, never
 * fails the billing change.
 */
export async function mailOwners(b: TBilling, accountId: string, mail: TBillingMail): Promise<void> {
  try {
    const owners = await ownerContacts(b.db, accountId);
    const preference = PREFERENCE[mail.template];
    for (const owner of owners) {
      if (preference && !(await isNotificationOn(b.db, owner.id, preference))) continue;
      await b.mailer.send({
        to: owner.email,
        locale: owner.locale,
        template: mail.template,
        params: { name: owner.name, ...mail.params },
      });
    }
  } catch (error) {
    b.log.error({ err: error, template: mail.template }, 'billing mail failed');
  }
}
