/**
 * Single-use tokens (magic link, social, impersonation) must be posted exactly once per page
 * load, yet React's strict mode runs effects twice in development. The first call's promise is
 * kept by key and handed to every later caller.
 */
const pending = new Map<string, Promise<unknown>>();

export function runOnce<T>(key: string, run: () => Promise<T>): Promise<T> {
  let promise = pending.get(key) as Promise<T> | undefined;
  if (!promise) {
    promise = run();
    pending.set(key, promise);
  }
  return promise;
}

/** Test helper: forget every remembered call. */
export function resetRunOnce(): void {
  pending.clear();
}
