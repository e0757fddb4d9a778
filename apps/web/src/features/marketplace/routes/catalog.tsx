import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '@/components/layout/page-heading';
import { cn } from '@/lib/utils';
import { useSession } from '@/lib/session';
import { CatalogBrowser } from '../components/catalog-browser';
import { ModelsBrowser } from '../components/models-browser';
import { usePageMeta } from '../page-meta';

/**
 * /marketplace: the public catalog of shared endpoints, signed in or not; `?view=models` lists the
 * models they serve instead (decision 062).
 */
export default function CatalogPage() {
  const { t } = useTranslation('marketplace');
  const { signedIn } = useSession();
  const [params] = useSearchParams();
  const models = params.get('view') === 'models';
  usePageMeta(t('catalog.metaTitle'), t('catalog.metaDescription'));
  const tab = (active: boolean) =>
    cn(
      'rounded-md px-3 py-1.5 text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
      active ? 'bg-background text-foreground shadow-sm' : 'text-muted-foreground hover:text-foreground',
    );
  return (
    <section>
      <PageHeading>
        {signedIn && (
          <Link to="/mkt" className="text-sm text-muted-foreground underline-offset-2 hover:underline">
            {t('catalog.toGrid')}
          </Link>
        )}
      </PageHeading>
      <p className="-mt-4 mb-6 text-muted-foreground">{t(models ? 'models.intro' : 'catalog.intro')}</p>
      <nav aria-label={t('models.views')} className="mb-6 inline-flex gap-1 rounded-lg bg-muted p-1">
        <Link to="/marketplace" className={tab(!models)} aria-current={models ? undefined : 'page'}>
          {t('models.endpointsView')}
        </Link>
        <Link
          to="/marketplace?view=models"
          className={tab(models)}
          aria-current={models ? 'page' : undefined}
        >
          {t('models.modelsView')}
        </Link>
      </nav>
      {models ? <ModelsBrowser /> : <CatalogBrowser />}
    </section>
  );
}
