import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { E2E_SERVER_LOG } from '../support/env';

// Runs after every other spec (its project depends on theirs): the server those specs drove must
// not have logged an error, a fatal or an unhandled exception while they ran. Expected failures
// (a declined card, a wrong password) are answers to the client, logged below error level.
const ERROR_LEVEL = 50;
// A line that is not JSON (Node's own output, a crash): `TypeError: …`, `(node:1) Warning: …`,
// an unhandled rejection. The console build's file names (`error-handler-x.js`) are not matched.
const PLAIN_PROBLEM = /\b\w*(error|warning)\b:|unhandled|uncaught/i;

interface TLine {
  text: string;
  entry?: { level?: number; msg?: string; err?: { message?: string } };
}

function readLog(): TLine[] {
  return readFileSync(E2E_SERVER_LOG, 'utf8')
    .split('\n')
    .filter((text) => text.trim() !== '')
    .map((text) => {
      try {
        return { text, entry: JSON.parse(text) as TLine['entry'] };
      } catch {
        return { text };
      }
    });
}

test('the server logged no error while the browser tests ran', () => {
  const lines = readLog();
  // The server prints one line when it is up; a log without it was not written by this run's server.
  expect(lines.some((line) => line.text.startsWith('AIR is running at '))).toBe(true);
  const errors = lines
    .filter(
      (line) => (line.entry?.level ?? 0) >= ERROR_LEVEL || (!line.entry && PLAIN_PROBLEM.test(line.text)),
    )
    .map((line) => line.text);
  expect(errors).toEqual([]);
});
