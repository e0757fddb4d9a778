import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import type * as apiModule from '@/lib/api';
import { ApiError, submitCall } from '@/lib/api';
import { Form } from './form';
import { PAYMENT_RESULT_FIELD, registerPaymentConfirmer } from './payment-step';
import { ZCreateApiKey } from '@air/shared/schemas/api-key';
import { ZCreateAiEndpoint, ZUpdateAiEndpoint } from '@air/shared/schemas/aiendpoint';
import { ZPasswordResetRequest } from '@air/shared/schemas/auth';
import { ZItemInput } from '@air/shared/schemas/item';
import { ZTwoFactorVerify } from '@air/shared/schemas/two-factor';
import type { TSchemaLike } from './types';
import type { TFormFields, TFormProps } from './types';

vi.mock('@/lib/api', async (importOriginal) => ({
  ...(await importOriginal<typeof apiModule>()),
  submitCall: vi.fn(),
}));
const handleError = vi.fn();
vi.mock('@/lib/error-handler', () => ({ useErrorHandler: () => handleError }));
const toast = vi.fn();
vi.mock('@/components/ui/use-toast', () => ({ toast: (input: unknown) => toast(input) }));

const request = vi.mocked(submitCall);

beforeAll(() => {
  // Radix Select and Popover use pointer capture and scrolling that jsdom does not implement.
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => {};
  Element.prototype.scrollIntoView ??= () => {};
  // input-otp probes for password-manager overlays.
  document.elementFromPoint ??= () => null;
  // Radix measures checkboxes and switches.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});

beforeEach(() => {
  request.mockReset();
  handleError.mockReset();
  toast.mockReset();
  registerPaymentConfirmer(null);
});

/** For tests of the form's mechanics rather than its rules: every value passes. */
const anything: TSchemaLike = { safeParse: () => ({ success: true }) };

function renderForm(props: Partial<TFormProps> & { fields: TFormFields }) {
  const user = userEvent.setup();
  render(
    <MemoryRouter initialEntries={['/form']}>
      <Routes>
        <Route path="/form" element={<Form call="POST /api/key" schema={anything} {...props} />} />
        <Route path="/done" element={<p>Done page</p>} />
      </Routes>
    </MemoryRouter>,
  );
  return user;
}

const nameField: TFormFields = { name: { type: 'text', label: 'Name' } };

describe('Form validation', () => {
  it('validates on blur, then on change only after the first submit', async () => {
    const user = renderForm({ fields: nameField, schema: ZItemInput });
    const input = screen.getByLabelText(/Name/);
    await user.click(input);
    expect(screen.queryByRole('alert')).toBeNull();
    await user.tab();
    expect((await screen.findByRole('alert')).textContent).toContain('Name is required');
    // Before any submit, typing does not re-validate: the error waits for the next blur.
    await user.type(input, 'A');
    expect(screen.getByRole('alert').textContent).toContain('Name is required');
    await user.clear(input);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
    expect(request).not.toHaveBeenCalled();
    // After a submit, each change re-validates at once.
    await user.type(input, 'A');
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it("marks a label required exactly when the schema refuses the field's empty value", () => {
    renderForm({
      fields: { name: { type: 'text', label: 'Name' }, description: { type: 'text', label: 'About' } },
      schema: ZUpdateAiEndpoint.pick({ name: true, description: true }).required({ name: true }),
    });
    expect(screen.getByText('Name').textContent).toBe('Name *');
    expect(screen.getByText('About').textContent).toBe('About');
  });

  it('shows the schema\'s messages: the spec\'s literal ones, and "Field" without a label', async () => {
    const options = ['gateway.invoke', 'usage.read'].map((v) => ({ value: v, label: v }));
    const user = renderForm({
      fields: {
        name: { type: 'text', placeholder: 'name' },
        scope: { type: 'checkbox', label: 'Scope', options },
      },
      schema: ZCreateApiKey,
    });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
        'Please provide a descriptive name for your key',
        'Please select at least one scope',
      ]),
    );
    await user.click(screen.getByLabelText('usage.read'));
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(1));

    cleanup();
    const again = renderForm({ fields: { name: { type: 'text' } }, schema: ZItemInput });
    await again.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Field is required');
  });

  it('refuses what the server refuses: ftp and smtp upstreams, bad emails, NUL characters', async () => {
    const user = renderForm({
      fields: {
        route_name: { type: 'text', label: 'Route name' },
        route_endpoint: { type: 'url', label: 'Endpoint' },
      },
      schema: ZCreateAiEndpoint,
    });
    await user.type(screen.getByLabelText(/Route name/), 'acme/mo\0del');
    await user.type(screen.getByLabelText(/Endpoint/), 'ftp://files.example.com/x');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
        'Route name must not contain a NUL character',
        'Please enter an absolute http:// or https:// URL',
      ]),
    );
    expect(request).not.toHaveBeenCalled();

    cleanup();
    const again = renderForm({
      fields: { email: { type: 'email', label: 'Email' } },
      schema: ZPasswordResetRequest,
    });
    await again.type(screen.getByLabelText(/Email/), 'nope');
    await again.tab();
    expect((await screen.findByRole('alert')).textContent).toBe('Please enter a valid email address');
  });

  it('drops fields whose type is null', () => {
    renderForm({ fields: { name: { type: 'text', label: 'Name' }, gone: { type: null, label: 'Gone' } } });
    expect(screen.queryByLabelText('Gone')).toBeNull();
  });
});

describe('Form submit', () => {
  it('posts JSON, dims the form and shows loading while pending, then toasts, redirects and calls onSuccess', async () => {
    let resolve!: (value: { message: string }) => void;
    request.mockReturnValue(new Promise((r) => (resolve = r)));
    const onSuccess = vi.fn();
    const user = renderForm({ fields: nameField, redirect: '/done', onSuccess, buttonText: 'Create' });
    await user.type(screen.getByLabelText(/Name/), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    const form = document.querySelector('form')!;
    expect(form.className).toMatch(/pointer-events-none/);
    expect(form.className).toMatch(/opacity-50/);
    expect(form.hasAttribute('novalidate')).toBe(true);
    expect(screen.getByRole('button', { name: 'Create' }).getAttribute('aria-busy')).toBe('true');
    expect(request).toHaveBeenCalledWith('POST /api/key', { name: 'Ada' }, undefined);

    await act(async () => resolve({ message: 'Saved' }));
    expect(toast).toHaveBeenCalledWith({ variant: 'success', title: 'Saved' });
    expect(onSuccess).toHaveBeenCalledWith({ message: 'Saved' }, { name: 'Ada' });
    expect(await screen.findByText('Done page')).toBeTruthy();
  });

  it('attaches an inputError message to its field and does not call the error handler', async () => {
    request.mockRejectedValue(new ApiError(409, { message: 'That email is taken', inputError: 'email' }));
    const user = renderForm({ fields: { email: { type: 'email', label: 'Email' } } });
    await user.type(screen.getByLabelText('Email'), 'a@b.co');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toContain('That email is taken');
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(handleError).not.toHaveBeenCalled();
  });

  it('an inputError naming a field the form does not show goes to the error handler, not lost', async () => {
    const error = new ApiError(400, { message: 'Sign in again', inputError: 'oldpassword' });
    request.mockRejectedValue(error);
    const user = renderForm({
      fields: { ...nameField, oldpassword: { type: null, label: 'Current password' } },
    });
    await user.type(screen.getByLabelText(/Name/), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(handleError).toHaveBeenCalledWith(error));
  });

  it('sends other failures to the shared error handler', async () => {
    const error = new ApiError(500, { message: 'Something went wrong' });
    request.mockRejectedValue(error);
    const user = renderForm({ fields: nameField });
    await user.type(screen.getByLabelText(/Name/), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(handleError).toHaveBeenCalledWith(error));
    expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('aria-busy')).toBe(false);
  });

  it('sends multipart form data when a value is a file list', async () => {
    request.mockResolvedValue({ message: '' });
    const user = renderForm({
      fields: {
        title: { type: 'text', label: 'Title' },
        avatar: { type: 'file', label: 'Avatar', accept: ['image/*'] },
      },
    });
    await user.type(screen.getByLabelText('Title'), 'Me');
    const file = new File(['png'], 'me.png', { type: 'image/png' });
    await user.upload(screen.getByLabelText('Avatar'), file);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(request).toHaveBeenCalled());
    const body = request.mock.calls[0]![1] as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect(body.get('title')).toBe('Me');
    expect((body.get('avatar') as File).name).toBe('me.png');
  });

  it('shows a cancel button when cancel is given', async () => {
    const cancel = vi.fn();
    const user = renderForm({ fields: nameField, cancel });
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(cancel).toHaveBeenCalled();
  });

  it('auto-submits on every change, without a submit button', async () => {
    request.mockResolvedValue({ message: '' });
    const user = renderForm({
      fields: { on: { type: 'switch', label: 'Active' } },
      call: 'PATCH /api/key/:id',
      params: { id: 'k1' },
      autoSubmit: true,
    });
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    await user.click(screen.getByRole('switch', { name: 'Active' }));
    await waitFor(() =>
      expect(request).toHaveBeenCalledWith('PATCH /api/key/:id', { on: true }, { id: 'k1' }),
    );
  });

  it('confirms a payment and repeats the request with the result', async () => {
    request
      .mockResolvedValueOnce({ requires_payment_action: true, client_secret: 'pi_secret' })
      .mockResolvedValueOnce({ message: 'Plan updated' });
    const confirm = vi.fn().mockResolvedValue({ id: 'pi_1', status: 'succeeded' });
    registerPaymentConfirmer(confirm);
    const user = renderForm({ fields: { plan: { type: 'hidden', value: 'pro' } } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(request).toHaveBeenCalledTimes(2));
    expect(confirm).toHaveBeenCalledWith({ clientSecret: 'pi_secret', values: { plan: 'pro' } });
    expect(request.mock.calls[1]).toEqual([
      'POST /api/key',
      { plan: 'pro', [PAYMENT_RESULT_FIELD]: { id: 'pi_1', status: 'succeeded' } },
      undefined,
    ]);
    expect(toast).toHaveBeenCalledWith({ variant: 'success', title: 'Plan updated' });
  });

  it('reports a clear error when no payment confirmer is registered', async () => {
    request.mockResolvedValueOnce({ requires_payment_action: true, client_secret: 'pi_secret' });
    const user = renderForm({ fields: { plan: { type: 'hidden', value: 'pro' } } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(handleError).toHaveBeenCalled());
    expect((handleError.mock.calls[0]![0] as Error).message).toMatch(/Payment confirmation is not available/);
    expect(request).toHaveBeenCalledTimes(1);
  });
});

describe('Form field types', () => {
  it('select lists only non-empty options and submits the choice', async () => {
    request.mockResolvedValue({ message: '' });
    const user = renderForm({
      fields: {
        route_type: {
          type: 'select',
          label: 'Type',
          options: [
            { value: '', label: 'Nothing' },
            { value: 'agent', label: 'AI Agent' },
            { value: 'model', label: 'AI Model' },
          ],
        },
      },
      schema: ZUpdateAiEndpoint.pick({ route_type: true }),
    });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Type must be one of the allowed values',
    );
    await user.click(screen.getByRole('combobox', { name: 'Type' }));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['AI Agent', 'AI Model']);
    await user.click(within(listbox).getByRole('option', { name: 'AI Model' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(request).toHaveBeenCalledWith('POST /api/key', { route_type: 'model' }, undefined),
    );
  });

  it('otp shows 3+3 slots, takes exactly six characters and honours its pattern', async () => {
    request.mockResolvedValue({ message: '' });
    const user = renderForm({
      fields: { code: { type: 'otp', label: 'Code', pattern: '^\\d+$' } },
      schema: ZTwoFactorVerify,
    });
    expect(document.querySelectorAll('[data-slot="otp-slot"]')).toHaveLength(6);
    const input = screen.getByLabelText(/Code/);
    await user.type(input, '12a3');
    expect((input as HTMLInputElement).value).toBe('123');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Please enter the 6-character code');
    await user.type(input, '456789');
    expect((input as HTMLInputElement).value).toBe('123456');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(request).toHaveBeenCalledWith('POST /api/key', { code: '123456' }, undefined));
  });

  it('date shows the long form and emits YYYY-MM-DD from a Sunday-first 6-week calendar', async () => {
    request.mockResolvedValue({ message: '' });
    const user = renderForm({ fields: { when: { type: 'date', label: 'When', value: '2026-03-14' } } });
    const trigger = screen.getByLabelText('When');
    expect(trigger.textContent).toContain('March 14, 2026');
    expect(trigger.className).toContain('w-[280px]');
    await user.click(trigger);
    const grid = await screen.findByRole('grid');
    expect(grid.querySelector('thead th')?.getAttribute('aria-label')).toBe('Sunday');
    expect(grid.querySelectorAll('tbody tr')).toHaveLength(6);
    await user.click(within(grid).getByRole('button', { name: /March 20th, 2026/ }));
    expect(screen.getByLabelText('When').textContent).toContain('March 20, 2026');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(request).toHaveBeenCalledWith('POST /api/key', { when: '2026-03-20' }, undefined),
    );
  });

  it('card field says it is unavailable when billing registered no widget', () => {
    renderForm({ fields: { token: { type: 'card', label: 'Card' } } });
    expect(screen.getByRole('status').textContent).toContain('Card entry is not available');
  });
});
