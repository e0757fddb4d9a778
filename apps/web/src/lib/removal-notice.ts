import { useSyncExternalStore } from 'react';
import type { TRemovalNotice } from '@air/shared/schemas/common';
import i18n from '@/lib/i18n';

/*
 * The landing of a member removed from an account while working in it (issue 26). With another
 * account the server moves the session there and the auth check answers `moved` once: the console
 * drops the old account's data, says why and goes to the new account's dashboard (lib/session.ts).
 * With none the session ends: the auth check answers `ended` (a 401 carries it too), and the
 * sign-in page says why instead of showing a bare form. That reason is kept here, in memory only,
 * until the sign-in page is left or someone signs in.
 */

let ended: TRemovalNotice | null = null;
const listeners = new Set<() => void>();

function emit() {
  listeners.forEach((listener) => listener());
}

/** Why the session ended, for the sign-in page to say. */
export function setEndedNotice(notice: TRemovalNotice | null) {
  if (notice === ended) return;
  ended = notice;
  emit();
}

export function getEndedNotice(): TRemovalNotice | null {
  return ended;
}

export function useEndedNotice(): TRemovalNotice | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getEndedNotice,
    getEndedNotice,
  );
}

/** "You were removed from Acme and have no other account…" */
export function endedText(notice: TRemovalNotice): string {
  return i18n.t(notice.reason === 'left' ? 'common:removal.endedLeft' : 'common:removal.endedRemoved', {
    account: notice.account_name,
  });
}

/** "You were removed from Acme. You are now in Beta." */
export function movedText(notice: TRemovalNotice, nowIn: string): string {
  return i18n.t(notice.reason === 'left' ? 'common:removal.movedLeft' : 'common:removal.movedRemoved', {
    account: notice.account_name,
    other: nowIn,
  });
}
