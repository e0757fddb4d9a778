import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_KEY_SCOPES } from '@air/shared/schemas/api-key';
import { apiKeyFixture, endpointFixture, sharedEndpointFixture } from '@/test/fixtures';
import { act, screen, waitFor, within } from '@testing-library/react';
import i18n from '@/lib/i18n';
import { mockFetch, renderPage } from '@/test/render-page';
import ApiKeyEditPage from './routes/api-key-edit';
import ApiKeysPage from './routes/api-keys';

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
  vi.unstubAllGlobals();
});

const FULL_KEY = `air_${'Z'.repeat(40)}`;
const id = '00000000-0000-4000-8000-000000000001';
const scopes = { data: [...API_KEY_SCOPES] };

describe('API keys', () => {
  it('create requires a name and a scope, then shows the full key with copy, what happens to it, and a ready call', async () => {
    const calls = mockFetch({
      'GET /api/key/scopes': { body: scopes },
      'GET /api/aiendpoint': { body: { data: [endpointFixture({ route_name: 'acme/echo' })] } },
      'GET /api/aiendpointShared': {
        body: {
          data: [
            sharedEndpointFixture({ id: '00000000-0000-4000-8000-0000000000d2', route_name: 'open/llm' }),
          ],
        },
      },
      'POST /api/key': {
        body: {
          data: {
            ...apiKeyFixture({ id, name: 'Backend', key: 'air_ZZZZ…', scope: ['gateway.invoke'] }),
            full_key: FULL_KEY,
          },
        },
      },
    });
    const { user } = renderPage(ApiKeyEditPage, {
      route: '/account/apikeys/create',
      path: '/account/apikeys/create',
      title: 'apikeyCreate',
    });
    const create = await screen.findByRole('button', { name: 'Create key' });
    // The gateway scope comes ticked (issue 38): untick it to see the scope rule.
    await user.click(screen.getByRole('checkbox', { name: 'Call the gateway (gateway.invoke)' }));
    await user.click(create);
    expect(await screen.findByText('Please provide a descriptive name for your key')).toBeInTheDocument();
    expect(screen.getByText('Please select at least one scope')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(screen.getByLabelText(/^Name/), 'Backend');
    await user.click(screen.getByRole('checkbox', { name: 'Call the gateway (gateway.invoke)' }));
    // Key controls: only one route, a monthly cap.
    await user.click(screen.getByRole('checkbox', { name: 'open/llm' }));
    await user.type(screen.getByLabelText(/^Monthly calls/), '500');
    // Governance in tokens and money (issue 42): a token limit, and a budget typed as an amount.
    await user.type(screen.getByLabelText(/^Tokens per minute/), '2000');
    // A budget that is no amount is refused under its field, and nothing is sent.
    await user.type(screen.getByLabelText(/^Monthly budget/), 'lots');
    await user.click(create);
    await waitFor(() =>
      expect(screen.getByLabelText(/^Monthly budget/)).toHaveAttribute('aria-invalid', 'true'),
    );
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.clear(screen.getByLabelText(/^Monthly budget/));
    await user.type(screen.getByLabelText(/^Monthly budget/), '12,5');
    // The web pages that may use it (CORS, issue 38): one a line; something not an origin is
    // refused under the field, and nothing is sent.
    const origins = screen.getByLabelText(/^Allowed web origins/);
    await user.type(origins, 'app.example.com');
    await user.click(create);
    await waitFor(() => expect(origins).toHaveAttribute('aria-invalid', 'true'));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.clear(origins);
    await user.type(origins, 'https://App.example.com{Enter}http://localhost:5173');
    // MCP tools (issue 41): route and tool a line, and read-only tools only.
    await user.type(screen.getByLabelText(/^MCP tools/), 'acme/docs search{Enter}acme/docs  fetch');
    await user.click(screen.getByRole('switch', { name: /^Read-only tools only/ }));
    await user.click(create);
    const region = await screen.findByRole('region', { name: 'Your new API key' });
    expect(within(region).getByTestId('full-key')).toHaveTextContent(FULL_KEY);
    // The truth (issue 38): it can be revealed again, and each reveal is logged.
    expect(within(region).getByRole('note')).toHaveTextContent("recorded in the account's activity log");
    expect(within(region).queryByText(/only time/)).not.toBeInTheDocument();
    expect(within(region).getAllByRole('button', { name: 'Copy' })).toHaveLength(2);
    // A ready-to-run call with the new key and the newest route.
    const ready = await within(region).findByTestId('ready-call');
    await waitFor(() => expect(ready).toHaveTextContent('x-route-name: acme/echo'));
    expect(ready).toHaveTextContent(`x-api-key: ${FULL_KEY}`);
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      name: 'Backend',
      scope: ['gateway.invoke'],
      expires_at: null,
      routes: ['open/llm'],
      monthly_calls: 500,
      tokens_per_minute: 2000,
      monthly_spend: 1250,
      // Sent as typed: the server keeps origins in lower case.
      allowed_origins: ['https://App.example.com', 'http://localhost:5173'],
      tools: [
        { route: 'acme/docs', tool: 'search' },
        { route: 'acme/docs', tool: 'fetch' },
      ],
      tools_read_only: true,
    });
    // The form is gone: the key cannot be created again from this screen by accident.
    expect(screen.queryByRole('button', { name: 'Create key' })).not.toBeInTheDocument();
  }, 40_000);

  it('edit with a missing id goes to /404', async () => {
    mockFetch({ 'GET /api/key/scopes': { body: scopes } });
    const { router } = renderPage(ApiKeyEditPage, {
      route: '/account/apikeys/edit',
      path: '/account/apikeys/edit',
      title: 'apikeyEdit',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
  });

  it('edit with an unknown id goes to /404', async () => {
    mockFetch({
      'GET /api/key/scopes': { body: scopes },
      // The form reads the key from the list (GET /api/key/{id} would reveal, and log, it).
      'GET /api/key': { body: { data: [apiKeyFixture({ id })] } },
    });
    const { router } = renderPage(ApiKeyEditPage, {
      route: '/account/apikeys/edit',
      path: '/account/apikeys/edit?id=nope',
      title: 'apikeyEdit',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
  });

  it('lists keys masked, reveals on demand, shows revoked in red and revokes with PATCH active false', async () => {
    const calls = mockFetch({
      'GET /api/key': {
        body: {
          data: [
            apiKeyFixture({ id, name: 'Live', key: 'air_ZZZZ…', scope: ['gateway.invoke'], active: true }),
            apiKeyFixture({ id: 'k2', name: 'Old', key: 'air_YYYY…', scope: ['usage.read'], active: false }),
          ],
        },
      },
      'GET /api/key/:id': { body: { data: apiKeyFixture({ id, key: FULL_KEY }) } },
      'PATCH /api/key/:id': { body: { data: apiKeyFixture({ id, active: false }) } },
    });
    const { user } = renderPage(ApiKeysPage, {
      route: '/account/apikeys',
      path: '/account/apikeys',
      title: 'apikeys',
    });
    expect(await screen.findByText('air_ZZZZ…')).toBeInTheDocument();
    expect(screen.queryByText(FULL_KEY)).not.toBeInTheDocument();
    expect(screen.getByText('Active')).toHaveAttribute('data-variant', 'green');
    expect(screen.getByText('Revoked')).toHaveAttribute('data-variant', 'red');

    await user.click(screen.getByRole('button', { name: 'Reveal key Live' }));
    expect(await screen.findByText(FULL_KEY)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Hide key Live' }));
    expect(screen.queryByText(FULL_KEY)).not.toBeInTheDocument();

    const row = screen.getByText('Live').closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Revoke' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Revoke key' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ active: false });
  });

  it("shows each key's controls (expiry, call cap, routes), an expired key as expired, labelled for phone cards, in both languages", async () => {
    const future = '2099-06-30T23:59:59.999Z';
    mockFetch({
      'GET /api/key': {
        body: {
          data: [
            apiKeyFixture({
              id,
              name: 'Capped',
              expires_at: future,
              monthly_calls: 25000,
              routes: ['acme/echo'],
            }),
            apiKeyFixture({ id: 'k2', name: 'Open' }),
            apiKeyFixture({ id: 'k3', name: 'Lapsed', expires_at: '2020-01-01T00:00:00.000Z' }),
          ],
        },
      },
    });
    renderPage(ApiKeysPage, { route: '/account/apikeys', path: '/account/apikeys', title: 'apikeys' });
    const capped = (await screen.findByText('Capped')).closest('tr')!;
    const cell = (row: HTMLElement, label: string) => row.querySelector(`td[data-label="${label}"]`)!;
    // One Limits column (issue 38: three columns pushed Status and the actions off a 1280 px screen).
    const limits = cell(capped, 'Limits');
    expect(limits.querySelector('time')).toHaveAttribute('datetime', future);
    expect(limits).toHaveTextContent('Through Jun 30, 2099');
    expect(limits).toHaveTextContent('0 / 25,000 calls this period');
    expect(limits).toHaveTextContent('acme/echo');
    expect(within(capped).getByText('Active')).toHaveAttribute('data-variant', 'green');
    const open = screen.getByText('Open').closest('tr')!;
    expect(cell(open, 'Limits')).toHaveTextContent('No expiry');
    expect(cell(open, 'Limits')).toHaveTextContent('0 calls this period, no cap');
    expect(cell(open, 'Limits')).toHaveTextContent('All routes');
    const lapsed = screen.getByText('Lapsed').closest('tr')!;
    expect(within(lapsed).getByText('Expired')).toHaveAttribute('data-variant', 'orange');

    await act(() => i18n.changeLanguage('es'));
    expect(await screen.findByText('0 / 25.000 llamadas este periodo')).toBeInTheDocument();
    expect(cell(open, 'Límites')).toHaveTextContent('Sin caducidad');
    expect(cell(open, 'Límites')).toHaveTextContent('0 llamadas este periodo, sin límite');
    expect(cell(open, 'Límites')).toHaveTextContent('Todas las rutas');
    expect(within(lapsed).getByText('Caducada')).toBeInTheDocument();
  });
});
