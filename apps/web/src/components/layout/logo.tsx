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
      {/* The mark spells the name again: drawn with generated content and hidden from assistive
          technology, so the link's visible text ("AIR") stays inside its accessible name ("AIR
          home"), WCAG 2.5.3 label in name. */}
      <span
        aria-hidden="true"
        className="flex size-8 items-center justify-center rounded-md bg-primary text-xs text-primary-foreground before:content-['AIR']"
      />
      {!compact && <span className="text-lg">{t('brand.name')}</span>}
    </Link>
  );
}
