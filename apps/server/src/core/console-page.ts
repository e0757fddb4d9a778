/**
 * What a public page of the console says about itself to link previews and search engines, which
 * run no script: the tab's title, the description and the Open Graph tags.
 */
export interface TPageMeta {
  /** The page's own title, without the ` | AIR` suffix. */
  title: string;
  description: string;
  /** The page's absolute address (og:url). */
  url: string;
}

/** Text made inert in HTML, in an element's content and in a quoted attribute alike. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** Longest description kept: previews cut at about 160 to 300 characters anyway. */
const DESCRIPTION_MAX = 300;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= DESCRIPTION_MAX ? flat : `${flat.slice(0, DESCRIPTION_MAX - 1).trimEnd()}…`;
}

/**
 * The console's index.html with `meta` in its head: its own `<title>` and description are
 * replaced, the Open Graph and Twitter card tags added. Every value is escaped, so a catalog text
 * such as `</title><script>` stays text.
 */
export function withPageMeta(indexHtml: string, meta: TPageMeta): string {
  const title = escapeHtml(`${meta.title} | AIR`);
  const ogTitle = escapeHtml(meta.title);
  const description = escapeHtml(clip(meta.description));
  const url = escapeHtml(meta.url);
  const tags = [
    `<title>${title}</title>`,
    `<meta name="description" content="${description}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="AIR" />`,
    `<meta property="og:title" content="${ogTitle}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${url}" />`,
    `<meta name="twitter:card" content="summary" />`,
  ].join('\n    ');
  const bare = indexHtml
    .replace(/<title>[\s\S]*?<\/title>\s*/i, '')
    .replace(/<meta\s+name="description"[^>]*>\s*/i, '');
  return bare.replace(/<\/head>/i, `  ${tags}\n  </head>`);
}
