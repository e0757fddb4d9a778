import { useTranslation } from 'react-i18next';
import { CodeBlock } from './code-block';
import { useSnippets } from './quick-start';
import type { TSnippetKey } from '../snippet-key';

/**
 * A ready-to-run call (the cURL example) for the screens that just made a key or an endpoint, so
 * the next step is one copy away.
 */
export function ReadyCall({ apiKey, routeName }: { apiKey: TSnippetKey; routeName: string }) {
  const { t } = useTranslation('dashboard');
  const { shown, copy } = useSnippets(apiKey, routeName);
  return (
    <div className="min-w-0 space-y-2">
      <p className="text-sm font-medium">{t('ready.title')}</p>
      <p className="text-sm text-muted-foreground">{t('ready.text')}</p>
      <CodeBlock
        code={shown.curl}
        label={t('quickstart.snippet', { name: 'cURL' })}
        testId="ready-call"
        copy={copy('curl')}
      />
    </div>
  );
}
