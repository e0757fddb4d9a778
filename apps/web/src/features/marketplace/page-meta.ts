import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';

/** index.html's own description: what every page without one of its own says. */
const CONSOLE_DESCRIPTION = 'AIR: register, share and call AI endpoints';
const OPEN_GRAPH = ['og:title', 'og:description', 'og:url', 'og:type', 'og:site_name'];

function setMeta(attribute: 'name' | 'property', key: string, content: string) {
  let tag = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (!tag) {
    tag = document.createElement('meta');
    tag.setAttribute(attribute, key);
    document.head.appendChild(tag);
  }
  tag.content = content;
}

/**
 * A public page's title and description (the tab's title, `description` and Open Graph tags; the
 * server writes the same ones into the HTML it answers the address with). Leaving the page puts
 * the console's description back and drops the Open Graph tags, so the next page never carries
 * this one's.
 */
export function usePageMeta(title: string | undefined, description: string | undefined) {
  const { i18n } = useTranslation();
  const { pathname } = useLocation();
  useEffect(() => {
    if (!title) return;
    document.title = `${title} | AIR`;
    setMeta('property', 'og:title', title);
    setMeta('property', 'og:url', `${window.location.origin}${pathname}`);
    if (description) {
      setMeta('name', 'description', description);
      setMeta('property', 'og:description', description);
    }
  }, [title, description, pathname, i18n.language]);
  useEffect(
    () => () => {
      setMeta('name', 'description', CONSOLE_DESCRIPTION);
      for (const key of OPEN_GRAPH) document.head.querySelector(`meta[property="${key}"]`)?.remove();
    },
    [],
  );
}
