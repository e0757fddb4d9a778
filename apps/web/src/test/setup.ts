import i18n from '@/lib/i18n';
import '@testing-library/jest-dom/vitest';
import { afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';

afterEach(() => {
  cleanup();
});

// Tests render pages synchronously: give them every catalogue up front instead of lazy loading.
const catalogues = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json', {
  eager: true,
});
for (const [path, mod] of Object.entries(catalogues)) {
  const [, lng, ns] = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path) ?? [];
  if (lng && ns) i18n.addResourceBundle(lng, ns, mod.default, true, true);
}

// A component that logs an error fails its test: the console must stay clean.
const originalError = console.error;
console.error = (...args: unknown[]) => {
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
