import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { TMcpTools } from '@air/shared/schemas/aiendpoint';
import { endpointFixture, signInFixture } from '@/test/fixtures';
import { clearSession, setSession } from '@/lib/session';
import { mockFetch, renderPage } from '@/test/render-page';
import EndpointPage from './routes/endpoint';

afterEach(() => {
  vi.unstubAllGlobals();
  act(() => clearSession());
});

// Issue 41 item 1: an MCP endpoint's page shows its server's tools (GET /api/aiendpoint/{id}/tools).
const id = '00000000-0000-4000-8000-000000000041';
const mcp = endpointFixture({
  id,
  route_name: 'acme/docs',
  route_endpoint: 'https://docs.acme.example/mcp',
  protocol: 'mcp',
});
const read_at = '2026-12-01T00:00:00.000Z';

function open(tools: TMcpTools, patchStatus: 200 | 500 = 200) {
  act(() => setSession(signInFixture({ token: 't', name: 'Ann', account_id: 'acc', role: 'user' })));
  const calls = mockFetch({
    'GET /api/aiendpoint/:id': { body: { data: { ...mcp, disabled_tools: ['purge'] } } },
    'GET /api/aiendpoint/:id/upstreams': {
      body: { data: { routed: false, upstreams: [] } },
    },
    'GET /api/aiendpoint/:id/tools': { body: { data: tools } },
    'PATCH /api/aiendpoint/:id':
      patchStatus === 200
        ? { body: { data: mcp } }
        : { status: patchStatus, body: { code: 'internal', message: 'Something went wrong' } },
  });
  const { user } = renderPage(EndpointPage, {
    route: '/aiendpoints/:id',
    path: `/aiendpoints/${id}`,
    title: 'endpoint',
  });
  return { calls, user };
}

const twoTools: TMcpTools = {
  tools: [
    { name: 'search', description: null, input_schema: {}, read_only: true, destructive: null },
    { name: 'purge', description: null, input_schema: {}, read_only: false, destructive: true },
  ],
  error: null,
  detail: null,
  read_at,
};

describe("an MCP endpoint's tools", () => {
  it('lists each tool with its description, its hints and its input schema', async () => {
    open({
      tools: [
        {
          name: 'search',
          description: 'Searches the documents',
          input_schema: { type: 'object', properties: { query: { type: 'string' } } },
          read_only: true,
          destructive: null,
        },
        {
          name: 'purge',
          description: null,
          input_schema: { type: 'object' },
          read_only: false,
          destructive: true,
        },
      ],
      error: null,
      detail: null,
      read_at,
    });
    const list = await screen.findByRole('list', { name: 'Tools' });
    const [search, purge] = within(list).getAllByRole('listitem');
    expect(search).toHaveTextContent('search');
    expect(search).toHaveTextContent('Searches the documents');
    expect(search).toHaveTextContent('Read-only');
    expect(search).toHaveTextContent('"query"');
    expect(purge).toHaveTextContent('Destructive');
    expect(purge).not.toHaveTextContent('Read-only');
    expect(screen.getByRole('button', { name: 'Read again' })).toBeInTheDocument();
  });

  it('says why no tools could be read', async () => {
    open({ tools: [], error: 'http_status', detail: 'initialize: HTTP 401', read_at });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The tools could not be read: the server answered with an error status.initialize: HTTP 401',
    );
  });

  it("switches a tool off and on for callers, saving the endpoint's disabled_tools", async () => {
    const { calls, user } = open(twoTools);
    const search = await screen.findByRole('switch', { name: 'Callers may use search' });
    const purge = screen.getByRole('switch', { name: 'Callers may use purge' });
    // Stored off: shown off, with its badge.
    expect(purge).not.toBeChecked();
    expect(search).toBeChecked();
    expect(screen.getAllByText('Switched off')).toHaveLength(1);
    await user.click(search);
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ disabled_tools: ['purge', 'search'] });
    expect(search).not.toBeChecked();
    await user.click(purge);
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PATCH')[1]!.body).toEqual({ disabled_tools: ['search'] });
    expect(purge).toBeChecked();
  });

  it('puts the switch back when the save fails', async () => {
    const { user } = open(twoTools, 500);
    const search = await screen.findByRole('switch', { name: 'Callers may use search' });
    await user.click(search);
    await waitFor(() => expect(search).toBeChecked());
  });
});
