import { useLayoutEffect } from 'react';

/**
 * The static sign-in page the server sends before `#root` on `/` and `/signin` (decision 034),
 * rendered at build time from the same components (shell/signin-shell.tsx).
 */
export const SHELL_ID = 'signin-shell';

const FOCUSABLE = 'a[href], button, input, select, textarea';

/** Sets a React-controlled input's value the way typing does, so its onChange runs. */
function typeInto(input: HTMLInputElement, value: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
  // After the commit that mounted it: React then handles the event like a keystroke.
  queueMicrotask(() => input.dispatchEvent(new Event('input', { bubbles: true })));
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
    for (const input of shell.querySelectorAll<HTMLInputElement>('input[name]')) {
      if (!input.value) continue;
      const target = root.querySelector<HTMLInputElement>(`input[name="${CSS.escape(input.name)}"]`);
      if (target && !target.value) typeInto(target, input.value);
    }
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
