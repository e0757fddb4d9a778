import { useSyncExternalStore } from 'react';

/**
 * The local card processor's 3-D Secure challenge, as a promise the processor awaits and a dialog
 * (AuthenticationDialog) answers. One challenge at a time: a second request while one is open
 * fails the first, as a bank's page would when the payment is retried.
 */
export type TAuthenticationOutcome = 'complete' | 'fail';

interface TPending {
  resolve: (outcome: TAuthenticationOutcome) => void;
}

let pending: TPending | null = null;
const listeners = new Set<() => void>();

function emit() {
  listeners.forEach((listener) => listener());
}

export function requestAuthentication(): Promise<TAuthenticationOutcome> {
  pending?.resolve('fail');
  return new Promise((resolve) => {
    pending = { resolve };
    emit();
  });
}

export function answerAuthentication(outcome: TAuthenticationOutcome) {
  const current = pending;
  pending = null;
  emit();
  current?.resolve(outcome);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const isOpen = () => pending !== null;

export function useAuthenticationOpen(): boolean {
  return useSyncExternalStore(subscribe, isOpen, isOpen);
}
