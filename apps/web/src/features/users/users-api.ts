import { ZActivityType, type TActivityPage } from '@air/shared/schemas/activity';
import type { TAccountUsers } from '@air/shared/schemas/membership';
import type { TRole } from '@air/shared/permissions';
import { ZInvitableRole } from '@air/shared/schemas/roles';
import { call } from '@/lib/api';

export const ACCOUNT_USERS_QUERY = ['account-users'] as const;

export async function fetchAccountUsers(): Promise<TAccountUsers> {
  return (await call('GET /api/account/users')).data ?? { users: [], invites: [] };
}

export function activityQuery(filters: { member: string; type: string; cursor: string | undefined }) {
  return {
    queryKey: ['account-activity', filters] as const,
    queryFn: async (): Promise<TActivityPage> => {
      const query = {
        member: filters.member || undefined,
        // A type from the URL that is not one of the log's is no filter (the server would refuse it).
        type: ZActivityType.safeParse(filters.type).data,
        cursor: filters.cursor,
      };
      return (await call('GET /api/account/activity', { query })).data;
    },
  };
}

/** Sends a pending invite again; an invite only ever holds a role that can be invited. */
export const resendInvite = (email: string, permission: TRole) =>
  call('POST /api/invite', { body: { email, permission: ZInvitableRole.parse(permission) } });
export const deleteInvites = (ids: string[]) => call('DELETE /api/invite', { body: { ids } });
export const removeMember = (id: string) => call('DELETE /api/user/:id', { params: { id } });
