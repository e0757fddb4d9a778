import type { TCreateWebhook, TUpdateWebhook } from '@air/shared/schemas/webhook';
import { call } from '@/lib/api';

/** The account's webhooks (`GET /api/webhook`), cached under the call's name. */
export const webhooksQuery = {
  queryKey: ['GET /api/webhook'] as const,
  queryFn: async () => (await call('GET /api/webhook')).data,
};

/** Every page of one webhook's delivery log (what a new delivery invalidates). */
export const deliveriesKey = (id: string) => ['GET /api/webhook/:id/deliveries', id] as const;

/** A page of one webhook's delivery log, newest first: the first (no cursor) or the one `cursor` starts. */
export function deliveriesQuery(id: string, cursor?: string) {
  return {
    queryKey: [...deliveriesKey(id), { cursor }] as const,
    queryFn: async ({ signal }: { signal?: AbortSignal }) =>
      (await call('GET /api/webhook/:id/deliveries', { params: { id }, query: { cursor }, signal })).data,
  };
}

export const createWebhook = (body: TCreateWebhook) => call('POST /api/webhook', { body });
export const updateWebhook = (id: string, body: TUpdateWebhook) =>
  call('PATCH /api/webhook/:id', { params: { id }, body });
export const deleteWebhook = (id: string) => call('DELETE /api/webhook/:id', { params: { id } });
export const sendTestEvent = (id: string) => call('POST /api/webhook/:id/test', { params: { id } });
