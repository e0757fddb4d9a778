import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  BarChart3,
  Bell,
  CreditCard,
  HandCoins,
  Landmark,
  KeyRound,
  Lock,
  ShieldCheck,
  UserRound,
  Users,
  Webhook,
  type LucideIcon,
} from 'lucide-react';
import { hasPermission, type TRole } from '@air/shared/permissions';
import { PageHeading } from '@/components/layout/page-heading';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { useSession } from '@/lib/session';

interface TAccountCard {
  key: string;
  to: string;
  permission: TRole;
  icon: LucideIcon;
  title: string;
  text: string;
  action: string;
}

/** /account: one card per account area the user may use (spec sections 2 and 6). */
export default function AccountHomePage() {
  const { t } = useTranslation(['account', 'usage', 'earnings', 'payouts']);
  const { user } = useSession();
  const hasPassword = user?.has_password !== false;
  const twoFactorOn = user?.['2fa_enabled'] === true;

  const cards: TAccountCard[] = [
    {
      key: 'profile',
      to: '/account/profile',
      permission: 'user',
      icon: UserRound,
      title: t('home.profile.title'),
      text: t('home.profile.text'),
      action: t('home.profile.action'),
    },
    {
      key: 'password',
      to: '/account/password',
      permission: 'user',
      icon: Lock,
      title: t('home.password.title'),
      text: hasPassword ? t('home.password.changeText') : t('home.password.createText'),
      action: hasPassword ? t('home.password.change') : t('home.password.create'),
    },
    {
      key: 'twoFactor',
      to: '/account/2fa',
      permission: 'user',
      icon: ShieldCheck,
      title: t('home.twoFactor.title'),
      text: twoFactorOn ? t('home.twoFactor.onText') : t('home.twoFactor.offText'),
      action: twoFactorOn ? t('home.twoFactor.manage') : t('home.twoFactor.enable'),
    },
    {
      key: 'usage',
      to: '/account/usage',
      permission: 'user',
      icon: BarChart3,
      title: t('usage:card.title'),
      text: t('usage:card.text'),
      action: t('usage:card.action'),
    },
    {
      key: 'billing',
      to: '/account/billing',
      permission: 'owner',
      icon: CreditCard,
      title: t('home.billing.title'),
      text: t('home.billing.text'),
      action: t('home.billing.action'),
    },
    {
      key: 'earnings',
      to: '/account/earnings',
      permission: 'owner',
      icon: HandCoins,
      title: t('earnings:card.title'),
      text: t('earnings:card.text'),
      action: t('earnings:card.action'),
    },
    {
      key: 'payouts',
      to: '/account/payouts',
      permission: 'owner',
      icon: Landmark,
      title: t('payouts:card.title'),
      text: t('payouts:card.text'),
      action: t('payouts:card.action'),
    },
    {
      key: 'notifications',
      to: '/account/notifications',
      permission: 'user',
      icon: Bell,
      title: t('home.notifications.title'),
      text: t('home.notifications.text'),
      action: t('home.notifications.action'),
    },
    {
      key: 'apikeys',
      to: '/account/apikeys',
      permission: 'developer',
      icon: KeyRound,
      title: t('home.apikeys.title'),
      text: t('home.apikeys.text'),
      action: t('home.apikeys.action'),
    },
    {
      key: 'users',
      to: '/account/users',
      permission: 'admin',
      icon: Users,
      title: t('home.users.title'),
      text: t('home.users.text'),
      action: t('home.users.action'),
    },
    {
      key: 'webhooks',
      to: '/account/webhooks',
      permission: 'admin',
      icon: Webhook,
      title: t('home.webhooks.title'),
      text: t('home.webhooks.text'),
      action: t('home.webhooks.action'),
    },
  ];

  return (
    <>
      <PageHeading className="mb-2" />
      <p className="mb-6 text-sm text-muted-foreground">{t('home.intro')}</p>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {cards
          .filter((card) => hasPermission(user?.permission, card.permission))
          .map(({ key, to, icon: Icon, title, text, action }) => (
            <li key={key} data-card={key}>
              <Card className="flex h-full flex-col">
                <CardHeader>
                  <Icon className="size-6 text-primary" aria-hidden="true" />
                  <h2 className="text-lg leading-none font-semibold">{title}</h2>
                </CardHeader>
                <CardContent className="flex-1">
                  <CardDescription>{text}</CardDescription>
                </CardContent>
                <CardFooter>
                  <Button variant="outline" asChild>
                    <Link to={to}>{action}</Link>
                  </Button>
                </CardFooter>
              </Card>
            </li>
          ))}
      </ul>
    </>
  );
}
