import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from '@/lib/i18n';
import { clearSession, setSession } from '@/lib/session';
import { apiKeyFixture, endpointFixture, PERMISSION_MAPS, signInFixture } from '@/test/fixtures';
import { mockFetch, renderPage } from '@/test/render-page';
import EndpointPage from './routes/endpoint';
import { EndpointCreated } from './components/endpoint-created';

afterEach(() => {
  vi.unstubAllGlobals();
  act(() => clearSession());
  void i18n.changeLanguage('en');
});

const MASKED = 'air_aaaa…';
const FULL = 'air_full_key_123';
const mcp = endpointFixture({
  id: 'm1',
  name: 'Docs',
  route_name: 'acme/docs',
  route_endpoint: 'https://mcp.example/mcp',
  protocol: 'mcp',
  editable: true,
});

function signIn() {
  act(() =>
    setSession(signInFixture({ token: 't', role: 'owner', permission: { ...PERMISSION_MAPS.owner } })),
  );
}

/** The mcpServers entry shown: parsed, so the test reads its fields and not its layout. */
function configIn(element: HTMLElement) {
  return JSON.parse(element.textContent!) as {
    mcpServers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
  };
}

describe('"Try it now" of an MCP endpoint', () => {
  it('after creating one: an mcpServers entry and an initialize / tools/list cURL, no chat completion', async () => {
    signIn();
    mockFetch({
      'GET /api/key': { body: { data: [apiKeyFixture({ id: 'k1', key: MASKED })] } },
      'GET /api/key/:id': { body: { data: apiKeyFixture({ id: 'k1', key: FULL }) } },
    });
    const Created = () => <EndpointCreated routeName="acme/docs" protocol="mcp" onClose={() => {}} />;
    renderPage(Created, { route: '/registry', path: '/registry', title: 'registry' });
    const region = await screen.findByRole('region', { name: 'Endpoint created' });
    expect(within(region).queryByTestId('ready-call')).not.toBeInTheDocument();
    const config = await within(region).findByTestId('mcp-try-config');
    await waitFor(() =>
      expect(configIn(config).mcpServers['acme-docs']).toEqual({
        type: 'http',
        url: `${window.location.origin}/api/mcp/acme/docs`,
        headers: { Authorization: `Bearer ${MASKED}` },
      }),
    );
    const curl = within(region).getByTestId('mcp-try-curl');
    expect(curl).toHaveTextContent(`URL='${window.location.origin}/api/mcp/acme/docs'`);
    expect(curl).toHaveTextContent(`Authorization: Bearer ${MASKED}`);
    expect(curl).toHaveTextContent('"method":"initialize"');
    expect(curl).toHaveTextContent('"method":"tools/list"');
    expect(curl).toHaveTextContent('Mcp-Session-Id');
    expect(region).not.toHaveTextContent('chat/completions');
    expect(region).not.toHaveTextContent('x-route-name');

    // Copied with the real key (revealed only now).
    const writeText = vi.fn(async (_text: string) => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await act(async () => {
      fireEvent.click(within(config.parentElement!).getByRole('button', { name: 'Copy' }));
    });
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1));
    expect(
      configIn({ textContent: writeText.mock.calls[0]![0] } as HTMLElement).mcpServers['acme-docs']!.headers,
    ).toEqual({
      Authorization: `Bearer ${FULL}`,
    });
  });

  it('an OpenAI endpoint just made keeps its chat cURL', async () => {
    signIn();
    mockFetch({ 'GET /api/key': { body: { data: [apiKeyFixture({ id: 'k1', key: MASKED })] } } });
    const Created = () => <EndpointCreated routeName="acme/echo" protocol="openai" onClose={() => {}} />;
    renderPage(Created, { route: '/registry', path: '/registry', title: 'registry' });
    const ready = await screen.findByTestId('ready-call');
    await waitFor(() => expect(ready).toHaveTextContent('x-route-name: acme/echo'));
    expect(screen.queryByTestId('mcp-ready-call')).not.toBeInTheDocument();
  });

  it("the endpoint page's Try it tab: the configuration and cURL with the chosen key, no message to send", async () => {
    signIn();
    mockFetch({
      'GET /api/aiendpoint/:id': { body: { data: mcp } },
      'GET /api/aiendpoint/:id/tools': {
        body: { data: { tools: [], read_at: '2026-12-01T00:00:00.000Z', error: null, detail: null } },
      },
      'GET /api/aiendpoint/:id/upstreams': { body: { data: { routed: false, upstreams: [] } } },
      'GET /api/key': {
        body: {
          data: [
            apiKeyFixture({ id: 'k1', name: 'First', key: MASKED }),
            apiKeyFixture({ id: 'k2', name: 'Second', key: 'air_bbbb…' }),
          ],
        },
      },
      'GET /api/key/:id': { body: { data: apiKeyFixture({ key: FULL }) } },
    });
    const { user } = renderPage(EndpointPage, {
      route: '/aiendpoints/:id',
      path: '/aiendpoints/m1',
      title: 'endpoint',
    });
    await user.click(await screen.findByRole('tab', { name: 'Try it' }));
    const config = await screen.findByTestId('mcp-try-config');
    expect(configIn(config).mcpServers['acme-docs']!.url).toBe(`${window.location.origin}/api/mcp/acme/docs`);
    expect(configIn(config).mcpServers['acme-docs']!.headers.Authorization).toBe(`Bearer ${MASKED}`);
    expect(screen.getByTestId('mcp-try-curl')).toHaveTextContent('"method":"tools/list"');
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('User message')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy as cURL' })).not.toBeInTheDocument();
    // Another key chosen: the snippets name it.
    await user.selectOptions(screen.getByLabelText('API key'), 'k2');
    await waitFor(() =>
      expect(
        configIn(screen.getByTestId('mcp-try-config')).mcpServers['acme-docs']!.headers.Authorization,
      ).toBe('Bearer air_bbbb…'),
    );
  });

  it('reads in Spanish', async () => {
    signIn();
    await act(() => i18n.changeLanguage('es'));
    mockFetch({ 'GET /api/key': { body: { data: [apiKeyFixture({ id: 'k1', key: MASKED })] } } });
    const Created = () => <EndpointCreated routeName="acme/docs" protocol="mcp" onClose={() => {}} />;
    renderPage(Created, { route: '/registry', path: '/registry', title: 'registry' });
    expect(await screen.findByText('Pruébalo ahora')).toBeInTheDocument();
    expect(screen.getByLabelText('Configuración del cliente MCP')).toBeInTheDocument();
  });
});
