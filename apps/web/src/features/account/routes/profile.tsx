import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { hasPermission } from '@air/shared/permissions';
import { Form } from '@/components/form/form';
import type { TFormFields, TFormValues } from '@/components/form/types';
import { PageHeading } from '@/components/layout/page-heading';
import { toast } from '@/components/ui/use-toast';
import { DangerZone } from '@/features/account/components/danger-zone';
import { useApiQuery } from '@/features/account/lib/use-api-query';
import { updateUser, useSession, type TSessionUser } from '@/lib/session';

type TProfile = TSessionUser & { account_name?: string };

const PROFILE_URL = '/api/user';

/**
 * /account/profile (GET/PATCH /api/user): name, email, account name (owners only), default
 * account (only with more than one account), support access, and the Danger Zone. A save that
 * leaves the user unverified (an email change) goes to /signup/verify (spec section 4).
 */
export default function ProfilePage() {
  const { t } = useTranslation(['account', 'form']);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const query = useApiQuery<TProfile>(PROFILE_URL);
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
      required: true,
      maxLength: 100,
      value: profile.name ?? '',
      errorMessage: t('form:form.messages.name'),
    },
    email: {
      type: 'email',
      label: t('account:profile.email'),
      required: true,
      value: profile.email ?? '',
      errorMessage: t('form:form.messages.email'),
    },
    account_name: {
      type: owner ? 'text' : null,
      label: t('account:profile.accountName'),
      required: true,
      maxLength: 100,
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
    const emailChanged = typeof sent.email === 'string' && sent.email.trim() !== (profile.email ?? '');
    // The server un-verifies a changed email; older answers may omit the flag, so infer it then.
    const verified =
      typeof answer.verified === 'boolean' ? answer.verified : emailChanged ? false : undefined;
    const patch: Partial<TProfile> = {
      name: sent.name as string,
      email: typeof sent.email === 'string' ? sent.email.trim() : profile.email,
      support_enabled: sent.support_enabled === true,
      ...answer,
    };
    if (typeof sent.default_account === 'string') patch.default_account = sent.default_account;
    if (typeof sent.account_name === 'string' && profile.account_id) {
      patch.accounts = accounts.map((account) =>
        account.id === profile.account_id ? { ...account, name: sent.account_name as string } : account,
      );
    }
    if (verified !== undefined) patch.verified = verified;
    delete patch.account_name;
    updateUser(patch);
    void queryClient.invalidateQueries({ queryKey: [PROFILE_URL] });
    if (verified === false) {
      toast({ variant: 'info', title: t('account:profile.emailChanged') });
      void navigate('/signup/verify');
    } else if (!serverMessage) {
      toast({ variant: 'success', title: t('account:profile.saved') });
    }
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
            url={PROFILE_URL}
            method="PATCH"
            buttonText={t('account:profile.save')}
            onSuccess={(response, sent) => saved(response.data, sent, Boolean(response.message))}
          />
          <DangerZone owner={owner} />
        </div>
      )}
    </>
  );
}
