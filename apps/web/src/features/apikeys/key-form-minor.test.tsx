import { afterEach, describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { API_KEY_SCOPES } from '@air/shared/schemas/api-key';
import { apiKeyFixture } from '@/test/fixtures';
import i18n from '@/lib/i18n';
import { mockFetch, renderPage } from '@/test/render-page';
import ApiKeyEditPage from './routes/api-key-edit';
import ApiKeysPage from './routes/api-keys';

// Issue 38, minor list: the key form stars only what is required, picks a scope, names scopes in
// words, and a picked expiry day is shown as that day (not the next day at midnight).

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

const labelText = (name: RegExp) => screen.getByText(name, { selector: 'label, legend, label *, legend *' });

describe('API key form', () => {
  it('stars name and scopes only, ticks the gateway scope, and names scopes in words', async () => {
    mockFetch({
      'GET /api/key/scopes': { body: { data: [...API_KEY_SCOPES] } },
      'GET /api/aiendpoint': { body: { data: [] } },
      'GET /api/aiendpointShared': { body: { data: [] } },
    });
    renderPage(ApiKeyEditPage, {
      route: '/account/apikeys/create',
      path: '/account/apikeys/create',
      title: 'apikeyCreate',
    });
    await screen.findByRole('button', { name: 'Create key' });
    const starred = (text: RegExp) =>
      labelText(text).closest('label, legend')!.textContent!.trim().endsWith('*');
    expect(starred(/^Name/)).toBe(true);
    expect(starred(/^Scopes/)).toBe(true);
    expect(starred(/^Expires/)).toBe(false);
    expect(starred(/^Monthly calls/)).toBe(false);
    expect(screen.getByRole('checkbox', { name: 'Call the gateway (gateway.invoke)' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Manage endpoints (aiendpoint.write)' })).not.toBeChecked();
    expect(screen.queryByRole('checkbox', { name: 'gateway.invoke' })).not.toBeInTheDocument();
  });

  it('lists an expiry as the last day the key works', async () => {
    // Picked 1 December 2026: stored as the midnight that ends it, local time.
    const expires = new Date(2026, 11, 2).toISOString();
    mockFetch({
      'GET /api/key': { body: { data: [apiKeyFixture({ name: 'Dated', expires_at: expires })] } },
    });
    renderPage(ApiKeysPage, { route: '/account/apikeys', path: '/account/apikeys', title: 'apikeys' });
    const row = (await screen.findByText('Dated')).closest('tr')!;
    const cell = row.querySelector('td[data-label="Limits"]')!;
    expect(cell).toHaveTextContent('Through Dec 1, 2026');
    expect(cell).not.toHaveTextContent('12/02/2026');
  });
});
