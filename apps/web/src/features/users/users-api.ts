import type { TActivityPage } from '@air/shared/schemas/activity';
import type { TAccountUsers } from '@air/shared/schemas/membership';
import { api } from '@/lib/api';

export const ACCOUNT_USERS_QUERY = ['account-users'] as const;

export async function fetchAccountUsers(): Promise<TAccountUsers> {
  return (await api.get<TAccountUsers>('/api/account/users')).data ?? { users: [], invites: [] };
}

export function activityQuery(filters: { member: string; type: string; page: number }) {
  return {
    queryKey: ['account-activity', filters] as const,
    queryFn: async (): Promise<TActivityPage> => {
      const params = new URLSearchParams();
      if (filters.member) params.set('member', filters.member);
      if (filters.type) params.set('type', filters.type);
      if (filters.page > 1) params.set('page', String(filters.page));
      const query = params.toString();
      return (await api.get<TActivityPage>(`/api/account/activity${query ? `?${query}` : ''}`)).data!;
    },
  };
}

export const resendInvite = (email: string, permission: string) =>
  api.post('/api/invite', { email, permission });
export const deleteInvites = (ids: string[]) => api.delete('/api/invite', { ids });
export const removeMember = (id: string) => api.delete(`/api/user/${encodeURIComponent(id)}`);
