import { desc } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { mailOutbox } from '../../db/schema';
import { escapeHtml } from '../../mail/layout';

export const prefix = '';

const LIMIT = 100;

/**
 * The dev outbox (server contract section 1): outside production, `GET /dev/mail` lists the newest
 * mails with clickable links and `GET /dev/mail.json` gives them as data. Production never
 * registers these routes.
 */
const devMailRoutes: FastifyPluginAsync = async (app) => {
  if (app.config.isProduction) return;

  const newest = () =>
    app.db
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
