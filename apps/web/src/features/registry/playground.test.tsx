import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { clearSession, setSession } from '@/lib/session';
import { apiKeyFixture, endpointFixture, PERMISSION_MAPS, signInFixture } from '@/test/fixtures';
import { mockFetch, renderPage } from '@/test/render-page';
import EndpointPage from './routes/endpoint';

const readAnswer = vi.hoisted(() => vi.fn());
vi.mock('./playground-stream', () => ({ readAnswer }));

afterEach(() => {
  vi.unstubAllGlobals();
  readAnswer.mockReset();
  act(() => clearSession());
});

const own = endpointFixture({ id: 'e1', name: 'Echo', route_name: 'acme/echo', editable: true });
const key = apiKeyFixture({ key: 'air_full' });

describe('playground (Try it)', () => {
  it('sends the typed messages with the chosen key, streamed or not, and shows the answer', async () => {
    act(() =>
      setSession(signInFixture({ token: 't', role: 'owner', permission: { ...PERMISSION_MAPS.owner } })),
    );
    mockFetch({
      'GET /api/aiendpoint/:id': { body: { data: own } },
      'GET /api/key': { body: { data: [apiKeyFixture({ id: 'k0', active: false }), key] } },
      'GET /api/key/:id': { body: { data: key } },
    });
    readAnswer.mockImplementation(async ({ onUpdate }) => {
      const result = {
        status: 200,
        text: 'Hello back',
        latencyMs: 12,
        ttftMs: null,
        promptTokens: 3,
        completionTokens: 2,
      };
      onUpdate(result);
      return result;
    });
    const { user } = renderPage(EndpointPage, {
      route: '/aiendpoints/:id',
      path: '/aiendpoints/e1',
      title: 'endpoint',
    });
    await user.click(await screen.findByRole('tab', { name: 'Try it' }));
    const send = await screen.findByRole('button', { name: 'Send' });
    // Nothing to send until there is a message (and the key is known in full).
    expect(send).toBeDisabled();
    await user.type(screen.getByLabelText('System message (optional)'), 'Be brief');
    await user.type(screen.getByLabelText('User message'), 'Hello');
    await user.click(screen.getByRole('switch', { name: 'Stream the answer' }));
    await waitFor(() => expect(send).toBeEnabled());
    await user.click(send);
    await waitFor(() => expect(readAnswer).toHaveBeenCalledTimes(1));
    expect(readAnswer.mock.calls[0]![0]).toMatchObject({
      key: 'air_full',
      routeName: 'acme/echo',
      body: {
        model: 'acme/echo',
        messages: [
          { role: 'system', content: 'Be brief' },
          { role: 'user', content: 'Hello' },
        ],
      },
    });
    expect(readAnswer.mock.calls[0]![0].body).not.toHaveProperty('stream');
    expect(await screen.findByTestId('playground-answer')).toHaveTextContent('Hello back');
  });

  it('shows which route answered (a fallback marked) and how many attempts it took', async () => {
    // The setup's stand-in went with the previous test's unstubAllGlobals.
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    );
    act(() =>
      setSession(signInFixture({ token: 't', role: 'owner', permission: { ...PERMISSION_MAPS.owner } })),
    );
    mockFetch({
      'GET /api/aiendpoint/:id': { body: { data: own } },
      'GET /api/key': { body: { data: [key] } },
      'GET /api/key/:id': { body: { data: key } },
    });
    readAnswer.mockImplementation(async ({ onUpdate }) => {
      const result = {
        status: 200,
        text: 'From the backup',
        latencyMs: 40,
        ttftMs: null,
        promptTokens: 3,
        completionTokens: 2,
        route: 'acme/backup',
        attempts: 3,
        cached: false,
      };
      onUpdate(result);
      return result;
    });
    const { user } = renderPage(EndpointPage, {
      route: '/aiendpoints/:id',
      path: '/aiendpoints/e1',
      title: 'endpoint',
    });
    await user.click(await screen.findByRole('tab', { name: 'Try it' }));
    await user.type(await screen.findByLabelText('User message'), 'Hello');
    const send = screen.getByRole('button', { name: 'Send' });
    await waitFor(() => expect(send).toBeEnabled());
    await user.click(send);
    expect(await screen.findByTestId('playground-Answered by')).toHaveTextContent('acme/backup (fallback)');
    expect(screen.getByTestId('playground-Attempts')).toHaveTextContent('3');
  });
});
