import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import type { TInviteInfo } from '@air/shared/schemas/membership';
import { ZInvitedSignUp, ZInvitedSignUpExisting, ZInvitedSignUpNew } from '@air/shared/schemas/user';
import { PageHeading } from '@/components/layout/page-heading';
import type { TFormFields } from '@/components/form/types';
import { SignupForm, useSignupFields } from '@/features/auth/components/signup-form';
import { ApiError, call } from '@/lib/api';
import { useSession } from '@/lib/session';
import { LoadingStatus } from '@/components/ui/loading-status';

function JoinExisting({ token, info }: { token: string; info: TInviteInfo }) {
  const { t } = useTranslation('signup');
  const { user } = useSession();
  const signedInAsInvitee = user?.email?.toLowerCase() === info.email;
  // Signed in as the invited address: the session confirms. Otherwise the current password does.
  const fields = {
    email: { type: 'email' as const, label: t('form.email'), value: info.email, readonly: true },
    ...(signedInAsInvitee
      ? {}
      : {
          password: {
            type: 'password' as const,
            label: t('invite.currentPassword'),
          },
        }),
    invite_id: { type: 'hidden' as const, value: token },
  };
  return (
    <>
      <p className="mb-6 text-sm text-muted-foreground">
        {signedInAsInvitee ? t('invite.existingSignedIn') : t('invite.existing')}
      </p>
      <SignupForm
        fields={fields}
        schema={signedInAsInvitee ? ZInvitedSignUp : ZInvitedSignUpExisting}
        call="POST /api/user"
        buttonText={t('invite.join', { account: info.account_name })}
      />
    </>
  );
}

function JoinNew({ token, info }: { token: string; info: TInviteInfo }) {
  const { t } = useTranslation('signup');
  const fields = useSignupFields({ invite_id: { type: 'hidden', value: token } }, info.email);
  // The address is the invited one: the link proved it, so it is not editable.
  const locked: TFormFields = { ...fields, email: { ...fields.email!, readonly: true } };
  return (
    <>
      <p className="mb-6 text-sm text-muted-foreground">{t('form.inviteIntro')}</p>
      <SignupForm
        fields={locked}
        schema={ZInvitedSignUpNew}
        call="POST /api/user"
        buttonText={t('form.join')}
      />
    </>
  );
}

/**
 * /signup/user?token=…: what an invite link opens. A new address creates its user (POST /api/user,
 * verified, no plan step); an address that already has a user joins after confirming with its
 * password, or at once when signed in as that user. Either way the answer is a session in the
 * inviting account, routed on as after any sign-in.
 */
export default function SignupUserPage() {
  const { t } = useTranslation('signup');
  const [params] = useSearchParams();
  const token = params.get('token') ?? params.get('invite_id') ?? '';
  // The auth layouts carry no query cache: one plain fetch per token.
  const [invite, setInvite] = useState<{ data?: TInviteInfo | null; error?: unknown; isPending: boolean }>({
    isPending: true,
  });
  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    call('GET /api/invite/:token', { params: { token }, signal: controller.signal })
      .then((res) => setInvite({ data: res.data ?? null, isPending: false }))
      .catch((error: unknown) => {
        if ((error as Error).name !== 'AbortError') setInvite({ error, isPending: false });
      });
    return () => controller.abort();
  }, [token]);

  let body;
  if (!token) {
    body = (
      <p role="alert" className="text-sm text-destructive">
        {t('form.inviteMissing')}
      </p>
    );
  } else if (invite.isPending) {
    body = <LoadingStatus className="flex text-sm" label={t('invite.loading')} />;
  } else if (invite.error || !invite.data) {
    const error = invite.error;
    const message =
      error instanceof ApiError && typeof error.body === 'object' && error.body?.message
        ? error.body.message
        : t('invite.invalid');
    body = (
      <p role="alert" className="text-sm text-destructive">
        {message}
      </p>
    );
  } else {
    const info = invite.data;
    body = (
      <>
        <p className="mb-2 text-sm">
          {t('invite.summary', {
            inviter: info.inviter_name ?? info.account_name,
            account: info.account_name,
            role: t(`invite.role.${info.permission}`),
          })}
        </p>
        {info.existing_user ? (
          <JoinExisting token={token} info={info} />
        ) : (
          <JoinNew token={token} info={info} />
        )}
      </>
    );
  }
  return (
    <>
      <PageHeading className="mb-2" />
      {body}
    </>
  );
}
