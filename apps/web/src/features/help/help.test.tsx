import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { mockFetch, renderPage } from '@/test/render-page';
import HelpPage from './routes/help';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/help', () => {
  it('filters the sections by the search and sends the support form', { timeout: 20_000 }, async () => {
    const calls = mockFetch({
      'GET /api/utility/config': { body: { data: { docs_url: '/api/docs', support_configured: true } } },
      'POST /api/utility/mail': { body: { message: 'Message sent. A copy is on its way to your inbox' } },
    });
    const { user } = renderPage(HelpPage, { route: '/help', path: '/help', title: 'help' });
    expect(await screen.findByRole('heading', { name: /Getting started/ })).toBeInTheDocument();
    await user.click(screen.getByRole('searchbox', { name: 'Search the help' }));
    await user.paste('stream');
    expect(screen.getByRole('heading', { name: /Gateway reference/ })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /Billing/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Link to Gateway reference' })).toHaveAttribute(
      'href',
      '#gateway',
    );

    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(screen.getByText('Please enter a message')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    // No session user here, so nothing is prefilled: name and email are asked for too.
    expect(screen.getByText('Please enter your name')).toBeInTheDocument();
    await user.click(screen.getByLabelText('Name'));
    await user.paste('Ana');
    await user.click(screen.getByLabelText('Email'));
    await user.paste('ana@example.test');
    await user.click(screen.getByLabelText('Message'));
    await user.paste('Help me');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
        template: 'help',
        message: 'Help me',
      }),
    );
  });
});

describe('/help with a support address', () => {
  it('the introduction says a copy goes to the inbox', async () => {
    mockFetch({
      'GET /api/utility/config': { body: { data: { docs_url: '/api/docs', support_configured: true } } },
    });
    renderPage(HelpPage, { route: '/help', path: '/help', title: 'help' });
    expect(await screen.findByText(/A copy of your message goes to your inbox/)).toBeInTheDocument();
  });
});
