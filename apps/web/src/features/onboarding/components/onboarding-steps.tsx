import { answerMessage } from '@/lib/api';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { KeyRound, Network, TriangleAlert, UserPlus, Waypoints } from 'lucide-react';
import { hasPermission } from '@air/shared/permissions';
import { useDialog } from '@/app/dialog-provider';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { inviteDialog } from '@/features/users/invite-dialog';
import type { TSessionUser } from '@/lib/session';

export interface TOnboardingStep {
  id: string;
  title: string;
  content: ReactNode;
}

function DuplicateUserStep() {
  const { t } = useTranslation('onboarding');
  return (
    <div className="flex gap-3 rounded-md border border-amber-500/50 bg-amber-500/10 p-4" role="alert">
      <TriangleAlert
        className="mt-0.5 size-5 shrink-0 text-amber-600 dark:text-amber-400"
        aria-hidden="true"
      />
      <div className="space-y-2 text-sm">
        <p>{t('duplicate.text')}</p>
        <p>{t('duplicate.switch')}</p>
      </div>
    </div>
  );
}

/** `canCreateKey`: only members who may manage keys are told to create one; others, whom to ask. */
function WelcomeStep({ canCreateKey }: { canCreateKey: boolean }) {
  const { t } = useTranslation('onboarding');
  const items = [
    { icon: Network, text: t('welcome.register') },
    { icon: KeyRound, text: canCreateKey ? t('welcome.key') : t('welcome.keyAsk') },
    { icon: Waypoints, text: t('welcome.call') },
  ];
  return (
    <div className="space-y-4">
      <p className="text-muted-foreground">{t('welcome.text')}</p>
      <ul className="space-y-3">
        {items.map(({ icon: Icon, text }) => (
          <li key={text} className="flex items-start gap-3">
            <Icon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
            <span>{text}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Admins invite their team with the users page's own dialog. */
function InviteStep() {
  const { t } = useTranslation(['onboarding', 'users']);
  const dialog = useDialog();
  return (
    <div className="space-y-4">
      <p className="text-muted-foreground">{t('onboarding:invite.text')}</p>
      <Button
        onClick={() =>
          dialog.open(
            inviteDialog(t, (result) => {
              const message = answerMessage(result);
              if (message) toast({ variant: 'success', title: message });
            }),
          )
        }
      >
        <UserPlus aria-hidden="true" />
        {t('users:invite.open')}
      </Button>
    </div>
  );
}

/**
 * The onboarding steps for this user, in order (spec section 2): the duplicate-user warning first,
 * only when the server flagged the user, then the welcome step, then the invite-team step for
 * admins.
 */
export function useOnboardingSteps(user: TSessionUser | null): TOnboardingStep[] {
  const { t } = useTranslation('onboarding');
  const steps: TOnboardingStep[] = [];
  if (user?.duplicate_user) {
    steps.push({ id: 'duplicate', title: t('duplicate.title'), content: <DuplicateUserStep /> });
  }
  const canCreateKey = hasPermission(user?.permission, 'developer');
  steps.push({
    id: 'welcome',
    title: t('welcome.title'),
    content: <WelcomeStep canCreateKey={canCreateKey} />,
  });
  if (hasPermission(user?.permission, 'admin')) {
    steps.push({ id: 'invite', title: t('invite.title'), content: <InviteStep /> });
  }
  return steps;
}
