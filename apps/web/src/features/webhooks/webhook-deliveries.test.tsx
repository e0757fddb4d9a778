import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import type { TWebhookDelivery } from '@air/shared/schemas/webhook';
import { mockApi, renderPage, signInAs } from '@/features/account/test/page-harness';
import i18n from '@/lib/i18n';
import { clearSession } from '@/lib/session';
import { WebhookDeliveries } from './components/webhook-deliveries';

afterEach(async () => {
  act(() => clearSession());
  await act(() => i18n.changeLanguage('en'));
});

const HOOK = '00000000-0000-4000-8000-0000000000b1';

function delivery(n: number, event: string): TWebhookDelivery {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    event,
    status: 'delivered',
    attempts: 1,
    response_status: 200,
    error: null,
    created_at: '2026-11-20T10:00:00.000Z',
    next_attempt_at: null,
    delivered_at: '2026-11-20T10:00:01.000Z',
  };
}

/*
 * Issue 43 item 6: the delivery log pages by cursor past its newest page (50 deliveries) with
 * Previous and Next, in English and Spanish, from the keyboard. Before, only the newest page showed.
 */
describe('webhook delivery log', () => {
  it('pages older deliveries with Siguiente and Anterior (Spanish), keyboard only', async () => {
    await act(() => i18n.changeLanguage('es'));
    signInAs();
    const calls = mockApi({
      'GET /api/webhook/:id/deliveries': (_body, { url }) =>
        url.searchParams.get('cursor') === 'older'
          ? { body: { data: { items: [delivery(2, 'key.revoked')], next_cursor: null } } }
          : { body: { data: { items: [delivery(1, 'key.created')], next_cursor: 'older' } } },
    });
    const { user } = renderPage(<WebhookDeliveries id={HOOK} />, {
      path: '/account/webhooks',
      title: 'webhooks',
    });
    expect(await screen.findByText('key.created')).toBeInTheDocument();
    const pager = screen.getByRole('navigation', { name: 'Páginas de entregas' });
    expect(within(pager).getByText('Página 1')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Anterior' })).toBeDisabled();
    // Tab reaches Siguiente after the table's scroll region (Anterior is disabled, so skipped).
    const next = within(pager).getByRole('button', { name: 'Siguiente' });
    await user.tab();
    await user.tab();
    expect(next).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('key.revoked')).toBeInTheDocument();
    expect(screen.queryByText('key.created')).toBeNull();
    expect(within(pager).getByText('Página 2')).toBeInTheDocument();
    expect(
      calls.some((c) => c.path === `/api/webhook/${HOOK}/deliveries` && c.search === '?cursor=older'),
    ).toBe(true);
    const previous = within(pager).getByRole('button', { name: 'Anterior' });
    expect(previous).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('key.created')).toBeInTheDocument();
    expect(within(pager).getByText('Página 1')).toBeInTheDocument();
  });

  it('shows no pager when the log is one page', async () => {
    signInAs();
    mockApi({
      'GET /api/webhook/:id/deliveries': {
        body: { data: { items: [delivery(1, 'key.created')], next_cursor: null } },
      },
    });
    renderPage(<WebhookDeliveries id={HOOK} />, { path: '/account/webhooks', title: 'webhooks' });
    expect(await screen.findByText('key.created')).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).toBeNull();
  });
});
