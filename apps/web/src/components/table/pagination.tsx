import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';

/** "Page N of M" with Previous and Next, under a table of more than one page. */
export function TablePagination({
  page,
  pages,
  canPrevious,
  canNext,
  onPrevious,
  onNext,
}: {
  page: number;
  pages: number;
  canPrevious: boolean;
  canNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  const { t } = useTranslation('table');
  return (
    <nav className="flex items-center justify-end gap-2" aria-label={t('pagination')}>
      <span className="text-sm text-muted-foreground">{t('pageOf', { page, pages })}</span>
      <Button variant="outline" size="sm" disabled={!canPrevious} onClick={onPrevious}>
        {t('previous')}
      </Button>
      <Button variant="outline" size="sm" disabled={!canNext} onClick={onNext}>
        {t('next')}
      </Button>
    </nav>
  );
}
