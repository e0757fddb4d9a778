import { describe, expect, it } from 'vitest';
import { renderTemplate } from '../src/mail/mailer';

// Issue 38, minor list: an account named "Alice Doe's account" (the default name) was invited to
// as "the Alice Doe's account account"; the role read as a bare identifier.
const config = { appUrl: 'http://air.test' };
const params = {
  inviter_name: 'Alice Doe',
  account_name: "Alice Doe's account",
  role: 'developer',
  url: 'http://air.test/signup/user?token=t',
  days: '7',
};

describe('invite mail', () => {
  it('names the account once and the role with its article, in English', async () => {
    const mail = await renderTemplate(config, { to: 'b@x.io', locale: 'en', template: 'invite', params });
    expect(mail.text).toContain("Alice Doe invited you to join Alice Doe's account as a developer.");
    expect(mail.text).not.toMatch(/account account/);
    const admin = await renderTemplate(config, {
      to: 'b@x.io',
      locale: 'en',
      template: 'invite',
      params: { ...params, role: 'admin' },
    });
    expect(admin.text).toContain('as an admin.');
  });

  it('and in Spanish', async () => {
    const mail = await renderTemplate(config, {
      to: 'b@x.io',
      locale: 'es',
      template: 'invite',
      params: { ...params, account_name: 'Cuenta de Alice' },
    });
    expect(mail.text).toContain('Alice Doe te invitó a unirte a Cuenta de Alice como desarrollador.');
    expect(mail.text).not.toMatch(/cuenta Cuenta/);
  });
});
