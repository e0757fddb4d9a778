import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, waitFor } from '@testing-library/react';
import { ApiError } from '@/lib/api';
import { handleError } from '@/lib/error-handler';
import { Toaster } from '@/components/ui/toaster';
import { resetToasts } from '@/components/ui/use-toast';

interface TShown {
  variant: string | null;
  title: string | null | undefined;
  description: string | null | undefined;
}

/** The toasts on screen, as the toaster draws them. */
function onScreen(): TShown[] {
  return [...document.querySelectorAll('[data-sonner-toast]')].map((el) => ({
    variant: el.getAttribute('data-type'),
    title: el.querySelector('[data-title]')?.textContent,
    description: el.querySelector('[data-description]')?.textContent,
  }));
}

function setup() {
  const navigate = vi.fn();
  render(<Toaster />);
  const run = (error: unknown) => act(() => handleError(error, navigate));
  const toasts = async () => {
    await waitFor(() => expect(onScreen().length).toBeGreaterThan(0));
    return onScreen();
  };
  return { navigate, run, toasts };
}

afterEach(() => act(() => resetToasts()));

describe('handleError', () => {
  it('401 goes to /signin without a toast', () => {
    const { navigate, run } = setup();
    run(new ApiError(401, { message: 'Unauthorised' }));
    expect(navigate).toHaveBeenCalledWith('/signin');
    expect(onScreen()).toHaveLength(0);
  });

  it('404 goes to /notfound', () => {
    const { navigate, run } = setup();
    run(new ApiError(404, { message: 'Not found' }));
    expect(navigate).toHaveBeenCalledWith('/notfound');
  });

  it('402 goes to the upgrade page with the plan from the body', () => {
    const { navigate, run } = setup();
    run(new ApiError(402, { message: 'Upgrade', plan: 'pro' }));
    expect(navigate).toHaveBeenCalledWith('/account/upgrade?plan=pro');
  });

  it('429 shows an error toast whose description is the response body', async () => {
    const { navigate, run, toasts } = setup();
    run(new ApiError(429, 'Too many requests, slow down'));
    expect(navigate).not.toHaveBeenCalled();
    expect((await toasts())[0]).toMatchObject({
      variant: 'error',
      description: 'Too many requests, slow down',
    });
  });

  it('any other status shows the generic title and the body message', async () => {
    const { run, toasts } = setup();
    run(new ApiError(500, { message: 'Database unavailable' }));
    expect((await toasts())[0]).toMatchObject({
      variant: 'error',
      title: 'Something went wrong',
      description: 'Database unavailable',
    });
  });

  it('a 500 whose message is the generic title does not repeat it as the description', async () => {
    const { run, toasts } = setup();
    run(new ApiError(500, { message: 'Something went wrong' }));
    expect((await toasts())[0]).toMatchObject({
      title: 'Something went wrong',
      description: 'Please try again.',
    });
  });

  it('falls back to the generic description when the body has no message', async () => {
    const { run, toasts } = setup();
    run(new ApiError(503, null));
    expect((await toasts())[0]).toMatchObject({
      title: 'Something went wrong',
      description: 'Please try again.',
    });
  });

  it('no response: logged to the console and shown as an error toast', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { navigate, run, toasts } = setup();
    const error = new ApiError(0, null);
    run(error);
    expect(log).toHaveBeenCalledWith(error);
    expect(navigate).not.toHaveBeenCalled();
    expect((await toasts())[0]).toMatchObject({ variant: 'error', description: 'Please try again.' });
    log.mockRestore();
  });
});
