import { describe, expect, it } from 'vitest';
import { renderSigninShell } from './signin-shell';

describe('the static sign-in page (decision 034)', () => {
  it('is the sign-in page in each language, with unique ids, inert buttons and a form that submits nowhere', async () => {
    const html = await renderSigninShell();
    const doc = new DOMParser().parseFromString(`<body>${html}<div id="root"></div></body>`, 'text/html');
    const shell = doc.getElementById('signin-shell');
    expect(shell?.nextElementSibling?.id).toBe('root');
    const pages = [...doc.querySelectorAll('[data-shell-lang]')];
    expect(pages.map((page) => page.getAttribute('data-shell-lang'))).toEqual(['en', 'es']);
    expect(pages.map((page) => page.querySelector('h1')?.textContent)).toEqual(['Sign in', 'Iniciar sesión']);

    const [en] = pages;
    const email = en?.querySelector<HTMLInputElement>('input[name="email"]');
    expect(email?.type).toBe('email');
    expect(email?.labels?.[0]?.textContent).toBe('Email');
    expect(en?.querySelector<HTMLInputElement>('input[name="password"]')?.labels?.[0]?.textContent).toBe(
      'Password',
    );
    expect(en?.querySelector('a[href="/forgotpassword"]')?.textContent).toBe('Forgot your password?');

    const ids = [...doc.querySelectorAll('[id]')].map((el) => el.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !id.startsWith('signin-shell') && id !== 'root')).toEqual([]);
    for (const form of doc.querySelectorAll('form')) expect(form.getAttribute('method')).toBe('dialog');
    for (const control of doc.querySelectorAll('button, select'))
      expect(control.hasAttribute('inert')).toBe(true);
    expect(doc.querySelectorAll('script')).toHaveLength(0);
  });
});
