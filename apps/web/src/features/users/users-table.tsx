import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { UserPlus } from 'lucide-react';
import type { TInvitableRole, TRole } from '@air/shared/permissions';
import { ZRoleChange } from '@air/shared/schemas/membership';
import { DataTable } from '@/components/table/data-table';
import type { TColumn } from '@/components/table/types';
import { Badge, type TBadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { useDialog } from '@/app/dialog-provider';
import { useErrorHandler } from '@/lib/error-handler';
import { answerMessage } from '@/lib/api';
import { signOut, useSession } from '@/lib/session';
import { useNavigate } from 'react-router';
import { inviteDialog } from './invite-dialog';
import {
  ACCOUNT_USERS_QUERY,
  deleteInvites,
  fetchAccountUsers,
  removeMember,
  resendInvite,
} from './users-api';

type TStatus = 'invited' | 'expired' | 'registered' | 'verified';

/** One row of the users table: a member or a pending invite. */
export interface TUserRow {
  id: string;
  kind: 'member' | 'invite';
  name: string;
  email: string;
  permission: TRole;
  status: TStatus;
  date: string;
  last_login: string | null;
}

const STATUS_BADGE: Record<TStatus, TBadgeVariant> = {
  invited: 'orange',
  expired: 'red',
  registered: 'blue',
  verified: 'green',
};

export function UsersTable() {
  const { t } = useTranslation('users');
  const dialog = useDialog();
  const handleError = useErrorHandler();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const list = useQuery({ queryKey: ACCOUNT_USERS_QUERY, queryFn: fetchAccountUsers });
  useEffect(() => {
    if (list.error) handleError(list.error);
  }, [list.error, handleError]);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ACCOUNT_USERS_QUERY }),
      queryClient.invalidateQueries({ queryKey: ['account-activity'] }),
    ]);

  const rows: TUserRow[] | undefined = list.data && [
    ...list.data.users.map((m) => ({
      id: m.id,
      kind: 'member' as const,
      name: m.name,
      email: m.email,
      permission: m.permission,
      status: m.status,
      date: m.date_joined,
      last_login: m.last_login,
    })),
    ...list.data.invites.map((i) => ({
      id: i.id,
      kind: 'invite' as const,
      name: '',
      email: i.email,
      permission: i.permission,
      status: i.status,
      date: i.date_sent,
      last_login: null,
    })),
  ];

  function confirm(title: string, description: string, buttonText: string, run: () => Promise<unknown>) {
    dialog.open({
      title,
      description,
      buttonText,
      callback: (ok) => {
        if (ok !== true) return;
        run()
          .then((res) => {
            toast({ variant: 'success', title: answerMessage(res) ?? t('done') });
            return refresh();
          })
          .catch(handleError);
      },
    });
  }

  function openInvite() {
    dialog.open(
      inviteDialog(t, (result) => {
        if (result && typeof result === 'object') void refresh();
      }),
    );
  }

  function editRole(row: TUserRow) {
    dialog.open({
      title: t('edit.title', { name: row.name || row.email }),
      buttonText: t('edit.save'),
      call: 'PATCH /api/user/:id',
      params: { id: row.id },
      fields: {
        permission: {
          type: 'select',
          label: t('invite.permission'),
          defaultValue: row.permission,
          options: (['user', 'developer', 'admin'] as TInvitableRole[]).map((value) => ({
            value,
            label: t(`role.${value}`),
          })),
        },
      },
      schema: ZRoleChange,
      callback: (result) => {
        if (result && typeof result === 'object') void refresh();
      },
    });
  }

  const isSelf = (row: TUserRow) => row.kind === 'member' && row.id === user?.id;
  const editable = (row: TUserRow) =>
    row.kind === 'member' && row.permission !== 'owner' && row.permission !== 'master' && !isSelf(row);

  const columns: TColumn<TUserRow>[] = [
    {
      key: 'name',
      header: t('column.name'),
      sortable: true,
      cell: (row) => row.name || <span className="text-muted-foreground">—</span>,
    },
    { key: 'email', header: t('column.email'), sortable: true },
    {
      key: 'permission',
      header: t('column.role'),
      sortable: true,
      cell: (row) => t(`role.${row.permission}`),
    },
    {
      key: 'status',
      header: t('column.status'),
      sortable: true,
      cell: (row) => <Badge variant={STATUS_BADGE[row.status]}>{t(`status.${row.status}`)}</Badge>,
    },
    { key: 'date', header: t('column.date'), sortable: true, type: 'date' },
    { key: 'last_login', header: t('column.lastLogin'), sortable: true, type: 'date' },
  ];

  return (
    <DataTable<TUserRow>
      label={t('label')}
      data={rows}
      loading={list.isPending}
      columns={columns}
      getRowId={(row) => `${row.kind}:${row.id}`}
      searchKeys={['name', 'email', 'permission']}
      selectable
      toolbar={
        <Button onClick={openInvite}>
          <UserPlus aria-hidden="true" />
          {t('invite.open')}
        </Button>
      }
      actions={[
        { label: t('action.editRole'), show: editable, onSelect: editRole },
        {
          label: t('action.contact'),
          show: (row) => row.kind === 'member' && !isSelf(row),
          onSelect: (row) => {
            window.location.href = `mailto:${row.email}`;
          },
        },
        {
          label: t('action.remove'),
          destructive: true,
          show: editable,
          onSelect: (row) =>
            confirm(
              t('remove.title'),
              t('remove.description', { name: row.name || row.email }),
              t('remove.button'),
              () => removeMember(row.id),
            ),
        },
        {
          label: t('action.leave'),
          destructive: true,
          show: (row) => isSelf(row) && row.permission !== 'owner',
          onSelect: (row) =>
            dialog.open({
              title: t('leave.title'),
              description: t('leave.description'),
              buttonText: t('leave.button'),
              callback: (ok) => {
                if (ok !== true) return;
                removeMember(row.id)
                  .then(() => signOut((to) => void navigate(to)))
                  .catch(handleError);
              },
            }),
        },
        {
          label: t('action.resend'),
          show: (row) => row.kind === 'invite',
          onSelect: (row) =>
            void resendInvite(row.email, row.permission)
              .then(() => {
                toast({ variant: 'success', title: t('resent', { email: row.email }) });
                return refresh();
              })
              .catch(handleError),
        },
        {
          label: t('action.deleteInvite'),
          destructive: true,
          show: (row) => row.kind === 'invite',
          onSelect: (row) =>
            confirm(
              t('deleteInvite.title'),
              t('deleteInvite.description', { count: 1 }),
              t('deleteInvite.button'),
              () => deleteInvites([row.id]),
            ),
        },
      ]}
      bulkActions={[
        {
          label: t('action.deleteInvites'),
          destructive: true,
          onSelect: (selected) => {
            const invites = selected.filter((row) => row.kind === 'invite');
            if (invites.length === 0) {
              toast({ title: t('deleteInvite.noneSelected') });
              return;
            }
            confirm(
              t('deleteInvite.title'),
              t('deleteInvite.description', { count: invites.length }),
              t('deleteInvite.button'),
              () => deleteInvites(invites.map((row) => row.id)),
            );
          },
        },
      ]}
    />
  );
}
