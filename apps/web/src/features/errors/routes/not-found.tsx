import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';

/** Any unknown path, /notfound and /404. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className="flex max-w-md flex-col items-center gap-4 text-center">
      <p className="text-6xl font-bold text-muted-foreground" aria-hidden="true">
        404
      </p>
      <h1 className="text-xl font-semibold">{t('notFound.text')}</h1>
      <Button asChild>
        <Link to="/dashboard">{t('notFound.button')}</Link>
      </Button>
    </div>
  );
}
