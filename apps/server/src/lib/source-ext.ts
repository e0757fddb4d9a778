import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `.ts` when the server runs from its sources (tests, `npm run dev`), `.js` when it runs from the
 * build (`npm start`): folders the server lists to discover its parts hold files of this extension.
 */
export const SOURCE_EXT = path.extname(fileURLToPath(import.meta.url));

/** True for a discoverable source file name: this extension, not a test or a declaration. */
export function isSourceFile(name: string): boolean {
  return name.endsWith(SOURCE_EXT) && !/\.(test|spec|d)\.[jt]s$/.test(name);
}
