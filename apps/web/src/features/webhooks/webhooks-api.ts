import type { TCreateWebhook, TUpdateWebhook } from '@air/shared/schemas/webhook';
import { call } from '@/lib/api';

/** The account's webhooks (`GET /api/webhook`), cached under the call's name. */
export const webhooksQuery = {
  queryKey: ['GET /api/webhook'] as const,
  queryFn: async () => (await call('GET /api/webhook')).data,
};

/** One webhook's delivery log, newest first. */
export function deliveriesQuery(id: string) {
  return {
    queryKey: ['GET /api/webhook/:id/deliveries', id] as const,
    queryFn: async () => (await call('GET /api/webhook/:id/deliveries', { params: { id } })).data,
  };
}

export const createWebhook = (body: TCreateWebhook) => call('POST /api/webhook', { body });
export const updateWebhook = (id: string, body: TUpdateWebhook) =>
  call('PATCH /api/webhook/:id', { params: { id }, body });
export const deleteWebhook = (id: string) => call('DELETE /api/webhook/:id', { params: { id } });
export const sendTestEvent = (id: string) => call('POST /api/webhook/:id/test', { params: { id } });
