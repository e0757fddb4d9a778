import { useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { LucideIcon } from 'lucide-react';
import { PageHeading } from '@/components/layout/page-heading';
import type { TFormField } from '@/components/form/types';
import { cn } from '@/lib/utils';
import { keepFocus } from './keep-focus';

/** The sign-in family's page top: the route's heading and a line saying what the page is for. */
export function AuthPageIntro({ text }: { text: string }) {
  return (
    <div>
      <PageHeading className="mb-2" />
      <p className="text-sm text-muted-foreground">{text}</p>
    </div>
  );
}

/** The one-field form of the magic link and forgot-password pages: the address. */
export function useEmailFields(): Record<string, TFormField> {
  const { t } = useTranslation('auth');
  return useMemo(() => ({ email: { type: 'email', label: t('signin.email') } }), [t]);
}

/** "We sent you a mail": the notice that replaces a form once its mail is on its way. */
export function MailSentNotice({
  icon: Icon,
  title,
  text,
  children,
}: {
  icon: LucideIcon;
  title: string;
  text: string;
  children?: ReactNode;
}) {
  return (
    <div role="status" className="grid gap-2 rounded-lg border bg-card p-4 text-card-foreground">
      <p className="flex items-center gap-2 font-medium">
        <Icon className="size-4" aria-hidden="true" />
        {title}
      </p>
      <p className="text-sm text-muted-foreground">{text}</p>
      {children}
    </div>
  );
}

/**
 * A link between the sign-in family's pages. A mouse press does not take focus from the field the
 * user is in, so a blur does not validate (and shift the page) under the pointer first.
 */
export function AuthLink({
  to,
  className,
  children,
}: {
  to: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Link
      to={to}
      onMouseDown={keepFocus}
      className={cn('text-primary underline underline-offset-4 hover:text-primary/80', className)}
    >
      {children}
    </Link>
  );
}

/** The link back to /signin under the forgot and reset forms. */
export function BackToSignIn() {
  const { t } = useTranslation('auth');
  return (
    <p className="text-center text-sm">
      <AuthLink to="/signin">{t('backToSignIn')}</AuthLink>
    </p>
  );
}
