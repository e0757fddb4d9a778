import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ZItemInput } from '@air/shared/schemas/item';
import { DialogProvider, useDialog, type TDialogOptions } from '@/app/dialog-provider';

function Opener(props: TDialogOptions) {
  const dialog = useDialog();
  return <button onClick={() => dialog.open(props)}>open</button>;
}

describe('dialog provider', () => {
  it('opens with the given fields and calls the stored callback with true on confirm', async () => {
    const user = userEvent.setup();
    const callback = vi.fn();
    render(
      <DialogProvider>
        <Opener
          title="Delete item"
          description="This cannot be undone."
          buttonText="Delete"
          callback={callback}
        />
      </DialogProvider>,
    );
    await user.click(screen.getByText('open'));
    expect((await screen.findByRole('dialog')).textContent).toContain('Delete item');
    expect(screen.getByText('This cannot be undone.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(callback).toHaveBeenCalledExactlyOnceWith(true);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closing with cancel resets the state and passes false', async () => {
    const user = userEvent.setup();
    const callback = vi.fn();
    render(
      <DialogProvider>
        <Opener title="Leave?" callback={callback} />
      </DialogProvider>,
    );
    await user.click(screen.getByText('open'));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(callback).toHaveBeenCalledExactlyOnceWith(false);
    expect(screen.queryByText('Leave?')).toBeNull();
  });

  it('renders the registered form for a form dialog and closes with its result', async () => {
    const user = userEvent.setup();
    const callback = vi.fn();
    render(
      <DialogProvider
        renderForm={({ fields, call, onSuccess }) => (
          <button onClick={() => onSuccess({ saved: Object.keys(fields), call })}>submit form</button>
        )}
      >
        <Opener
          title="New item"
          call="POST /api/newitem"
          fields={{ name: { type: 'text', label: 'Name' } }}
          schema={ZItemInput}
          callback={callback}
        />
      </DialogProvider>,
    );
    await user.click(screen.getByText('open'));
    await user.click(await screen.findByText('submit form'));
    expect(callback).toHaveBeenCalledWith({ saved: ['name'], call: 'POST /api/newitem' });
  });

  afterEach(() => vi.unstubAllGlobals());

  it('by default renders the generic form, submits it and closes with the response', async () => {
    const user = userEvent.setup();
    const callback = vi.fn();
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ data: { id: '7' } }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    render(
      <MemoryRouter>
        <DialogProvider>
          <Opener
            title="New item"
            buttonText="Create"
            call="POST /api/newitem"
            fields={{ name: { type: 'text', label: 'Name' } }}
            schema={ZItemInput}
            callback={callback}
          />
        </DialogProvider>
      </MemoryRouter>,
    );
    await user.click(screen.getByText('open'));
    await user.type(await screen.findByLabelText(/Name/), 'First');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await vi.waitFor(() => expect(callback).toHaveBeenCalledWith({ data: { id: '7' } }));
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/newitem',
      expect.objectContaining({ method: 'POST', body: JSON.stringify({ name: 'First' }) }),
    );
  });
});
