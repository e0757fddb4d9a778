import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  endpointFixture,
  PERMISSION_MAPS,
  routingConfigFixture,
  sharedEndpointFixture,
  signInFixture,
} from '@/test/fixtures';
import { act, screen, waitFor, within } from '@testing-library/react';
import { clearSession, setSession } from '@/lib/session';
import { mockFetch, renderPage } from '@/test/render-page';
import EndpointPage from './routes/endpoint';
import { headersPatch } from './components/endpoint-settings';

afterEach(() => {
  vi.unstubAllGlobals();
  act(() => clearSession());
});

const id = '00000000-0000-4000-8000-000000000009';
const own = endpointFixture({
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
  config: routingConfigFixture('http://127.0.0.1:9/v1', {
    description: '<p>Hello</p>',
    headers: { 'x-upstream-key': '********' },
  }),
});

function signIn() {
  act(() =>
    setSession(
      signInFixture({
        token: 't',
        name: 'Ann',
        account_id: 'acc',
        role: 'user',
        permission: { ...PERMISSION_MAPS.user },
      }),
    ),
  );
}

describe('endpoint detail', () => {
  it('saves each switch on change with PATCH', async () => {
    signIn();
    const calls = mockFetch({
      'GET /api/aiendpoint/:id': { body: { data: own } },
      'PATCH /api/aiendpoint/:id': { body: { data: { ...own, isShared: true } } },
    });
    const { user } = renderPage(EndpointPage, {
      route: '/aiendpoints/:id',
      path: `/aiendpoints/${id}`,
      title: 'endpoint',
    });
    // The route name is the endpoint's identity (monospace title); its own name shows beside.
    const title = await screen.findByRole('heading', { level: 1, name: 'acme/echo' });
    expect(title).toHaveClass('font-mono');
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toHaveTextContent('Registryacme/echo');
    expect(screen.getByText('Echo', { selector: 'dd' })).toBeInTheDocument();
    // The lazily loaded rich-text editor shows the stored description.
    expect(await screen.findByRole('toolbar', { name: 'Formatting' }, { timeout: 8000 })).toBeInTheDocument();
    expect(await screen.findByText('Hello')).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Shared' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ isShared: true });
    expect(screen.getByRole('switch', { name: 'Private' })).toBeInTheDocument();
  });

  it('Settings turns trace content on with PATCH config.trace_content, and back when the save fails', async () => {
    signIn();
    const calls = mockFetch({
      'GET /api/aiendpoint/:id': { body: { data: own } },
      'PATCH /api/aiendpoint/:id': { body: { data: own } },
    });
    const { user } = renderPage(EndpointPage, {
      route: '/aiendpoints/:id',
      path: `/aiendpoints/${id}`,
      title: 'endpoint',
    });
    await user.click(await screen.findByRole('tab', { name: 'Settings' }));
    const toggle = await screen.findByRole('switch', { name: 'Record prompts and answers' });
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription(/Off by default/);
    await user.click(toggle);
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ config: { trace_content: true } });
    expect(toggle).toBeChecked();

    const failing = mockFetch({
      'GET /api/aiendpoint/:id': { body: { data: own } },
      'PATCH /api/aiendpoint/:id': { status: 500, body: { code: 'internal', message: 'Broken' } },
    });
    await user.click(toggle);
    await waitFor(() => expect(failing.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    await waitFor(() => expect(toggle).toBeChecked());
    expect(failing.find((c) => c.method === 'PATCH')!.body).toEqual({ config: { trace_content: false } });
  });

  it('Settings lists the calls it serves (chat alone for a URL not ending in /chat/completions) and saves each switch', async () => {
    signIn();
    const calls = mockFetch({
      'GET /api/aiendpoint/:id': { body: { data: own } },
      'PATCH /api/aiendpoint/:id': { body: { data: own } },
    });
    const { user } = renderPage(EndpointPage, {
      route: '/aiendpoints/:id',
      path: `/aiendpoints/${id}`,
      title: 'endpoint',
    });
    await user.click(await screen.findByRole('tab', { name: 'Settings' }));
    const chat = await screen.findByRole('switch', { name: 'Chat completions' });
    const embeddings = screen.getByRole('switch', { name: 'Embeddings' });
    // http://127.0.0.1:9/v1 with no protocols registered serves chat alone, which stays on.
    expect(chat).toBeChecked();
    expect(chat).toBeDisabled();
    expect(embeddings).not.toBeChecked();
    expect(embeddings).toHaveAccessibleDescription('/api/v1/embeddings');
    await user.click(embeddings);
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ protocols: ['chat', 'embeddings'] });
    await waitFor(() => expect(chat).toBeEnabled());

    const failing = mockFetch({
      'GET /api/aiendpoint/:id': { body: { data: own } },
      'PATCH /api/aiendpoint/:id': { status: 500, body: { code: 'internal', message: 'Broken' } },
    });
    await user.click(chat);
    await waitFor(() => expect(failing.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(failing.find((c) => c.method === 'PATCH')!.body).toEqual({ protocols: ['embeddings'] });
    await waitFor(() => expect(chat).toBeChecked());
  });

  it("refuses the Overview name with the server's rule and message before sending", async () => {
    signIn();
    const calls = mockFetch({ 'GET /api/aiendpoint/:id': { body: { data: own } } });
    const { user } = renderPage(EndpointPage, {
      route: '/aiendpoints/:id',
      path: `/aiendpoints/${id}`,
      title: 'endpoint',
    });
    const name = await screen.findByLabelText('Name');
    await user.clear(name);
    await user.tab();
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    await user.click(name);
    await user.paste('n'.repeat(201));
    await user.tab();
    expect(await screen.findByText('Name must be at most 200 characters')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
  });

  it("Settings refuses a reserved or malformed header name and an out-of-range timeout with the server's messages", async () => {
    signIn();
    const calls = mockFetch({ 'GET /api/aiendpoint/:id': { body: { data: own } } });
    const { user } = renderPage(EndpointPage, {
      route: '/aiendpoints/:id',
      path: `/aiendpoints/${id}`,
      title: 'endpoint',
    });
    await user.click(await screen.findByRole('tab', { name: 'Settings' }));
    const name = await screen.findByRole('textbox', { name: 'Header name 1' });
    await user.clear(name);
    await user.type(name, 'Host');
    await user.type(screen.getByLabelText('Timeout (ms)'), '5');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(
      await screen.findByText('Host is set by the gateway and cannot be configured'),
    ).toBeInTheDocument();
    expect(screen.getByText('Timeout (ms) must be at least 1000')).toBeInTheDocument();
    await user.clear(name);
    await user.type(name, 'bad name');
    // A new value: a masked one under a new name is not sent (it means "keep" only under its own).
    const value = screen.getByRole('textbox', { name: 'Header value 1' });
    await user.clear(value);
    await user.type(value, 'secret');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(
      await screen.findByText('Upstream headers need valid header names (at most 20 headers)'),
    ).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
  });

  it('Settings keeps a masked header value unless retyped, shows a refusal under the header it names, and sends the rows', async () => {
    signIn();
    let refuse = true;
    const calls = mockFetch({
      'GET /api/aiendpoint/:id': { body: { data: own } },
      'PATCH /api/aiendpoint/:id': () =>
        refuse
          ? { status: 400, body: { inputError: 'config.headers.x-new', message: 'Not that header' } }
          : { body: { data: own, message: 'Endpoint saved' } },
    });
    const { user } = renderPage(EndpointPage, {
      route: '/aiendpoints/:id',
      path: `/aiendpoints/${id}`,
      title: 'endpoint',
    });
    await user.click(await screen.findByRole('tab', { name: 'Settings' }));
    const stored = await screen.findByRole('textbox', { name: 'Header value 1' });
    expect(stored).toHaveValue('********');
    // Focusing a masked value clears it; leaving it empty puts the mask (keep) back.
    await user.click(stored);
    expect(stored).toHaveValue('');
    await user.tab();
    expect(stored).toHaveValue('********');
    await user.click(screen.getByRole('button', { name: 'Add header' }));
    await user.type(screen.getByRole('textbox', { name: 'Header name 2' }), 'x-new');
    await user.type(screen.getByRole('textbox', { name: 'Header value 2' }), 'v');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Not that header')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Header name 2' })).toHaveAttribute('aria-invalid', 'true');
    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PATCH')[1]!.body).toEqual({
      config: {
        headers: { 'x-upstream-key': '********', 'x-new': 'v' },
        upstream_model: null,
        timeout_ms: null,
      },
      model_id: null,
    });
    // The card's own word for a save, as before the engine (not the server's message).
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    // What the server now holds: every value masked again.
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Header value 2' })).toHaveValue('********'),
    );
  });

  it('Settings saves the model the endpoint serves (top-level model_id) and shows it as the server stored it', async () => {
    signIn();
    const calls = mockFetch({
      'GET /api/aiendpoint/:id': { body: { data: own } },
      'PATCH /api/aiendpoint/:id': () => ({
        body: { data: { ...own, model_id: 'meta-llama/llama-3.1-70b' }, message: 'Endpoint saved' },
      }),
    });
    const { user } = renderPage(EndpointPage, {
      route: '/aiendpoints/:id',
      path: `/aiendpoints/${id}`,
      title: 'endpoint',
    });
    await user.click(await screen.findByRole('tab', { name: 'Settings' }));
    const field = await screen.findByRole('textbox', { name: 'Model served' });
    expect(field).toHaveValue('');
    await user.type(field, 'Meta-Llama/Llama 3.1 70B');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toMatchObject({
      model_id: 'Meta-Llama/Llama 3.1 70B',
    });
    await waitFor(() => expect(field).toHaveValue('meta-llama/llama-3.1-70b'));
  });

  it('shows only the Active switch to a visitor who is not signed in', async () => {
    mockFetch({ 'GET /api/aiendpoint/:id': { body: { data: own } } });
    renderPage(EndpointPage, { route: '/aiendpoints/:id', path: `/aiendpoints/${id}`, title: 'endpoint' });
    expect(await screen.findByRole('switch', { name: 'Active' })).toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Private' })).not.toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Shared' })).not.toBeInTheDocument();
  });

  it("opens another account's shared endpoint read-only", async () => {
    signIn();
    mockFetch({
      'GET /api/aiendpoint/:id': {
        body: {
          data: {
            ...sharedEndpointFixture({
              id,
              name: 'Echo',
              route_type: 'agent',
              account_orgDisplayName: 'Globex',
            }),
            editable: false,
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

  it('Settings edits routing: upstreams, retries, a fallback from the picker, with the contract ranges and server messages under the fields', async () => {
    signIn();
    const fallback = sharedEndpointFixture({
      id: '00000000-0000-4000-8000-0000000000f1',
      route_name: 'open/backup',
    });
    const saved = {
      ...own,
      config: routingConfigFixture('http://127.0.0.1:9/v1', {
        upstreams: [
          { url: 'http://127.0.0.1:9/v1', weight: 3, format: 'openai' },
          { url: 'http://127.0.0.1:9/v2', weight: 1, format: 'openai' },
        ],
        retry: { attempts: 2, backoff_ms: 250 },
        fallbacks: ['open/backup'],
      }),
    };
    let refuse = true;
    const calls = mockFetch({
      'GET /api/aiendpoint/:id': { body: { data: own } },
      'GET /api/aiendpoint': { body: { data: [own] } },
      'GET /api/aiendpointShared': { body: { data: [fallback] } },
      'GET /api/aiendpoint/:id/upstreams': {
        body: {
          data: {
            routed: false,
            upstreams: [
              {
                url: 'http://127.0.0.1:9/v1',
                weight: 1,
                state: 'closed',
                last_failure_at: null,
                attempts_1h: 0,
                failures_1h: 0,
                open_reason: null,
                opened_by_callers: 0,
                open_for_callers: 0,
              },
            ],
          },
        },
      },
      'PATCH /api/aiendpoint/:id': () =>
        refuse
          ? {
              status: 400,
              body: {
                inputError: 'config.upstreams.1.url',
                message: 'Private, loopback and link-local addresses are not allowed',
              },
            }
          : { body: { data: saved } },
    });
    const { user } = renderPage(EndpointPage, {
      route: '/aiendpoints/:id',
      path: `/aiendpoints/${id}`,
      title: 'endpoint',
    });
    // The Overview shows each upstream's live state.
    expect(await screen.findByRole('list', { name: 'Upstreams' })).toHaveTextContent('Healthy');
    await user.click(await screen.findByRole('tab', { name: 'Settings' }));
    const form = await screen.findByRole('form', { name: 'Routing and resilience' });
    await user.click(within(form).getByRole('button', { name: 'Add upstream' }));
    await user.type(within(form).getByRole('textbox', { name: 'Upstream URL 2' }), 'http://127.0.0.1:9/v2');
    const weight = within(form).getByRole('textbox', { name: 'Weight 1' });
    await user.clear(weight);
    await user.type(weight, '101');
    const attempts = within(form).getByLabelText('Retry attempts');
    await user.clear(attempts);
    await user.type(attempts, '6');
    await user.click(within(form).getByRole('button', { name: 'Save routing' }));
    expect(await within(form).findByText('Weight must be at most 100')).toBeInTheDocument();
    expect(within(form).getByText('Retry attempts must be at most 5')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);

    await user.clear(weight);
    await user.type(weight, '3');
    await user.clear(attempts);
    await user.type(attempts, '2');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Choose a route' }), 'open/backup');
    await user.click(within(form).getByRole('button', { name: 'Add fallback' }));
    await user.click(within(form).getByRole('button', { name: 'Save routing' }));
    // The server's refusal shows under the upstream it names.
    expect(
      await within(form).findByText('Private, loopback and link-local addresses are not allowed'),
    ).toBeInTheDocument();
    refuse = false;
    await user.click(within(form).getByRole('button', { name: 'Save routing' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PATCH')[1]!.body).toEqual({
      config: {
        upstreams: [
          { url: 'http://127.0.0.1:9/v1', weight: 3, format: 'openai' },
          { url: 'http://127.0.0.1:9/v2', weight: 1, format: 'openai' },
        ],
        retry: { attempts: 2, backoff_ms: 250 },
        fallbacks: ['open/backup'],
        circuit: { failures: 5, cooldown_s: 30 },
        cache_ttl_s: 0,
      },
    });
  }, 20_000);
});
