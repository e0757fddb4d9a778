import { useTranslation } from 'react-i18next';
import { useSession } from '@/lib/session';

/**
 * The welcome under the dashboard's heading. It was a toast, and a toast floats over the page: on a
 * phone it covered the heading, on a desktop a snippet's Copy button. In the page's flow it covers
 * nothing.
 */
export function WelcomeNote() {
  const { t } = useTranslation('dashboard');
  const { user } = useSession();
  return (
    <div data-testid="welcome-note" className="-mt-4 space-y-0.5">
      <p className="font-medium">
        {user?.name ? t('welcome.titleNamed', { name: user.name }) : t('welcome.title')}
      </p>
      <p className="text-sm text-muted-foreground">{t('welcome.description')}</p>
    </div>
  );
}
