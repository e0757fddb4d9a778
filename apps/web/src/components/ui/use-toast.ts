import type * as React from 'react';
import { useSyncExternalStore } from 'react';
import type { ExternalToast, toast as sonnerToast } from 'sonner';

// Spec section 9: at most 3 toasts at once, 5 s each. Sonner (components/ui/toaster.tsx) shows
// them; this module is the console's way to ask for one, and stays free of sonner's code so a page
// that never toasts (most sign-in visits) does not load it.
export const TOAST_LIMIT = 3;
export const TOAST_DURATION = 5_000;

export type TToastVariant = 'default' | 'success' | 'info' | 'error';

export interface TToastInput {
  title?: React.ReactNode;
  description?: React.ReactNode;
  variant?: TToastVariant;
}

type TSonner = typeof sonnerToast;
type TShow = (sonner: TSonner) => void;

let sonner: TSonner | null = null;
/** Asked for before the toaster was mounted: shown, in order, once it is. */
let queue: TShow[] = [];
let wanted = false;
const listeners = new Set<() => void>();

function run(show: TShow) {
  if (sonner) return show(sonner);
  queue.push(show);
  if (!wanted) {
    wanted = true;
    listeners.forEach((listener) => listener());
  }
}

function present(api: TSonner, id: string, { title, description, variant = 'default' }: TToastInput) {
  const options: ExternalToast = { id, description };
  if (variant === 'default') api(title, options);
  else api[variant](title, options);
}

let count = 0;

/** Show a notification from anywhere (hooks, handlers, plain modules). */
export function toast(input: TToastInput) {
  count += 1;
  const id = `toast-${count}`;
  run((api) => present(api, id, input));
  return {
    id,
    dismiss: () => run((api) => api.dismiss(id)),
    update: (next: TToastInput) => run((api) => present(api, id, { ...input, ...next })),
  };
}

/**
 * The mounted toaster hands over sonner's `toast`: what was asked for meanwhile shows now. Returns
 * the detach for its unmount.
 */
export function attachToaster(api: TSonner): () => void {
  sonner = api;
  const waiting = queue;
  queue = [];
  waiting.forEach((show) => show(api));
  return () => {
    if (sonner === api) sonner = null;
  };
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Whether any toast was asked for yet (the host mounts the toaster from then on). */
export function useToasterWanted(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => wanted,
    () => wanted,
  );
}

/** Test helper: forget every toast, shown or queued. */
export function resetToasts() {
  queue = [];
  sonner?.dismiss();
}
