import { useTranslation } from 'react-i18next';
import { PageHeading } from '@/components/layout/page-heading';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { ActivityLog } from '@/features/users/activity-log';
import { UsersTable } from '@/features/users/users-table';

/** /account/users (admin): members and invites in one table, and the account's activity log. */
export default function UsersPage() {
  const { t } = useTranslation('users');
  return (
    <section>
      <PageHeading />
      <Tabs defaultValue="users">
        <TabsList className="mb-4">
          <TabsTrigger value="users">{t('tab.users')}</TabsTrigger>
          <TabsTrigger value="activity">{t('tab.activity')}</TabsTrigger>
        </TabsList>
        <TabsContent value="users">
          <UsersTable />
        </TabsContent>
        <TabsContent value="activity">
          <ActivityLog />
        </TabsContent>
      </Tabs>
    </section>
  );
}
