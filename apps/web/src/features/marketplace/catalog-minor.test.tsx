import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import type { TMarketplaceItem } from '@air/shared/schemas/marketplace';
import { MARKETPLACE_NO_STATS } from '@air/shared/schemas/marketplace';
import i18n from '@/lib/i18n';
import { mockFetch, renderPage } from '@/test/render-page';
import AirPublicLayout from '@/layouts/air-public-layout';
import SigninPage from '@/features/auth/routes/signin';
import CatalogPage from './routes/catalog';

// Issue 38, minor list: the public pages lead to sign-up, an empty catalog says what to do, and the
// card's "Provider:" label is translated.

const acme: TMarketplaceItem = {
  route_name: 'acme/chat',
  name: 'Acme Chat',
  route_type: 'model',
  protocol: 'openai' as const,
  provider: { name: 'Acme Labs', slug: 'acme' },
  model_id: null,
  description: '',
  price: null,
  currency: 'usd',
  currency_symbol: '$',
  stats: { ...MARKETPLACE_NO_STATS, calls_7d: 0, success_rate_7d: null, p50_ms_7d: null },
  created_at: '2026-11-01T00:00:00.000Z',
};

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

describe('public marketplace, signed out', () => {
  it('the top bar has a sign-up link beside sign-in', () => {
    renderPage(AirPublicLayout, { route: '/marketplace', path: '/marketplace', title: 'marketplace' });
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/signin');
  });

  it('an empty catalog asks a visitor to sign up and share', async () => {
    mockFetch({ 'GET /api/marketplace': () => ({ body: { data: { items: [], next_cursor: null } } }) });
    renderPage(CatalogPage, { route: '/marketplace', path: '/marketplace', title: 'marketplace' });
    expect(await screen.findByText('Nothing shared yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign up to share yours' })).toHaveAttribute('href', '/signup');
  });

  it('a card says "Proveedor:" in Spanish, and the language names are in their own language', async () => {
    await act(() => i18n.changeLanguage('es'));
    mockFetch({ 'GET /api/marketplace': () => ({ body: { data: { items: [acme], next_cursor: null } } }) });
    renderPage(CatalogPage, { route: '/marketplace', path: '/marketplace', title: 'marketplace' });
    const card = await screen.findByTestId('catalog-card');
    expect(within(card).getByText(/Proveedor:/)).toBeInTheDocument();
    expect(card).not.toHaveTextContent('provider:');
    expect(i18n.t('language.en')).toBe('English');
    expect(i18n.t('language.es')).toBe('Español');
    await act(() => i18n.changeLanguage('en'));
    expect(i18n.t('language.es')).toBe('Español');
  });

  it('`/` (the sign-in page) has a way to the catalog', () => {
    renderPage(SigninPage, { route: '/', path: '/', title: 'signin' });
    expect(screen.getByRole('link', { name: 'Browse the marketplace without an account' })).toHaveAttribute(
      'href',
      '/marketplace',
    );
  });
});
