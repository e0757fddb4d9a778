import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { mockFetch, renderPage } from '@/test/render-page';
import HelpPage from './routes/help';

// A file of its own: the console reads the server's utility config once per page load.
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/help without a support address', () => {
  it('promises no answer nor copy by mail, and says support is not set up', async () => {
    mockFetch({
      'GET /api/utility/config': { body: { data: { docs_url: '/api/docs', support_configured: false } } },
    });
    renderPage(HelpPage, { route: '/help', path: '/help', title: 'help' });
    expect(await screen.findByText(/support contact is not set up/)).toBeInTheDocument();
    expect(screen.queryByText(/copy of your message/i)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send message' })).toBeNull();
  });
});
