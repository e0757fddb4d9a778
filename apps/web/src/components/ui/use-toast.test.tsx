import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import {
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY,
  resetToasts,
  toast,
  toastReducer,
  useToast,
  type TToast,
} from '@/components/ui/use-toast';

const make = (id: string): TToast => ({ id, open: true, title: id });

describe('toastReducer', () => {
  it('keeps at most 3 toasts, newest in front', () => {
    let state = { toasts: [] as TToast[] };
    for (const id of ['1', '2', '3', '4']) state = toastReducer(state, { type: 'ADD', toast: make(id) });
    expect(TOAST_LIMIT).toBe(3);
    expect(state.toasts.map((t) => t.id)).toEqual(['4', '3', '2']);
  });

  it('dismissing closes without removing; removing drops it', () => {
    let state = { toasts: [make('1'), make('2')] };
    state = toastReducer(state, { type: 'DISMISS', id: '1' });
    expect(state.toasts).toEqual([{ ...make('1'), open: false }, make('2')]);
    state = toastReducer(state, { type: 'REMOVE', id: '1' });
    expect(state.toasts.map((t) => t.id)).toEqual(['2']);
  });
});

describe('toast store', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    act(() => resetToasts());
    vi.useRealTimers();
  });

  it('removes a dismissed toast 10 000 ms later, not before', () => {
    const { result } = renderHook(() => useToast());
    let handle!: ReturnType<typeof toast>;
    act(() => {
      handle = toast({ title: 'Saved', variant: 'success' });
    });
    expect(result.current.toasts[0]).toMatchObject({ title: 'Saved', variant: 'success', open: true });
    act(() => handle.dismiss());
    expect(result.current.toasts[0]?.open).toBe(false);
    act(() => vi.advanceTimersByTime(TOAST_REMOVE_DELAY - 1));
    expect(result.current.toasts).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.toasts).toHaveLength(0);
  });

  it('defaults the variant to default', () => {
    const { result } = renderHook(() => useToast());
    act(() => void toast({ title: 'Hi' }));
    expect(result.current.toasts[0]?.variant).toBe('default');
  });
});
