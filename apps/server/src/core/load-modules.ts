import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyPluginAsync, FastifyPluginCallback } from 'fastify';
import { isSourceFile, SOURCE_EXT } from '../lib/source-ext';

/**
 * Discovery so features plug in without editing a shared file:
 * - `src/plugins/<name>.ts`: cross-cutting plugins (auth, rate limit). Default export, wrapped in
 *   `fastify-plugin` when its decorators/hooks must reach every route. Registered at the root in
 *   file-name order, before any module.
 * - `src/modules/<name>/plugin.ts`: what a module hands the rest of the app (identity's session
 *   check, keys' look-up, billing's provider and renewal job), same convention, registered at the
 *   root after the cross-cutting plugins (which they may use) and before any route.
 * - `src/modules/<name>/routes.ts`: console API modules. Default export, a Fastify plugin
 *   registered in its own scope with prefix `/api` (or the module's `export const prefix`).
 * - `src/gateway/routes.ts`: the gateway, same convention as a module.
 */
export const SRC_DIR = path.resolve(import.meta.dirname, '..');

interface TPluginModule {
  default?: FastifyPluginAsync | FastifyPluginCallback;
  prefix?: string;
}

async function importPlugin(file: string): Promise<TPluginModule & { default: FastifyPluginAsync }> {
  const mod = (await import(pathToFileURL(file).href)) as TPluginModule;
  if (typeof mod.default !== 'function') {
    throw new Error(`${path.relative(SRC_DIR, file)} must default-export a Fastify plugin`);
  }
  return mod as TPluginModule & { default: FastifyPluginAsync };
}

export function pluginFiles(srcDir = SRC_DIR): string[] {
  const dir = path.join(srcDir, 'plugins');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter(isSourceFile)
    .sort()
    .map((name) => path.join(dir, name));
}

export function modulePluginFiles(srcDir = SRC_DIR): string[] {
  return moduleFiles(srcDir, 'plugin');
}

function moduleFiles(srcDir: string, name: string): string[] {
  const dir = path.join(srcDir, 'modules');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((module) => path.join(dir, module, `${name}${SOURCE_EXT}`))
    .filter((file) => existsSync(file));
}

export function moduleRouteFiles(srcDir = SRC_DIR): string[] {
  const files = moduleFiles(srcDir, 'routes');
  const gateway = path.join(srcDir, 'gateway', `routes${SOURCE_EXT}`);
  if (existsSync(gateway)) files.push(gateway);
  return files;
}

export async function registerPlugins(app: FastifyInstance, srcDir = SRC_DIR) {
  for (const file of [...pluginFiles(srcDir), ...modulePluginFiles(srcDir)]) {
    const mod = await importPlugin(file);
    await app.register(mod.default);
  }
}

export async function registerModules(app: FastifyInstance, srcDir = SRC_DIR) {
  for (const file of moduleRouteFiles(srcDir)) {
    const mod = await importPlugin(file);
    await app.register(mod.default, { prefix: mod.prefix ?? '/api' });
  }
}
