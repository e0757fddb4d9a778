import { useLayoutEffect } from 'react';

/**
 * The static sign-in page the server sends before `#root` on `/` and `/signin` (decision 034),
 * rendered at build time from the same components (shell/signin-shell.tsx).
 */
export const SHELL_ID = 'signin-shell';

const FOCUSABLE = 'a[href], button, input, select, textarea';

/**
 * Types `values` into React-controlled inputs the way typing does, so their onChange runs: one
 * after the other (React re-renders on each, and would put back an input set ahead of its event),
 * after the commit that mounted them.
 */
function typeInto(values: [HTMLInputElement, string][]) {
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  queueMicrotask(() => {
    for (const [input, value] of values) {
      setValue?.call(input, value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }
  });
}

/**
 * Replaces the shell with the real page, in the commit that first shows it (before the browser
 * paints, so nothing moves): what was typed into the shell's fields goes into the same fields of
 * the page, and focus moves to the same control (the shell and the page have the same controls
 * in the same order).
 */
export function adoptShell() {
  const shell = document.getElementById(SHELL_ID);
  const root = document.getElementById('root');
  if (!shell) return;
  if (root) {
    const typed: [HTMLInputElement, string][] = [];
    for (const input of shell.querySelectorAll<HTMLInputElement>('input[name]')) {
      if (!input.value) continue;
      const target = root.querySelector<HTMLInputElement>(`input[name="${CSS.escape(input.name)}"]`);
      if (target && !target.value) typed.push([target, input.value]);
    }
    typeInto(typed);
    const active = document.activeElement;
    const page = active?.closest('[data-shell-lang]');
    if (active && page && shell.contains(active)) {
      const index = [...page.querySelectorAll(FOCUSABLE)].indexOf(active);
      const target = root.querySelectorAll(FOCUSABLE)[index];
      if (target instanceof HTMLElement && target.tagName === active.tagName)
        target.focus({ preventScroll: true });
    }
  }
  shell.remove();
}

/** In a layout that can show on `/` or `/signin` (and the error screen): the real page takes over. */
export function useAdoptShell() {
  useLayoutEffect(adoptShell, []);
}
