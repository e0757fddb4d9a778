import { afterEach, describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import { ToasterHost } from '@/components/ui/toaster-host';
import { Toaster } from '@/components/ui/toaster';
import { resetToasts, toast, TOAST_LIMIT } from '@/components/ui/use-toast';

afterEach(() => act(() => resetToasts()));

const shown = () =>
  [...document.querySelectorAll('[data-sonner-toast]')].map((el) => ({
    // Sonner marks the variants; a default toast carries no type.
    type: el.getAttribute('data-type') ?? 'default',
    text: el.querySelector('[data-title]')?.textContent,
  }));

describe('toasts', () => {
  it('mount the toaster on the first toast and show what was asked for before it loaded', async () => {
    render(<ToasterHost />);
    expect(document.querySelector('[data-sonner-toaster]')).toBeNull();
    act(() => void toast({ title: 'Saved', variant: 'success', description: 'All good' }));
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(screen.getByText('All good')).toBeInTheDocument();
    expect(shown()).toEqual([{ type: 'success', text: 'Saved' }]);
    expect(screen.getByRole('region', { name: /Notifications/ })).toBeInTheDocument();
  });

  it('shows at most 3 at once, the newest in front; updates and dismisses by handle', async () => {
    render(<Toaster />);
    act(() => {
      for (const title of ['one', 'two', 'three', 'four']) toast({ title });
    });
    await waitFor(() => expect(screen.getByText('four')).toBeInTheDocument());
    const visible = [...document.querySelectorAll('[data-sonner-toast][data-visible="true"]')];
    expect(visible).toHaveLength(TOAST_LIMIT);
    expect(visible[0]?.textContent).toContain('four');
    let handle!: ReturnType<typeof toast>;
    act(() => {
      handle = toast({ title: 'Working', variant: 'info' });
    });
    expect(await screen.findByText('Working')).toBeInTheDocument();
    act(() => handle.update({ title: 'Done', variant: 'error' }));
    expect(await screen.findByText('Done')).toBeInTheDocument();
    expect(shown().find((t) => t.text === 'Done')?.type).toBe('error');
    act(() => handle.dismiss());
    await waitFor(() => expect(screen.queryByText('Done')).toBeNull());
  });

  it('defaults the variant to default', async () => {
    render(<Toaster />);
    act(() => void toast({ title: 'Hi' }));
    expect(await screen.findByText('Hi')).toBeInTheDocument();
    expect(shown()).toEqual([{ type: 'default', text: 'Hi' }]);
  });
});
