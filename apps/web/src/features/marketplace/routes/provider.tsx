import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CatalogBrowser } from '../components/catalog-browser';
import { usePageMeta } from '../page-meta';

/** /marketplace/{provider}: every listed endpoint whose route name starts with `{provider}/`. */
export default function ProviderPage() {
  const { provider = '' } = useParams();
  const { t } = useTranslation('marketplace');
  usePageMeta(t('provider.metaTitle', { provider }), t('provider.metaDescription', { provider }));
  return (
    <section>
      <nav aria-label={t('endpoint.breadcrumb')} className="mb-2 text-sm">
        <Link to="/marketplace" className="text-muted-foreground underline-offset-2 hover:underline">
          {t('endpoint.back')}
        </Link>
      </nav>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight break-all">
        {t('provider.heading', { provider })}
      </h1>
      <CatalogBrowser provider={provider} />
    </section>
  );
}
