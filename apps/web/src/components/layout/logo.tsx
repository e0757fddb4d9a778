import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';

export function Logo({
  to = '/dashboard',
  className,
  compact = false,
}: {
  to?: string;
  className?: string;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Link
      to={to}
      aria-label={t('brand.home')}
      className={cn(
        'inline-flex items-center gap-2 rounded-md font-bold tracking-tight focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
        className,
      )}
    >
      <span className="flex size-8 items-center justify-center rounded-md bg-primary text-xs text-primary-foreground">
        AIR
      </span>
      {!compact && <span className="text-lg">{t('brand.name')}</span>}
    </Link>
  );
}
