import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '@/components/layout/page-heading';
import { useSession } from '@/lib/session';
import { CatalogBrowser } from '../components/catalog-browser';
import { usePageMeta } from '../page-meta';

/** /marketplace: the public catalog of shared endpoints, signed in or not. */
export default function CatalogPage() {
  const { t } = useTranslation('marketplace');
  const { signedIn } = useSession();
  usePageMeta(t('catalog.metaTitle'), t('catalog.metaDescription'));
  return (
    <section>
      <PageHeading>
        {signedIn && (
          <Link to="/mkt" className="text-sm text-muted-foreground underline-offset-2 hover:underline">
            {t('catalog.toGrid')}
          </Link>
        )}
      </PageHeading>
      <p className="-mt-4 mb-6 text-muted-foreground">{t('catalog.intro')}</p>
      <CatalogBrowser />
    </section>
  );
}
