import '@/lib/i18n';
import { afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';

// A component that logs an error fails its test: the console must stay clean.
const originalError = console.error;
afterEach(() => {
  cleanup();
});
console.error = (...args: unknown[]) => {
  originalError(...args);
  throw new Error(`console.error called: ${args.map(String).join(' ')}`);
};
vi.stubGlobal('scrollTo', () => {});
