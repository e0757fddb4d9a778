import sanitizeHtml from 'sanitize-html';

/**
 * Rich-text descriptions (endpoint detail) are stored sanitised, so every reader (console,
 * marketplace, other accounts) gets harmless HTML: basic formatting, lists, headings, quotes, code
 * and links with safe protocols. Scripts, styles, event handlers and other tags are dropped (their
 * text kept where it is text).
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'strike',
    'blockquote',
    'code',
    'pre',
    'ul',
    'ol',
    'li',
    'h1',
    'h2',
    'h3',
    'h4',
    'a',
    'hr',
  ],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // Links open without giving the target page a handle on the console.
    a: (tagName, attribs) => ({
      tagName,
      attribs: {
        ...attribs,
        ...(attribs.target ? { target: '_blank' } : {}),
        rel: 'noopener noreferrer nofollow',
      },
    }),
  },
};

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/** A stored rich description as plain text (a card's summary, a page's meta description). */
export function plainText(html: string): string {
  return sanitizeHtml(html.replace(/<(?:br|\/p|\/li|\/h[1-4]|\/blockquote|\/pre)\b[^>]*>/gi, ' '), {
    allowedTags: [],
    allowedAttributes: {},
  })
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/\s+/g, ' ')
    .trim();
}
