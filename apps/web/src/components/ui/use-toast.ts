import * as React from 'react';

// Spec section 9: at most 3 toasts at once, newest in front, a dismissed toast is removed 10 s later.
export const TOAST_LIMIT = 3;
export const TOAST_REMOVE_DELAY = 10_000;
export const TOAST_DURATION = 5_000;

export type TToastVariant = 'default' | 'success' | 'info' | 'error';

export interface TToastInput {
  title?: React.ReactNode;
  description?: React.ReactNode;
  variant?: TToastVariant;
}

export interface TToast extends TToastInput {
  id: string;
  open: boolean;
}

export interface TToastState {
  toasts: TToast[];
}

export type TToastAction =
  | { type: 'ADD'; toast: TToast }
  | { type: 'UPDATE'; toast: Partial<TToast> & { id: string } }
  | { type: 'DISMISS'; id?: string }
  | { type: 'REMOVE'; id?: string };

/** Pure state transitions; removal timers are scheduled by `dispatch`, not here. */
export function toastReducer(state: TToastState, action: TToastAction): TToastState {
  switch (action.type) {
    case 'ADD':
      return { toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) };
    case 'UPDATE':
      return { toasts: state.toasts.map((t) => (t.id === action.toast.id ? { ...t, ...action.toast } : t)) };
    case 'DISMISS':
      return {
        toasts: state.toasts.map((t) =>
          action.id === undefined || t.id === action.id ? { ...t, open: false } : t,
        ),
      };
    case 'REMOVE':
      return { toasts: action.id === undefined ? [] : state.toasts.filter((t) => t.id !== action.id) };
  }
}

const listeners = new Set<() => void>();
let memoryState: TToastState = { toasts: [] };
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();

function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return;
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id);
      dispatch({ type: 'REMOVE', id });
    }, TOAST_REMOVE_DELAY),
  );
}

export function dispatch(action: TToastAction) {
  if (action.type === 'DISMISS') {
    if (action.id === undefined) memoryState.toasts.forEach((t) => scheduleRemoval(t.id));
    else scheduleRemoval(action.id);
  }
  memoryState = toastReducer(memoryState, action);
  listeners.forEach((listener) => listener());
}

let count = 0;
function nextId() {
  count = (count + 1) % Number.MAX_SAFE_INTEGER;
  return String(count);
}

/** Show a notification from anywhere (hooks, handlers, plain modules). */
export function toast(input: TToastInput) {
  const id = nextId();
  dispatch({ type: 'ADD', toast: { variant: 'default', ...input, id, open: true } });
  return {
    id,
    dismiss: () => dispatch({ type: 'DISMISS', id }),
    update: (next: TToastInput) => dispatch({ type: 'UPDATE', toast: { ...next, id } }),
  };
}

/** Test helper: forget every toast and pending timer. */
export function resetToasts() {
  removeTimers.forEach((timer) => clearTimeout(timer));
  removeTimers.clear();
  memoryState = { toasts: [] };
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const snapshot = () => memoryState;

export function useToast() {
  // The queue lives outside React (toast() is called from plain modules); every state is a new
  // object, so React reads it as an external store and sees a toast queued before it subscribed.
  const state = React.useSyncExternalStore(subscribe, snapshot, snapshot);
  return {
    ...state,
    toast,
    dismiss: (id?: string) => dispatch({ type: 'DISMISS', id }),
  };
}
