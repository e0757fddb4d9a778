import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './air-process';

interface TLockEntry {
  link?: boolean;
  resolved?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, unknown>;
}

/**
 * The package-lock.json locations (`node_modules/fastify`, `node_modules/a/node_modules/b`) that
 * `npm ci --omit=dev --workspace apps/server` installs: the server workspace's dependencies and
 * theirs, found the way Node finds them (nearest node_modules first). Optional peers count too:
 * the package declaring one probes for it and does without it when it is not installed (`debug`
 * tries `supports-color`), so loading it here, where dev dependencies are installed, is no fault.
 */
export function serverRuntimePackages(): Set<string> {
  const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, TLockEntry>;
  };
  const packages = lock.packages;
  const parentOf = (key: string) => {
    const at = key.lastIndexOf('/node_modules/');
    return at >= 0 ? key.slice(0, at) : '';
  };
  const find = (name: string, from: string): string | undefined => {
    for (let dir = from; ; dir = parentOf(dir)) {
      const key = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
      const entry = packages[key];
      if (entry) return entry.link && entry.resolved ? entry.resolved : key;
      if (!dir) return undefined;
    }
  };
  const found = new Set<string>();
  const queue = ['apps/server'];
  while (queue.length) {
    const key = queue.shift()!;
    if (found.has(key)) continue;
    found.add(key);
    const entry = packages[key] ?? {};
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}),
      ...Object.keys(entry.peerDependenciesMeta ?? {}),
    ];
    for (const name of names) {
      const target = find(name, key);
      if (target) queue.push(target);
    }
  }
  return found;
}
