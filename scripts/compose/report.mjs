// `npm run test:compose`: one check (a line ✓ or ✗ with its time) and the tally of them.
import { log, seconds } from './run.mjs';

/**
 * The tally, and what the instances logged last, printed under a failed check (`instanceLogs`,
 * set once the stack is up).
 */
export const results = { passed: 0, failed: 0, instanceLogs: () => '' };

export async function check(name, body) {
  const started = Date.now();
  try {
    const detail = await body();
    results.passed += 1;
    log(`✓ ${name} (${seconds(started)})${detail ? `\n    ${detail}` : ''}`);
  } catch (error) {
    results.failed += 1;
    log(
      `✗ ${name} (${seconds(started)})\n    ${String(error.message ?? error)
        .split('\n')
        .join('\n    ')}`,
    );
    log(results.instanceLogs());
  }
}

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}
