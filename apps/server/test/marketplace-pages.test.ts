import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiEndpoints } from '../src/db/schema';
import { createTestApp, type TTestApp } from './helpers';
import { insertAccount, insertEndpoint } from './gateway-fixtures';

// The console's index.html as Vite builds it (apps/web/index.html): its own title and description.
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="AIR: register, share and call AI endpoints" />
    <title>AIR</title>
    <script type="module" src="/assets/index-abc.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`;

let t: TTestApp;
let dist: string;
const stamp = Date.now().toString(36);
const provider = `pages-${stamp}`;

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'air-pages-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), INDEX);
  t = await createTestApp({}, { webDist: dist });
  const account = await insertAccount(t.db, 'Pages Provider');
  const listed = { isShared: true, isPrivate: false, routeEndpoint: 'https://upstream.example.com/v1' };
  const plain = await insertEndpoint(t.db, t.config.secret, account.id, {
    ...listed,
    routeName: `${provider}/echo`,
  });
  await t.db
    .update(aiEndpoints)
    .set({ name: 'Echo & friends', description: '<p>Answers <b>quickly</b>, in "quotes" too.</p>' })
    .where(eq(aiEndpoints.id, plain.id));
  const hostile = await insertEndpoint(t.db, t.config.secret, account.id, {
    ...listed,
    routeName: `${provider}/hostile`,
  });
  await t.db
    .update(aiEndpoints)
    .set({
      name: '</title><script>alert(1)</script>',
      description: `<p>&lt;/title&gt;&lt;script&gt;alert("x")&lt;/script&gt;" onload="alert(2)</p>`,
    })
    .where(eq(aiEndpoints.id, hostile.id));
  for (const [name, values] of [
    ['secret', { isPrivate: true, isShared: true }],
    ['unshared', { isPrivate: false, isShared: false }],
    ['off', { isPrivate: false, isShared: true, isActive: false }],
  ] as const) {
    const hidden = await insertEndpoint(t.db, t.config.secret, account.id, {
      routeEndpoint: 'https://upstream.example.com/v1',
      routeName: `${provider}/${name}`,
      ...values,
    });
    await t.db
      .update(aiEndpoints)
      .set({ name: `Hidden ${name} name`, description: `<p>Confidential ${name} text</p>` })
      .where(eq(aiEndpoints.id, hidden.id));
  }
});

afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

async function page(url: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ url, headers: { accept: 'text/html', ...headers } });
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.body).toContain('<div id="root"></div>');
  expect(res.body).toContain('/assets/index-abc.js');
  return res;
}

/** The head's tags as a browser reads them (DOMParser is not in Node: one regex per tag kind). */
function head(html: string) {
  const titles = [...html.matchAll(/<title>([\s\S]*?)<\/title>/g)].map((m) => m[1]);
  const metas = Object.fromEntries(
    [...html.matchAll(/<meta (name|property)="([^"]+)" content="([^"]*)" \/>/g)].map((m) => [m[2], m[3]]),
  );
  return { titles, metas };
}

describe('public marketplace pages: title, description and Open Graph from the catalog', () => {
  it('/marketplace', async () => {
    const res = await page('/marketplace');
    expect(res.statusCode).toBe(200);
    const { titles, metas } = head(res.body);
    expect(titles).toEqual(['AI endpoint marketplace | AIR']);
    expect(metas).toMatchObject({
      description: expect.stringMatching(/^Find shared AI agents, models and data sources/),
      'og:title': 'AI endpoint marketplace',
      'og:type': 'website',
      'og:url': `${t.config.appUrl}/marketplace`,
      'twitter:card': 'summary',
    });
    expect(res.body).not.toContain('AIR: register, share and call AI endpoints');
  });

  it('an endpoint page names the endpoint and carries its plain-text description, escaped', async () => {
    const res = await page(`/marketplace/${provider}/echo?utm=x`);
    expect(res.statusCode).toBe(200);
    const { titles, metas } = head(res.body);
    expect(titles).toEqual(['Echo &amp; friends | AIR']);
    expect(metas['og:title']).toBe('Echo &amp; friends');
    expect(metas.description).toBe('Answers quickly, in &quot;quotes&quot; too.');
    expect(metas['og:description']).toBe(metas.description);
    expect(metas['og:url']).toBe(`${t.config.appUrl}/marketplace/${provider}/echo`);
  });

  it('markup in a name or description comes out inert', async () => {
    const res = await page(`/marketplace/${provider}/hostile`);
    expect(res.statusCode).toBe(200);
    // The only script is the console's own; no tag or attribute was opened by the catalog's text.
    expect(res.body.match(/<script/g)).toHaveLength(1);
    expect(res.body.match(/<\/title>/g)).toHaveLength(1);
    expect(res.body).not.toContain('onload="');
    const { titles, metas } = head(res.body);
    expect(titles).toEqual(['&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; | AIR']);
    expect(metas.description).toBe(
      '&lt;/title&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&quot; onload=&quot;alert(2)',
    );
  });

  it('a provider page, in Spanish when the browser asks for it', async () => {
    const res = await page(`/marketplace/${provider}`, { 'accept-language': 'es-ES,es;q=0.9' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<html lang="es">');
    const { titles, metas } = head(res.body);
    expect(titles).toEqual([`${provider} en el mercado de AIR | AIR`]);
    expect(metas.description).toBe(
      `Endpoints de IA compartidos por ${provider}, con precios y estadísticas en vivo.`,
    );
  });

  it('unknown, private, unshared and inactive endpoints: the console still loads, as a 404 that leaks nothing', async () => {
    for (const name of ['nothing-here', 'secret', 'unshared', 'off']) {
      const res = await page(`/marketplace/${provider}/${name}`);
      expect(res.statusCode, name).toBe(404);
      expect(head(res.body).titles).toEqual(['Endpoint not found | AIR']);
      expect(res.body).not.toMatch(/Hidden|Confidential/);
    }
    const badName = await page(`/marketplace/${provider}/NOT%20valid`);
    expect(badName.statusCode).toBe(404);
    const emptyProvider = await page(`/marketplace/nobody-${stamp}`);
    expect(emptyProvider.statusCode).toBe(404);
    expect(head(emptyProvider.body).titles).toEqual(['AI endpoint marketplace | AIR']);
  });

  it('other console routes keep the plain index.html', async () => {
    const res = await page('/signin');
    expect(res.statusCode).toBe(200);
    expect(head(res.body).titles).toEqual(['AIR']);
  });
});
