import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { clearSession, setSession } from '@/lib/session';
import { mockFetch, renderPage } from '@/test/render-page';
import EndpointPage from './routes/endpoint';
import { headersPatch } from './components/endpoint-settings';

afterEach(() => {
  vi.unstubAllGlobals();
  act(() => clearSession());
});

const id = '00000000-0000-4000-8000-000000000009';
const own = {
  id,
  name: 'Echo',
  route_name: 'acme/echo',
  route_endpoint: 'http://127.0.0.1:9/v1',
  route_type: 'agent',
  isActive: true,
  isPrivate: true,
  isShared: false,
  account_orgDisplayName: 'Acme',
  editable: true,
  config: {
    description: '<p>Hello</p>',
    upstream_model: null,
    timeout_ms: null,
    headers: { 'x-upstream-key': '********' },
  },
};

function signIn() {
  act(() => setSession({ token: 't', name: 'Ann', account_id: 'acc', permission: { user: true } }));
}

describe('endpoint detail', () => {
  it('saves each switch on change with PATCH', async () => {
    signIn();
    const calls = mockFetch({
      [`GET /api/aiendpoint/${id}`]: { body: { data: own } },
      [`PATCH /api/aiendpoint/${id}`]: { body: {} },
    });
    const { user } = renderPage(EndpointPage, {
      route: '/aiendpoints/:id',
      path: `/aiendpoints/${id}`,
      title: 'endpoint',
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Echo' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toHaveTextContent('Registry');
    // The lazily loaded rich-text editor shows the stored description.
    expect(await screen.findByRole('toolbar', { name: 'Formatting' }, { timeout: 8000 })).toBeInTheDocument();
    expect(await screen.findByText('Hello')).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Shared' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ isShared: true });
    expect(screen.getByRole('switch', { name: 'Private' })).toBeInTheDocument();
  });

  it('shows only the Active switch to a visitor who is not signed in', async () => {
    mockFetch({ [`GET /api/aiendpoint/${id}`]: { body: { data: own } } });
    renderPage(EndpointPage, { route: '/aiendpoints/:id', path: `/aiendpoints/${id}`, title: 'endpoint' });
    expect(await screen.findByRole('switch', { name: 'Active' })).toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Private' })).not.toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Shared' })).not.toBeInTheDocument();
  });

  it("opens another account's shared endpoint read-only", async () => {
    signIn();
    mockFetch({
      [`GET /api/aiendpoint/${id}`]: {
        body: {
          data: {
            ...own,
            editable: false,
            route_endpoint: undefined,
            account_orgDisplayName: 'Globex',
            config: { description: '' },
          },
        },
      },
    });
    renderPage(EndpointPage, { route: '/aiendpoints/:id', path: `/aiendpoints/${id}`, title: 'endpoint' });
    expect(await screen.findByText(/shared by Globex/)).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Active' })).toBeDisabled();
    expect(screen.getByLabelText('Name')).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('keeps masked header values unless changed and removes deleted ones', () => {
    const stored = { 'x-a': '********', 'x-b': '********' };
    expect(
      headersPatch(
        [
          { key: 1, name: 'x-a', value: '********', storedName: 'x-a' },
          { key: 2, name: 'x-c', value: 'new', storedName: null },
        ],
        stored,
      ),
    ).toEqual({ 'x-a': '********', 'x-b': null, 'x-c': 'new' });
  });
});
