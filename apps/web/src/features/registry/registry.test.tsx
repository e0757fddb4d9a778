import { afterEach, describe, expect, it, vi } from 'vitest';
import { endpointFixture, sharedEndpointFixture } from '@/test/fixtures';
import { screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderPage } from '@/test/render-page';
import RegistryPage from './routes/registry';

afterEach(() => vi.unstubAllGlobals());

const types = ['agent', 'model', 'datasource'] as const;
const mine = Array.from({ length: 15 }, (_, i) =>
  endpointFixture({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name: `Endpoint ${String(i + 1).padStart(2, '0')}`,
    route_name: `acme/route-${i + 1}`,
    route_endpoint: `https://upstream.example.com/${i + 1}`,
    route_type: types[i % 3]!,
    isActive: i % 2 === 0,
    isPrivate: i % 3 === 0,
    isShared: false,
    account_orgDisplayName: 'Acme',
  }),
);
const shared = [
  sharedEndpointFixture({
    id: 'shared-1',
    name: 'Their model',
    route_name: 'globex/gpt',
    route_type: 'model',
    isShared: true,
    account_orgDisplayName: 'Globex',
    config: { description: '<p>Fast <b>and</b> cheap</p>' },
  }),
];

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

describe('registry page', () => {
  it('shows My Registry with its columns, badge colours and 12 rows a page', async () => {
    mockFetch({ 'GET /api/aiendpoint': { body: { data: mine } } });
    renderPage(RegistryPage, { route: '/registry', path: '/registry', title: 'registry' });
    await screen.findByText('Endpoint 01');
    const headers = within(screen.getByRole('table'))
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    // The route name first: it is the row's identity.
    expect(headers.slice(1, 7)).toEqual(['Route name', 'Name', 'Status', 'Visibility', 'Type', 'Endpoint']);
    expect(rows()).toHaveLength(12);
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();

    const first = within(rows()[0]!); // agent, active, private
    expect(first.getByText('Active')).toHaveAttribute('data-variant', 'green');
    expect(first.getByText('Private')).toHaveAttribute('data-variant', 'blue');
    expect(first.getByText('AI Agent')).toHaveAttribute('data-variant', 'blue');
    const second = within(rows()[1]!); // model, inactive, public
    expect(second.getByText('Inactive')).toHaveAttribute('data-variant', 'blue');
    expect(second.getByText('Public')).toHaveAttribute('data-variant', 'green');
    expect(second.getByText('AI Model')).toHaveAttribute('data-variant', 'green');
    expect(within(rows()[2]!).getByText('AI Knowledgebase')).toHaveAttribute('data-variant', 'orange');
    expect(first.getByText('acme/route-1')).toBeInTheDocument();
    expect(first.getByText('https://upstream.example.com/1')).toBeInTheDocument();
  });

  it('lists the shared provider registry with org and plain-text description', async () => {
    mockFetch({
      'GET /api/aiendpoint': { body: { data: mine } },
      'GET /api/aiendpointShared': { body: { data: shared } },
    });
    const { user } = renderPage(RegistryPage, { route: '/registry', path: '/registry', title: 'registry' });
    await user.click(await screen.findByRole('tab', { name: 'Provider Registry' }));
    await screen.findByText('Their model');
    const headers = within(screen.getByRole('table'))
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers.slice(0, 6)).toEqual(['Route name', 'Name', 'Type', 'Provider', 'Description', 'Actions']);
    expect(screen.getByText('Globex')).toBeInTheDocument();
    expect(screen.getByText('Fast and cheap')).toBeInTheDocument();
  });

  it('creates with route_type agent by default and no name (the server names it after its route); 409 lands on route_name', async () => {
    let attempt = 0;
    const calls = mockFetch({
      'GET /api/aiendpoint': { body: { data: mine } },
      'POST /api/aiendpoint': () =>
        ++attempt === 1
          ? { status: 409, body: { message: 'This route name is taken', inputError: 'route_name' } }
          : { body: { data: { data: 'new-id', id: 'new-id' } } },
    });
    const { user } = renderPage(RegistryPage, { route: '/registry', path: '/registry', title: 'registry' });
    await user.click(await screen.findByRole('button', { name: 'New' }));
    const dialog = await screen.findByRole('dialog');
    const [type, protocol] = await within(dialog).findAllByRole('combobox');
    expect(type).toHaveTextContent('AI Agent');
    expect(protocol).toHaveTextContent('OpenAI-compatible');
    await user.type(await within(dialog).findByLabelText(/Route name/), 'acme/taken');
    await user.type(within(dialog).getByLabelText(/Endpoint URL/), 'https://up.example.com/v1');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('This route name is taken')).toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText(/Route name/));
    await user.type(within(dialog).getByLabelText(/Route name/), 'acme/free');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const posts = calls.filter((c) => c.method === 'POST');
    const sent = posts.at(-1)!.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      route_name: 'acme/free',
      route_endpoint: 'https://up.example.com/v1',
      route_type: 'agent',
      protocol: 'openai',
      isShared: false,
      isPrivate: true,
    });
    expect(sent).not.toHaveProperty('name');
  }, 40_000);

  it('bulk deletes the selected rows through DELETE /api/aiendpoint/{ids}', async () => {
    const calls = mockFetch({
      'GET /api/aiendpoint': { body: { data: mine.slice(0, 3) } },
      'DELETE /api/aiendpoint/:ids': { body: { data: { deleted: 2 } } },
    });
    const { user } = renderPage(RegistryPage, { route: '/registry', path: '/registry', title: 'registry' });
    await screen.findByText('Endpoint 01');
    await user.click(within(rows()[0]!).getByRole('checkbox'));
    await user.click(within(rows()[1]!).getByRole('checkbox'));
    await user.click(
      within(screen.getByRole('group', { name: 'Actions for selected rows' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls.find((c) => c.method === 'DELETE')!.url).toBe(
      `/api/aiendpoint/${mine[0]!.id},${mine[1]!.id}`,
    );
  });

  it('opens an endpoint from its row on click, the route name as the row name', async () => {
    mockFetch({ 'GET /api/aiendpoint': { body: { data: mine } } });
    const { user } = renderPage(RegistryPage, { route: '/registry', path: '/registry', title: 'registry' });
    const row = await screen.findByRole('row', { name: 'acme/route-2' });
    expect(within(row).getByText('acme/route-2')).toHaveClass('font-mono');
    await user.click(within(row).getByText('Endpoint 02'));
    expect(screen.getByTestId('elsewhere')).toBeInTheDocument();
  });

  it('opens an endpoint on Enter from a focused row', async () => {
    mockFetch({ 'GET /api/aiendpoint': { body: { data: mine } } });
    const { user } = renderPage(RegistryPage, { route: '/registry', path: '/registry', title: 'registry' });
    const row = await screen.findByRole('row', { name: 'acme/route-3' });
    row.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByTestId('elsewhere')).toBeInTheDocument();
  });

  it('says what to do when the registry is empty', async () => {
    mockFetch({ 'GET /api/aiendpoint': { body: { data: [] } } });
    renderPage(RegistryPage, { route: '/registry', path: '/registry', title: 'registry' });
    expect(await screen.findByText('Register your first endpoint')).toBeInTheDocument();
    expect(screen.getByText(/New asks for a route name/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New' })).toBeInTheDocument();
  });
});
