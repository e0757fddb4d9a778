import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { PageHeading } from '@/components/layout/page-heading';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useErrorHandler } from '@/lib/error-handler';
import { MyRegistryTable } from '../components/my-registry-table';
import { SharedRegistryTable } from '../components/shared-registry-table';
import { fetchSharedEndpoints, myEndpointsQuery, SHARED_ENDPOINTS_QUERY } from '../registry-api';

/** /registry and /aiendpoints: "My Registry" and the shared provider registry. */
export default function RegistryPage() {
  const { t } = useTranslation('registry');
  const handleError = useErrorHandler();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'shared' ? 'shared' : 'mine';
  const mine = useQuery(myEndpointsQuery);
  const shared = useQuery({
    queryKey: SHARED_ENDPOINTS_QUERY,
    queryFn: fetchSharedEndpoints,
    enabled: tab === 'shared',
  });
  const error = mine.error ?? shared.error;
  useEffect(() => {
    if (error) handleError(error);
  }, [error, handleError]);

  return (
    <section>
      <PageHeading />
      <Tabs
        value={tab}
        onValueChange={(next) =>
          // Switching tabs starts the other table on its first page.
          setParams(next === 'shared' ? { tab: 'shared' } : {}, { replace: true })
        }
      >
        <TabsList>
          <TabsTrigger value="mine">{t('tab.mine')}</TabsTrigger>
          <TabsTrigger value="shared">{t('tab.shared')}</TabsTrigger>
        </TabsList>
        <TabsContent value="mine">
          <MyRegistryTable data={mine.data} loading={mine.isPending} />
        </TabsContent>
        <TabsContent value="shared">
          <SharedRegistryTable data={shared.data} loading={shared.isPending} />
        </TabsContent>
      </Tabs>
    </section>
  );
}
