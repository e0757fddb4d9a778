/**
 * Where a visitor who signed up from a page goes back to once sign-up is done (verified and a plan
 * chosen; issue 38 item 6). Kept in localStorage, not the tab's session, because the verification
 * link may open in a new tab; forgotten after an hour or once used. Only this site's own paths.
 */
const STORAGE_KEY = 'air.returnAfterSignup';
const KEEP_MS = 3_600_000;

export function rememberReturnAfterSignup(path: string, now = Date.now()): void {
  if (!path.startsWith('/') || path.startsWith('//')) return;
  localStorage.setItem(STORAGE_KEY, JSON.stringify({ path, at: now }));
}

/** The remembered path, once (it is forgotten as it is read), or null. */
export function takeReturnAfterSignup(now = Date.now()): string | null {
  const raw = localStorage.getItem(STORAGE_KEY);
  if (raw === null) return null;
  localStorage.removeItem(STORAGE_KEY);
  try {
    const value = JSON.parse(raw) as { path?: unknown; at?: unknown };
    const fresh = typeof value.at === 'number' && now - value.at < KEEP_MS;
    const own = typeof value.path === 'string' && value.path.startsWith('/') && !value.path.startsWith('//');
    return fresh && own ? (value.path as string) : null;
  } catch {
    return null;
  }
}
