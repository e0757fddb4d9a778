// Part of the console build (console-build.mjs, decision 034): renders the sign-in page to static
// HTML with react-dom/server, from the same components the console runs
// (apps/web/src/shell/signin-shell.tsx, built for Node by Vite), into `<dist>/signin-shell.html`.
// The server sends it before `#root` on `/` and `/signin`, so the page paints before the bundle runs.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

export const SHELL_FILE = 'signin-shell.html';

/** Renders the shell into `outDir` (the console build's folder); `viteBin` runs the Node build. */
export async function renderSigninShell({ web, viteBin, outDir }) {
  // Inside the web workspace, so the bundle's bare imports (react, react-router…) resolve there.
  const ssrDir = join(web, `dist.shell-${process.pid}`);
  try {
    const result = spawnSync(
      process.execPath,
      [viteBin, 'build', '--ssr', 'src/shell/signin-shell.tsx', '--outDir', ssrDir, '--emptyOutDir'],
      { cwd: web, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NODE_ENV: 'production' } },
    );
    if (result.status !== 0)
      throw new Error(`The sign-in shell's build failed (exit code ${result.status}).`);
    const { renderSigninShell: render } = await import(pathToFileURL(join(ssrDir, 'signin-shell.js')).href);
    const html = await render();
    if (!html.includes('<h1')) throw new Error('The sign-in shell has no heading.');
    writeFileSync(join(outDir, SHELL_FILE), html);
  } finally {
    rmSync(ssrDir, { recursive: true, force: true });
  }
}
