import i18n from '@/lib/i18n';
import '@testing-library/jest-dom/vitest';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// findBy/waitFor wait up to 15 s (default 1 s): a busy 2-core machine can take longer than a
// second to render a page after a mocked answer, and that is no failure of the page.
configure({ asyncUtilTimeout: 15_000 });
import { apiServer } from './api-mock';

// Every test's network goes through Mock Service Worker; a call no test mocked goes on to the
// (absent) network and fails as it did before, inside the page's own error handling.
beforeAll(() => apiServer.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => {
  cleanup();
  apiServer.resetHandlers();
});
afterAll(() => apiServer.close());

// Tests render pages synchronously: give them every catalogue up front instead of lazy loading.
const catalogues = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json', {
  eager: true,
});
for (const [path, mod] of Object.entries(catalogues)) {
  const [, lng, ns] = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path) ?? [];
  if (lng && ns) i18n.addResourceBundle(lng, ns, mod.default, true, true);
}

// A component that logs an error fails its test: the console must stay clean. One message is about
// the test harness, not the component: React's notice that an update ran while Testing Library's
// waitFor had act() switched off, which a Radix toast's next-frame announcement can hit when a busy
// machine delays the frame into that window (seen once in a full run).
const HARNESS_TIMING = 'The current testing environment is not configured to support act(...)';
const originalError = console.error;
console.error = (...args: unknown[]) => {
  if (args[0] === HARNESS_TIMING) return;
  originalError(...args);
  throw new Error(`console.error called: ${args.map(String).join(' ')}`);
};

// jsdom lacks the layout APIs Radix and input-otp reach for.
vi.stubGlobal('scrollTo', () => {});
if (!('ResizeObserver' in globalThis)) {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
}
if (!document.elementFromPoint) document.elementFromPoint = () => null;
for (const method of [
  'hasPointerCapture',
  'setPointerCapture',
  'releasePointerCapture',
  'scrollIntoView',
] as const) {
  if (!(method in Element.prototype)) {
    Object.defineProperty(Element.prototype, method, { value: () => false, configurable: true });
  }
}
