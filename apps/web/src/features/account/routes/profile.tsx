import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { hasPermission } from '@air/shared/permissions';
import { ZUserUpdate, type TUser } from '@air/shared/schemas/user';
import { Form } from '@/components/form/form';
import type { TFormFields, TFormValues } from '@/components/form/types';
import { PageHeading } from '@/components/layout/page-heading';
import { toast } from '@/components/ui/use-toast';
import { DangerZone } from '@/features/account/components/danger-zone';
import { MarketplaceProfileForm } from '@/features/account/components/marketplace-profile';
import { SessionList } from '@/features/account/components/session-list';
import { useApiQuery } from '@/features/account/lib/use-api-query';
import { updateUser, useSession } from '@/lib/session';

type TProfile = Partial<TUser>;

/**
 * /account/profile (GET/PATCH /api/user): name, email, account name (owners only), default
 * account (only with more than one account), support access, and the Danger Zone. Changing the
 * email asks for the current password (or, without one, a two-factor code); the new address takes
 * over only once its verification link is opened, so the form keeps showing the current one.
 */
export default function ProfilePage() {
  const { t } = useTranslation(['account', 'form']);
  const queryClient = useQueryClient();
  const { user } = useSession();
  const query = useApiQuery('GET /api/user');
  const profile: TProfile = { ...user, ...(query.data ?? {}) };
  const permission = profile.permission ?? user?.permission;
  const owner = hasPermission(permission, 'owner');
  const accounts = Array.isArray(profile.accounts) ? profile.accounts : [];
  const accountName =
    profile.account_name ?? accounts.find((account) => account.id === profile.account_id)?.name ?? '';

  const fields: TFormFields = {
    name: {
      type: 'text',
      label: t('account:profile.name'),
      value: profile.name ?? '',
    },
    email: {
      type: 'email',
      label: t('account:profile.email'),
      value: profile.email ?? '',
    },
    password: {
      type: profile.has_password === false ? null : 'password',
      label: t('account:profile.currentPassword'),
      description: t('account:profile.currentPasswordHint'),
      value: '',
    },
    code: {
      type: profile.has_password === false && profile['2fa_enabled'] === true ? 'text' : null,
      label: t('account:profile.twoFactorCode'),
      description: t('account:profile.currentPasswordHint'),
      value: '',
    },
    account_name: {
      type: owner ? 'text' : null,
      label: t('account:profile.accountName'),
      value: accountName,
    },
    default_account: {
      type: accounts.length > 1 ? 'select' : null,
      label: t('account:profile.defaultAccount'),
      description: t('account:profile.defaultAccountHint'),
      options: accounts.map((account) => ({ value: account.id, label: account.name })),
      value: profile.default_account ?? profile.account_id ?? '',
    },
    support_enabled: {
      type: 'switch',
      label: t('account:profile.supportEnabled'),
      description: t('account:profile.supportHint'),
      value: profile.support_enabled === true,
    },
  };

  function saved(data: unknown, sent: TFormValues, serverMessage: boolean) {
    const answer = (data && typeof data === 'object' ? data : {}) as TProfile;
    // The answer carries the address in use: a new one is pending until its link is opened.
    const patch: Partial<TProfile> = answer;
    if (typeof sent.default_account === 'string') patch.default_account = sent.default_account;
    if (typeof sent.account_name === 'string' && profile.account_id) {
      patch.accounts = accounts.map((account) =>
        account.id === profile.account_id ? { ...account, name: sent.account_name as string } : account,
      );
    }
    updateUser(patch);
    void queryClient.invalidateQueries({ queryKey: ['GET /api/user'] });
    if (!serverMessage) toast({ variant: 'success', title: t('account:profile.saved') });
  }

  return (
    <>
      <PageHeading />
      {query.isPending ? (
        <div role="status" className="flex justify-center py-8">
          <Loader2 className="size-6 animate-spin text-muted-foreground" aria-label={t('common:loading')} />
        </div>
      ) : (
        <div className="max-w-xl">
          <Form
            key={query.dataUpdatedAt}
            fields={fields}
            schema={ZUserUpdate}
            call="PATCH /api/user"
            buttonText={t('account:profile.save')}
            onSuccess={(response, sent) => saved(response.data, sent, Boolean(response.message))}
          />
          {owner && <MarketplaceProfileForm />}
          <SessionList />
          <DangerZone owner={owner} />
        </div>
      )}
    </>
  );
}
