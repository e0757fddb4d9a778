/** Plain text of a rich-text description: tags dropped, entities decoded, never executed. */
export function htmlToText(html: string | undefined | null): string {
  if (!html) return '';
  // DOMParser builds an inert document: scripts don't run and images don't load.
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}
