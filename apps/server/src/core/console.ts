import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error';
import type { TLocale } from '@air/shared/schemas/common';
import { withPageMeta, type TPageMeta } from './console-page';

/**
 * What a public page route answers (a module's, through `app.sendConsolePage`): the console's
 * index.html carrying the page's own title, description and Open Graph tags, worked out on the
 * server for link previews that run no script.
 */
export interface TConsolePageAnswer {
  /** 404 for something the page shows that does not exist (the console still loads and says so). */
  status: 200 | 404;
  locale: TLocale;
  meta: TPageMeta;
}

/** The built console, resolved from this file so the server works from any working directory. */
export const DEFAULT_WEB_DIST = path.resolve(import.meta.dirname, '../../../web/dist');

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

function wantsHtml(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    /text\/html|\*\/\*/.test(request.headers.accept ?? '')
  );
}

const NOT_BUILT =
  'The AIR console is not built yet. Run `npm run build` (or `npm start`, which builds it) from the repository root, then reload.\n';

declare module 'fastify' {
  interface FastifyInstance {
    /** Answers with the console's index.html carrying `answer`'s status, language and meta tags. */
    sendConsolePage: (reply: FastifyReply, answer: TConsolePageAnswer) => FastifyReply;
  }
}

/** Before the modules (their page routes use it): `app.sendConsolePage`. */
export function decorateConsolePage(app: FastifyInstance, webDist: string) {
  const indexFile = path.join(webDist, 'index.html');
  // Read once: the build does not change under a running server.
  const indexHtml = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : null;
  app.decorate('sendConsolePage', (reply: FastifyReply, { status, locale, meta }: TConsolePageAnswer) => {
    if (indexHtml === null) return reply.status(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
    const html = withPageMeta(indexHtml, meta).replace(/<html lang="[^"]*">/, `<html lang="${locale}">`);
    return reply
      .status(status)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html);
  });
}

/** The sign-in page as static HTML, written by the console build (scripts/console-shell.mjs). */
const SIGNIN_SHELL_FILE = 'signin-shell.html';

/**
 * index.html with the build's static sign-in page before `#root` (decision 034), so `/` and
 * `/signin` paint their content before the bundle runs; the page replaces it when it mounts
 * (apps/web/src/app/shell.ts). The first paint then needs only the HTML and the stylesheet, so
 * the bundle is asked for once that frame is on screen (public/after-paint.js, given the entry's
 * address), and nothing is preloaded beside it: Lighthouse's mobile LCP went from 3.7 s to 1.2 s.
 * Null when the build has no shell (or no index.html).
 */
export function withSigninShell(indexHtml: string, shellHtml: string): string | null {
  const marker = '<div id="root"></div>';
  if (!indexHtml.includes(marker)) return null;
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(indexHtml);
  if (!entry) return null;
  return indexHtml
    .replace(marker, `${shellHtml}${marker}`)
    .replace(entry[0], `<script src="/after-paint.js" data-entry="${entry[1]}" defer></script>`)
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '');
}

/**
 * Serves the console with history fallback: a GET that accepts HTML and is not an API path gets
 * index.html, so client-side routes survive a reload. Everything else unknown is a JSON 404.
 * `/` and `/signin` get index.html with the static sign-in page in it.
 */
export async function registerConsole(app: FastifyInstance, webDist: string) {
  const built = existsSync(path.join(webDist, 'index.html'));
  const shellFile = path.join(webDist, SIGNIN_SHELL_FILE);
  // Read once: the build does not change under a running server.
  const signinHtml =
    built && existsSync(shellFile)
      ? withSigninShell(
          readFileSync(path.join(webDist, 'index.html'), 'utf8'),
          readFileSync(shellFile, 'utf8'),
        )
      : null;
  if (built) {
    await app.register(fastifyStatic, {
      root: webDist,
      cacheControl: false,
      setHeaders: (res, filePath) => {
        // Vite's hashed assets never change; index.html must always be revalidated.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    if (!isApiPath(request.url) && wantsHtml(request)) {
      if (built) return reply.header('cache-control', 'no-cache').sendFile('index.html');
      return reply.status(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
    }
    throw new AppError('not_found');
  });
  if (!built) {
    app.get('/', { schema: { hide: true } }, (_request, reply) =>
      reply.status(503).type('text/plain; charset=utf-8').send(NOT_BUILT),
    );
  } else if (signinHtml !== null) {
    const sendSignin = (reply: FastifyReply) =>
      reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(signinHtml);
    // `/` as the static plugin answers it (whatever the request accepts); `/signin` as the history
    // fallback does (HTML only, a JSON 404 otherwise).
    app.get('/', { schema: { hide: true } }, (_request, reply) => sendSignin(reply));
    app.get('/signin', { schema: { hide: true } }, (request, reply) => {
      if (!wantsHtml(request)) throw new AppError('not_found');
      return sendSignin(reply);
    });
  }
}
