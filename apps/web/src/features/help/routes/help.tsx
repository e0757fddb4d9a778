import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Link2, Search } from 'lucide-react';
import { PageHeading } from '@/components/layout/page-heading';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { HELP_EN } from '../content/en';
import { HELP_ES } from '../content/es';
import { blockText, type THelpBlock, type THelpSection } from '../content/types';
import { SupportForm, SupportIntro } from '../support-form';

/** Case and accent-insensitive form of a text, for the search. */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/** `text` with every match of `query` in <mark> (matching on the folded text, same length). */
function Highlight({ text, query }: { text: string; query: string }) {
  if (!query) return <>{text}</>;
  const folded = fold(text);
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (let found = folded.indexOf(query); found !== -1 && query; found = folded.indexOf(query, at)) {
    if (found > at) parts.push(text.slice(at, found));
    parts.push(<mark key={found}>{text.slice(found, found + query.length)}</mark>);
    at = found + query.length;
  }
  parts.push(text.slice(at));
  return <>{parts}</>;
}

function Block({ block, query }: { block: THelpBlock; query: string }) {
  if ('p' in block)
    return (
      <p className="leading-relaxed">
        <Highlight text={block.p} query={query} />
      </p>
    );
  if ('list' in block)
    return (
      <ol className="list-decimal space-y-2 pl-5 leading-relaxed">
        {block.list.map((item) => (
          <li key={item}>
            <Highlight text={item} query={query} />
          </li>
        ))}
      </ol>
    );
  if ('code' in block)
    return (
      // Focusable so a keyboard user can scroll a long line sideways (WCAG 2.1.1).
      <pre
        tabIndex={0}
        className="overflow-x-auto rounded-md bg-muted p-3 font-mono text-xs focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <code>{block.code}</code>
      </pre>
    );
  return (
    // Focusable for the same reason as a code block: a wide table scrolls sideways on a phone.
    <div
      tabIndex={0}
      className="overflow-x-auto rounded-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
    >
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b">
            <th className="py-2 pr-4 font-medium">{block.table.head[0]}</th>
            <th className="py-2 font-medium">{block.table.head[1]}</th>
          </tr>
        </thead>
        <tbody>
          {block.table.rows.map(([name, meaning]) => (
            <tr key={name} className="border-b align-top last:border-0">
              <td className="w-2/5 py-2 pr-4 font-mono text-xs break-words sm:w-auto sm:whitespace-nowrap">
                <Highlight text={name} query={query} />
              </td>
              <td className="py-2">
                <Highlight text={meaning} query={query} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * /help: getting started, the gateway reference, marketplace, accounts and roles, billing and FAQ in
 * the user's language, searchable on the page (sections without a match hide), each section a
 * linkable anchor; the support contact form at the end.
 */
export default function HelpPage() {
  const { t, i18n } = useTranslation('help');
  const [query, setQuery] = React.useState('');
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const sections: THelpSection[] = React.useMemo(
    () =>
      (i18n.language === 'es' ? HELP_ES : HELP_EN).map((section) => ({
        ...section,
        blocks: section.blocks.map(
          (block) => JSON.parse(JSON.stringify(block).replaceAll('{origin}', origin)) as THelpBlock,
        ),
      })),
    [i18n.language, origin],
  );
  const needle = fold(query.trim());
  const shown = needle
    ? sections.filter((s) => fold([s.title, ...s.blocks.map(blockText)].join('\n')).includes(needle))
    : sections;

  // A link to /help#section scrolls there once the page has rendered.
  React.useEffect(() => {
    const id = window.location.hash.slice(1);
    if (id) document.getElementById(id)?.scrollIntoView();
  }, []);

  return (
    <div className="space-y-6">
      <PageHeading className="mb-0" />
      <div className="relative max-w-md">
        <Search className="absolute top-2.5 left-2.5 size-4 text-muted-foreground" aria-hidden="true" />
        <Input
          type="search"
          className="pl-8"
          placeholder={t('search.placeholder')}
          aria-label={t('search.label')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      <p role="status" className="text-sm text-muted-foreground">
        {needle ? t('search.results', { count: shown.length }) : ''}
      </p>
      <nav aria-label={t('toc')} className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        {shown.map((section) => (
          <a
            key={section.id}
            href={`#${section.id}`}
            className="text-primary underline-offset-4 hover:underline"
          >
            {section.title}
          </a>
        ))}
      </nav>
      {shown.map((section) => (
        <section
          key={section.id}
          id={section.id}
          aria-labelledby={`${section.id}-title`}
          className="scroll-mt-20"
        >
          <Card>
            <CardHeader>
              <h2 id={`${section.id}-title`} className="group flex items-center gap-2 text-xl font-semibold">
                <Highlight text={section.title} query={needle} />
                <a
                  href={`#${section.id}`}
                  className="text-muted-foreground opacity-60 hover:opacity-100 focus-visible:opacity-100"
                  aria-label={t('anchor', { title: section.title })}
                >
                  <Link2 className="size-4" aria-hidden="true" />
                </a>
              </h2>
            </CardHeader>
            <CardContent className="space-y-4 text-sm">
              {section.blocks.map((block, index) => (
                <Block key={index} block={block} query={needle} />
              ))}
            </CardContent>
          </Card>
        </section>
      ))}
      {needle && shown.length === 0 && <p className="text-sm">{t('search.none', { query: query.trim() })}</p>}
      <section id="support" aria-labelledby="support-title" className="scroll-mt-20">
        <Card>
          <CardHeader>
            <CardTitle id="support-title" className="text-xl">
              {t('support.title')}
            </CardTitle>
            <SupportIntro className="text-sm text-muted-foreground" />
          </CardHeader>
          <CardContent>
            <SupportForm />
          </CardContent>
        </Card>
      </section>
    </div>
  );
}
