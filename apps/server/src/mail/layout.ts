/**
 * The one look of every mail: a heading, paragraphs, an optional button and a footer, rendered
 * as HTML (inline styles only, as mail clients need) and as the plain-text part. Every value is
 * escaped here, so templates pass plain strings.
 */
export interface TMailBody {
  heading: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** Shown small under the button, e.g. "This link expires in 15 minutes." */
  note?: string;
  footer: string;
}

export interface TMailContent {
  subject: string;
  html: string;
  text: string;
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export function renderMail(subject: string, body: TMailBody): TMailContent {
  const paragraphs = body.paragraphs
    .map((p) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p)}</p>`)
    .join('\n');
  const button = body.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(body.action.url)}" style="background:#111827;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(body.action.label)}</a></p>\n<p style="margin:0 0 16px;font-size:13px;color:#6b7280;word-break:break-all">${escapeHtml(body.action.url)}</p>`
    : '';
  const note = body.note
    ? `<p style="margin:0 0 16px;font-size:13px;color:#6b7280">${escapeHtml(body.note)}</p>`
    : '';
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#111827">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
<h1 style="margin:0 0 24px;font-size:20px">${escapeHtml(body.heading)}</h1>
${paragraphs}
${button}
${note}
<p style="margin:32px 0 0;font-size:12px;color:#9ca3af">${escapeHtml(body.footer)}</p>
</div></body></html>`;
  const text = [
    body.heading,
    '',
    ...body.paragraphs.flatMap((p) => [p, '']),
    ...(body.action ? [`${body.action.label}: ${body.action.url}`, ''] : []),
    ...(body.note ? [body.note, ''] : []),
    body.footer,
    '',
  ].join('\n');
  return { subject, html, text };
}

/** Every href of a rendered mail (the dev outbox lists them as clickable links). */
export function linksOf(html: string): string[] {
  const links = [...html.matchAll(/href="([^"]+)"/g)].map((m) =>
    m[1]!
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'"),
  );
  return [...new Set(links)];
}
