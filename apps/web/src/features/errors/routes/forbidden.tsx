import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ShieldAlert } from 'lucide-react';
import type { TRole } from '@air/shared/permissions';
import { Button } from '@/components/ui/button';
import { useSession } from '@/lib/session';

/**
 * A signed-in member opened a page their role does not allow (decision 042): said here, inside the
 * app, with who can change it, instead of a sign-in page that read as a sign-out. Roles are granted
 * by the account's owner or admins (the member list is theirs to read, so they are named by role);
 * the owner role is never granted, so an owner-only page says only the owner can use it.
 */
export default function ForbiddenPage({ role }: { role: TRole }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const account = user?.account_name ?? t('guard.thisAccount');
  const roleName = t(`guard.role.${role}`);
  return (
    <section className="max-w-xl space-y-4" aria-labelledby="forbidden-title">
      <ShieldAlert className="size-10 text-muted-foreground" aria-hidden="true" />
      <h1 id="forbidden-title" className="text-2xl font-semibold tracking-tight">
        {t('guard.title', { role: roleName })}
      </h1>
      <p className="text-muted-foreground">
        {role === 'owner' || role === 'master'
          ? t('guard.ownerOnly', { account })
          : t('guard.ask', { account, role: roleName })}
      </p>
      <Button asChild>
        <Link to="/dashboard">{t('guard.back')}</Link>
      </Button>
    </section>
  );
}
