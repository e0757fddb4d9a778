import { describe, expect, it } from 'vitest';
import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { usePageMeta } from './page-meta';

function Endpoint() {
  usePageMeta('Echo', 'Answers quickly.');
  return <p>endpoint</p>;
}

function Other() {
  return <p>other</p>;
}

const meta = (selector: string) => document.head.querySelector<HTMLMetaElement>(selector)?.content;

describe('usePageMeta', () => {
  it('sets the title, description and Open Graph tags, and takes them away when the page is left', async () => {
    // As the server answers an endpoint's address: its tags are already in the head.
    document.head.innerHTML =
      '<meta name="description" content="Served description" /><meta property="og:title" content="Served" />';
    const router = createMemoryRouter(
      [
        { path: '/marketplace/acme/echo', element: <Endpoint /> },
        { path: '/signin', element: <Other /> },
      ],
      { initialEntries: ['/marketplace/acme/echo'] },
    );
    render(<RouterProvider router={router} />);
    expect(document.title).toBe('Echo | AIR');
    expect(meta('meta[name="description"]')).toBe('Answers quickly.');
    expect(meta('meta[property="og:title"]')).toBe('Echo');
    expect(meta('meta[property="og:description"]')).toBe('Answers quickly.');
    expect(meta('meta[property="og:url"]')).toBe(`${window.location.origin}/marketplace/acme/echo`);
    expect(document.head.querySelectorAll('meta[property="og:title"]')).toHaveLength(1);

    await act(() => router.navigate('/signin'));
    expect(meta('meta[name="description"]')).toBe('AIR: register, share and call AI endpoints');
    expect(document.head.querySelectorAll('meta[property^="og:"]')).toHaveLength(0);

    await act(() => router.navigate(-1));
    expect(document.title).toBe('Echo | AIR');
    expect(meta('meta[property="og:title"]')).toBe('Echo');
  });
});
