import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

function setMeta(attribute: 'name' | 'property', key: string, content: string) {
  let tag = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (!tag) {
    tag = document.createElement('meta');
    tag.setAttribute(attribute, key);
    document.head.appendChild(tag);
  }
  tag.content = content;
}

/** A public page's title and description (the tab's title, `description` and Open Graph tags). */
export function usePageMeta(title: string | undefined, description: string | undefined) {
  const { i18n } = useTranslation();
  useEffect(() => {
    if (!title) return;
    document.title = `${title} | AIR`;
    setMeta('property', 'og:title', title);
    if (description) {
      setMeta('name', 'description', description);
      setMeta('property', 'og:description', description);
    }
  }, [title, description, i18n.language]);
}
