import { describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/app-error';
import { sanitizeRichText } from '../src/lib/sanitize-html';
import { assertUpstreamAllowed, isPrivateAddress } from '../src/lib/upstream-address';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a00:1',
    '64:ff9b::a00:1',
    '::7f00:1',
    '::ffff:0:7f00:1',
    '::ffff:0:127.0.0.1',
    '2002:c0a8:101::1',
    '[::1]',
    'fe80::1%eth0',
    'not an ip',
  ])('%s is not public', (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });

  it.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (ip) => {
      expect(isPrivateAddress(ip)).toBe(false);
    },
  );
});

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('assertUpstreamAllowed', () => {
  const resolvesTo =
    (...addresses: string[]) =>
    async () =>
      addresses;

  it('refuses what is not an absolute http(s) URL', async () => {
    for (const url of ['example.com/v1', 'ftp://example.com/', 'javascript:alert(1)', '/v1/chat', '']) {
      const error = await refusal(assertUpstreamAllowed(url, true));
      expect(error.statusCode).toBe(400);
      expect(error.inputError).toBe('route_endpoint');
      expect(error.messageKey).toBe('validation.route_endpoint_url');
    }
  });

  it('refuses credentials in the URL', async () => {
    const error = await refusal(assertUpstreamAllowed('https://user:pw@example.com/', true));
    expect(error.messageKey).toBe('validation.route_endpoint_credentials');
  });

  it('allows private addresses only when allowed', async () => {
    await expect(assertUpstreamAllowed('http://127.0.0.1:8080/v1', true)).resolves.toBe(
      'http://127.0.0.1:8080/v1',
    );
    for (const url of [
      'http://127.0.0.1:8080/v1',
      'http://[::1]/',
      'http://localhost/',
      'http://10.0.0.5/',
      'http://[::127.0.0.1]/',
      'http://[::7f00:1]/',
      'http://[::ffff:0:7f00:1]/',
    ]) {
      const error = await refusal(assertUpstreamAllowed(url, false, resolvesTo('8.8.8.8')));
      expect(error.messageKey).toBe('validation.route_endpoint_private');
    }
  });

  it('resolves host names and refuses one that points at a private address', async () => {
    await expect(
      assertUpstreamAllowed('https://api.example.com/v1', false, resolvesTo('93.184.216.34')),
    ).resolves.toBe('https://api.example.com/v1');
    const rebinding = await refusal(
      assertUpstreamAllowed('https://evil.example.com/', false, resolvesTo('93.184.216.34', '10.0.0.1')),
    );
    expect(rebinding.messageKey).toBe('validation.route_endpoint_private');
    const unresolved = await refusal(
      assertUpstreamAllowed('https://nowhere.example.com/', false, async () => {
        throw new Error('ENOTFOUND');
      }),
    );
    expect(unresolved.messageKey).toBe('validation.route_endpoint_unresolved');
  });

  it('treats localhost names (with or without the trailing dot) as private', async () => {
    const error = await refusal(assertUpstreamAllowed('http://localhost.:3000/', false));
    expect(error.messageKey).toBe('validation.route_endpoint_private');
  });
});

describe('sanitizeRichText', () => {
  it('keeps basic formatting and safe links, drops scripts, handlers and unsafe protocols', () => {
    const html = sanitizeRichText(
      '<p onclick="x()">Hi <strong>there</strong> <a href="https://a.example/">link</a>' +
        '<a href="javascript:alert(1)">bad</a></p><script>alert(1)</script><img src=x onerror=alert(1)>' +
        '<ul><li><em>one</em></li></ul><style>p{}</style>',
    );
    expect(html).toBe(
      '<p>Hi <strong>there</strong> <a href="https://a.example/" rel="noopener noreferrer nofollow">link</a>' +
        '<a rel="noopener noreferrer nofollow">bad</a></p><ul><li><em>one</em></li></ul>',
    );
  });
});
