import { useSyncExternalStore } from 'react';
import type { TRemovalNotice } from '@air/shared/schemas/common';
import type { TSignInData, TUser } from '@air/shared/schemas/user';
import { ApiError, call, TOKEN_STORAGE_KEY } from '@/lib/api';

export const USER_STORAGE_KEY = 'air.user';

/** The signed-in user as the sign-in answer gives it and local storage keeps it (spec section 3). */
export type TSessionUser = TUser;

export interface TSession {
  user: TSessionUser | null;
  token: string | null;
}

function read(): TSession {
  let user: TSessionUser | null;
  try {
    const raw = localStorage.getItem(USER_STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    user = parsed && typeof parsed === 'object' ? (parsed as TSessionUser) : null;
  } catch {
    user = null; // A corrupted entry is treated as signed out.
  }
  return { user, token: localStorage.getItem(TOKEN_STORAGE_KEY) };
}

let snapshot: TSession = read();
const listeners = new Set<() => void>();

function emit() {
  snapshot = read();
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getSession(): TSession {
  return snapshot;
}

/** Re-read local storage (another tab, a test) and notify subscribers. */
export function reloadSession() {
  emit();
}

/** Store a sign-in answer (`{ token, …user }`). */
export function setSession(data: TUser | TSignInData) {
  const { token, ...user } = { token: undefined, ...data };
  if (typeof token === 'string' && token) localStorage.setItem(TOKEN_STORAGE_KEY, token);
  localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(user));
  // Signed in again: why the previous session ended is no longer news.
  setEndedNotice(null);
  emit();
}

export function updateUser(patch: Partial<TSessionUser>) {
  if (!snapshot.user) return;
  localStorage.setItem(USER_STORAGE_KEY, JSON.stringify({ ...snapshot.user, ...patch }));
  emit();
}

export function clearSession() {
  // Spec section 4: sign out clears local storage. The language and theme choices are device
  // preferences, so they survive.
  const keep = ['air.locale', 'air.theme']
    .map((key) => [key, localStorage.getItem(key)] as const)
    .filter(([, value]) => value !== null);
  localStorage.clear();
  keep.forEach(([key, value]) => localStorage.setItem(key, value as string));
  emit();
}

/** Sign out: revoke the session on the server (best effort), clear storage, go to /signin. */
export async function signOut(navigate: (to: string) => void) {
  if (snapshot.token) {
    try {
      await call('DELETE /api/auth');
    } catch {
      // The session is being dropped anyway; an unreachable server must not keep the user in.
    }
  }
  clearSession();
  navigate('/signin');
}

/**
 * The auth check run on load. `authenticated: false` or a 401 signs out; a network failure keeps
 * the stored session (the server may be restarting) so the user is not thrown out by a blip.
 * Returns whether the user was signed out.
 */
export async function checkAuth(navigate: (to: string) => void): Promise<boolean> {
  const asked = snapshot.token;
  if (!asked) return false;
  try {
    const res = await call('GET /api/auth');
    // A sign-in or an account switch meanwhile: this answer is about a session no longer used.
    if (snapshot.token !== asked) return false;
    const data = res.data;
    if (!data?.authenticated) {
      // Removed from their only account: the sign-in page says so (`useEndedNotice`).
      if (data?.ended) setEndedNotice(data.ended);
      await signOut(navigate);
      return true;
    }
    const { authenticated: _ignored, moved, ...user } = data;
    if (moved || (snapshot.user && snapshot.user.account_id !== user.account_id)) {
      // The session works in another account than this tab knew: moved there by a removal (said
      // once, as `moved`), or switched in another tab. As on an account switch, nothing of the
      // previous account may show, and the stored user names the new account.
      const landing = await import('@/lib/removal-landing');
      await landing.dropAccountData();
      setSession(user);
      if (moved) await landing.announceMove(moved, user, navigate);
      return false;
    }
    updateUser(user);
    return false;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      clearSession();
      navigate('/signin');
      return true;
    }
    return false;
  }
}

export function useSession(): TSession & { signedIn: boolean } {
  const session = useSyncExternalStore(subscribe, getSession, getSession);
  return { ...session, signedIn: Boolean(session.token && session.user) };
}

/*
 * The landing of a member removed from an account while working in it, or whose account its
 * owner closed (issue 26). With another account the server moves the session there and the auth
 * check answers `moved` once: the console drops the old account's data, says why and goes to the
 * new account's dashboard (lib/removal-landing.ts, loaded only then).
 * With none the session ends: the auth check answers `ended` (a 401 carries it too), and the
 * sign-in page says why instead of showing a bare form. That reason is kept here and in this
 * tab's session storage (decision 033), so a reload of the sign-in page still says it, until
 * someone signs in, the notice is dismissed, the tab is closed or a day has passed. Session
 * storage is this tab's alone: another tab, a later visitor opening the site, or a shared link
 * never shows it, and the account it names is one this tab's session held.
 */

export const ENDED_STORAGE_KEY = 'air.ended';
/** How long a reload of the sign-in page still says why the session ended. */
export const ENDED_KEPT_MS = 24 * 60 * 60 * 1000;
const REASONS: readonly string[] = ['removed', 'left', 'closed'] satisfies TRemovalNotice['reason'][];

/** The stored reason, unless someone has signed in since, it is too old, or it is not one. */
function readEnded(): TRemovalNotice | null {
  try {
    const raw = sessionStorage.getItem(ENDED_STORAGE_KEY);
    if (!raw) return null;
    const stored: unknown = JSON.parse(raw);
    const { notice, at } = (stored ?? {}) as { notice?: Partial<TRemovalNotice>; at?: unknown };
    const valid =
      typeof at === 'number' &&
      Date.now() - at < ENDED_KEPT_MS &&
      typeof notice?.reason === 'string' &&
      REASONS.includes(notice.reason) &&
      typeof notice.account_name === 'string';
    if (valid && !localStorage.getItem(TOKEN_STORAGE_KEY)) {
      return { reason: notice.reason as TRemovalNotice['reason'], account_name: notice.account_name! };
    }
    sessionStorage.removeItem(ENDED_STORAGE_KEY);
  } catch {
    // No storage (a locked-down browser) or a corrupted entry: nothing to say.
  }
  return null;
}

function storeEnded(notice: TRemovalNotice | null) {
  try {
    if (notice) sessionStorage.setItem(ENDED_STORAGE_KEY, JSON.stringify({ notice, at: Date.now() }));
    else sessionStorage.removeItem(ENDED_STORAGE_KEY);
  } catch {
    // Without storage the reason is kept in memory only.
  }
}

let ended: TRemovalNotice | null = readEnded();
const endedListeners = new Set<() => void>();

/** Why the session ended, for the sign-in page to say; null: no longer news (signed in, dismissed). */
export function setEndedNotice(notice: TRemovalNotice | null) {
  if (notice === ended) return;
  ended = notice;
  storeEnded(notice);
  endedListeners.forEach((listener) => listener());
}

export function getEndedNotice(): TRemovalNotice | null {
  return ended;
}

export function useEndedNotice(): TRemovalNotice | null {
  return useSyncExternalStore(
    (listener) => {
      endedListeners.add(listener);
      return () => endedListeners.delete(listener);
    },
    getEndedNotice,
    getEndedNotice,
  );
}
