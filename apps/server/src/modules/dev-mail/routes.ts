import { desc } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { mailOutbox } from '../../db/schema/mail-outbox';
import { AppError } from '../../lib/app-error';
import { isLocalCaller } from '../../lib/local-caller';
import { repeatWhileOpen } from '../../lib/repeat-while-open';
import { escapeHtml } from '../../mail/layout';
import { devOutboxEnabled, purgeOutbox } from '../../mail/mailer';

export const prefix = '';

const LIMIT = 100;
const PURGE_EVERY_MS = 60 * 60_000;

/**
 * The dev outbox (server contract section 1): `GET /dev/mail` lists the newest mails with
 * clickable links and `GET /dev/mail.json` gives them as data. The routes exist only without
 * SMTP_URL and outside production, and answer only callers on this machine that no proxy
 * forwarded (`isLocalCaller`; 404 to others): the
 * mails hold sign-in links.
 */
const devMailRoutes: FastifyPluginAsync = async (app) => {
  // Without SMTP (production included) mail is kept in the outbox: an hourly purge keeps no row
  // past the retention even when no new mail comes to purge on.
  if (!app.config.smtpUrl) {
    repeatWhileOpen(
      app,
      PURGE_EVERY_MS,
      () => purgeOutbox(app.db),
      (error) => app.log.warn({ err: error }, 'outbox purge failed'),
    );
  }
  if (!devOutboxEnabled(app.config)) return;
  app.addHook('onRequest', async (request) => {
    if (!isLocalCaller(request.raw)) throw new AppError('not_found');
  });

  const newest = async () => {
    await purgeOutbox(app.db);
    return app.db
      .select({
        id: mailOutbox.id,
        to: mailOutbox.to,
        subject: mailOutbox.subject,
        template: mailOutbox.template,
        text: mailOutbox.text,
        links: mailOutbox.links,
        createdAt: mailOutbox.createdAt,
      })
      .from(mailOutbox)
      .orderBy(desc(mailOutbox.createdAt))
      .limit(LIMIT);
  };

  app.get('/dev/mail.json', { schema: { hide: true } }, async () => {
    const rows = await newest();
    return { data: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })) };
  });

  app.get('/dev/mail', { schema: { hide: true } }, async (_request, reply) => {
    const rows = await newest();
    const items = rows
      .map(
        (row) => `<li>
<p><strong>${escapeHtml(row.subject)}</strong><br>
<small>to ${escapeHtml(row.to)} · ${escapeHtml(row.template)} · ${row.createdAt.toISOString()}</small></p>
<ul>${row.links.map((link) => `<li><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></li>`).join('')}</ul>
<details><summary>Text</summary><pre>${escapeHtml(row.text)}</pre></details>
</li>`,
      )
      .join('\n');
    const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>AIR dev outbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}li{margin-bottom:1rem}pre{white-space:pre-wrap}</style>
</head><body><h1>Dev outbox</h1>
<p>Mails stored because SMTP_URL is not set (newest first, at most ${LIMIT}).</p>
${rows.length ? `<ol>${items}</ol>` : '<p>No mail yet.</p>'}
</body></html>`;
    return reply.type('text/html; charset=utf-8').send(html);
  });
};

export default devMailRoutes;
