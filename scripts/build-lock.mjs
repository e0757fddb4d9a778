import { mkdirSync, rmSync, statSync } from 'node:fs';

const STALE_MS = 5 * 60_000;

/**
 * Runs `work` while holding `<path>.lock` (a directory: mkdir is atomic), so two processes that
 * start at once (two `npm start`, tests, the e2e server) never build into the same folder. A lock
 * older than five minutes is left over from a killed build and is taken over.
 */
export async function withBuildLock(path, work) {
  const lock = `${path}.lock`;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_MS) rmSync(lock, { recursive: true, force: true });
      } catch {
        // released meanwhile
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
