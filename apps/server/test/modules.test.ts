import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { moduleRouteFiles, registerModules, registerPlugins } from '../src/core/load-modules';

describe('module auto-registration', () => {
  it('registers src/modules/<name>/routes.ts under /api, honours `prefix`, and loads src/plugins first', async () => {
    const src = mkdtempSync(path.join(os.tmpdir(), 'air-src-'));
    mkdirSync(path.join(src, 'modules', 'alpha'), { recursive: true });
    mkdirSync(path.join(src, 'modules', 'beta'), { recursive: true });
    mkdirSync(path.join(src, 'modules', 'no-routes'), { recursive: true });
    mkdirSync(path.join(src, 'plugins'), { recursive: true });
    writeFileSync(
      path.join(src, 'modules', 'alpha', 'routes.ts'),
      `export default async function (app) { app.get('/alpha', async (request) => ({ data: request.tag })); }\n`,
    );
    writeFileSync(
      path.join(src, 'modules', 'beta', 'routes.ts'),
      `export const prefix = ''; export default async function (app) { app.get('/metrics-like', async () => 'ok'); }\n`,
    );
    writeFileSync(
      path.join(src, 'plugins', 'tag.ts'),
      `const plugin = async (app) => { app.decorateRequest('tag', 'tagged'); };\n` +
        `plugin[Symbol.for('skip-override')] = true;\nexport default plugin;\n`,
    );
    expect(moduleRouteFiles(src).map((file) => path.relative(src, file))).toEqual([
      path.join('modules', 'alpha', 'routes.ts'),
      path.join('modules', 'beta', 'routes.ts'),
    ]);

    const app = Fastify();
    await registerPlugins(app, src);
    await registerModules(app, src);
    expect((await app.inject({ url: '/api/alpha' })).json()).toEqual({ data: 'tagged' });
    expect((await app.inject({ url: '/metrics-like' })).body).toBe('ok');
    expect((await app.inject({ url: '/alpha' })).statusCode).toBe(404);
    await app.close();
  });
});
