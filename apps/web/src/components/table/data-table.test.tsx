import { beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { formatDateTime } from '@/lib/format-date';
import { DataTable } from './data-table';
import type { TDataTableProps } from './types';

interface TRow {
  id: string;
  name: string;
  route_type: string;
  date_created: string;
}

beforeAll(() => {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.scrollIntoView ??= () => {};
});

const rows: TRow[] = Array.from({ length: 25 }, (_, i) => ({
  id: `r${i + 1}`,
  name: `Item ${String(i + 1).padStart(2, '0')}`,
  route_type: i % 2 ? 'model' : 'agent',
  date_created: new Date(Date.UTC(2026, 0, 1, 10, 20, 30, 456)).toISOString(),
}));

function Location() {
  return <output data-testid="location">{useLocation().search}</output>;
}

function renderTable(props: Partial<TDataTableProps<TRow>> = {}, initial = '/list') {
  const user = userEvent.setup();
  render(
    <MemoryRouter initialEntries={[initial]}>
      <DataTable<TRow>
        label="Items"
        data={rows}
        columns={[
          { key: 'name', header: 'Name', sortable: true },
          { key: 'route_type', header: 'Type', cell: (r) => <Badge variant="green">{r.route_type}</Badge> },
          { key: 'date_created', header: 'Created', type: 'date' },
        ]}
        searchKeys={['name']}
        pageSize={12}
        {...props}
      />
      <Location />
    </MemoryRouter>,
  );
  return user;
}

const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const names = () => bodyRows().map((r) => within(r).getAllByRole('cell')[0]!.textContent);

describe('DataTable', () => {
  it('pages through the page query parameter', async () => {
    const user = renderTable();
    expect(bodyRows()).toHaveLength(12);
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByTestId('location').textContent).toBe('?page=2');
    expect(names()[0]).toBe('Item 13');
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(screen.getByTestId('location').textContent).toBe('');
  });

  it('opens on the page named in the URL and clamps out-of-range pages', () => {
    renderTable({}, '/list?page=3');
    expect(names()).toEqual(['Item 25']);
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('searches the given keys on the client and goes back to page 1', async () => {
    const user = renderTable({}, '/list?page=2');
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'item 2');
    expect(names()).toEqual(['Item 20', 'Item 21', 'Item 22', 'Item 23', 'Item 24', 'Item 25']);
    expect(screen.getByTestId('location').textContent).toBe('');
  });

  it('sorts by a sortable column, ascending then descending', async () => {
    const user = renderTable();
    const header = screen.getByRole('button', { name: 'Name' });
    await user.click(header);
    expect(screen.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('ascending');
    expect(names()[0]).toBe('Item 01');
    await user.click(header);
    expect(screen.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('descending');
    expect(names()[0]).toBe('Item 25');
    expect(screen.queryByRole('button', { name: 'Type' })).toBeNull();
  });

  it('selects rows one by one or all, and runs bulk actions on the selection', async () => {
    const remove = vi.fn();
    const user = renderTable({
      selectable: true,
      bulkActions: [{ label: 'Delete', onSelect: remove, destructive: true }],
    });
    const names = () => bodyRows().map((r) => within(r).getAllByRole('cell')[1]!.textContent);
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    await user.click(within(bodyRows()[0]!).getByRole('checkbox', { name: 'Select row' }));
    await user.click(within(bodyRows()[2]!).getByRole('checkbox', { name: 'Select row' }));
    expect(screen.getByText('2 selected')).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Select all rows' }).getAttribute('data-state')).toBe(
      'indeterminate',
    );
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(remove.mock.calls[0]![0].map((r: TRow) => r.id)).toEqual(['r1', 'r3']);
    expect(screen.queryByText(/selected/)).toBeNull();

    await user.click(screen.getByRole('checkbox', { name: 'Select all rows' }));
    expect(screen.getByText('12 selected')).toBeTruthy();
    expect(names()).toHaveLength(12);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(remove.mock.calls[1]![0]).toHaveLength(12);
  });

  it('offers per-row actions in a menu', async () => {
    const view = vi.fn();
    const edit = vi.fn();
    const user = renderTable({
      actions: [
        { label: 'View', onSelect: view },
        { label: 'Edit', onSelect: edit, show: (r) => r.route_type === 'agent' },
      ],
    });
    await user.click(within(bodyRows()[1]!).getByRole('button', { name: 'Actions' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((m) => m.textContent),
    ).toEqual(['View']);
    await user.click(within(menu).getByRole('menuitem', { name: 'View' }));
    expect(view).toHaveBeenCalledWith(rows[1]);
  });

  it('renders custom cells and dates without milliseconds', () => {
    renderTable();
    const cells = within(bodyRows()[0]!).getAllByRole('cell');
    expect(cells[1]!.querySelector('[data-variant="green"]')?.textContent).toBe('agent');
    expect(cells[2]!.textContent).toBe(formatDateTime(rows[0]!.date_created, 'en'));
    expect(cells[2]!.textContent).not.toMatch(/456/);
  });

  it('opens a row on click and on Enter, but not from its checkbox or its menu', async () => {
    const open = vi.fn();
    const view = vi.fn();
    const user = renderTable({
      onRowClick: open,
      rowLabel: (r) => r.name,
      selectable: true,
      actions: [{ label: 'View', onSelect: view }],
    });
    const row = screen.getByRole('row', { name: 'Item 03' });
    expect(row).toHaveAttribute('tabindex', '0');
    await user.click(within(row).getAllByRole('cell')[1]!);
    expect(open).toHaveBeenLastCalledWith(rows[2]);
    // The keyboard: Tab reaches the row itself; Enter opens it.
    row.focus();
    await user.keyboard('{Enter}');
    expect(open).toHaveBeenCalledTimes(2);
    // Its own controls keep their keys and clicks.
    await user.click(within(row).getByRole('checkbox', { name: 'Select row' }));
    within(row).getByRole('button', { name: 'Actions' }).focus();
    await user.keyboard('{Enter}');
    await user.click(await screen.findByRole('menuitem', { name: 'View' }));
    expect(view).toHaveBeenCalledWith(rows[2]);
    expect(open).toHaveBeenCalledTimes(2);
  });

  it('makes rows focusable only when they open something', () => {
    renderTable();
    expect(bodyRows()[0]).not.toHaveAttribute('tabindex');
  });

  it('sorts from the one Sort menu the phone layout shows above the cards', async () => {
    const user = renderTable();
    await user.click(within(screen.getByTestId('phone-sort')).getByRole('button', { name: 'Sort' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Name, descending' }));
    expect(names()[0]).toBe('Item 25');
    expect(screen.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('descending');
    expect(within(screen.getByTestId('phone-sort')).getByRole('button')).toHaveTextContent(
      'Sorted by Name, descending',
    );
  });

  it('says what to do when the search matches nothing', async () => {
    const user = renderTable();
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'zzz');
    expect(screen.getByText('Nothing matches “zzz”.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Clear the search' }));
    expect(bodyRows()).toHaveLength(12);
  });

  it('shows the translated empty message', () => {
    renderTable({ data: [] });
    expect(screen.getByText('No results found')).toBeTruthy();
  });

  it('shows a loading state instead of rows', () => {
    renderTable({ loading: true });
    expect(screen.getByText('Loading…').getAttribute('role')).toBe('status');
    expect(screen.queryByText('Item 01')).toBeNull();
  });
});
