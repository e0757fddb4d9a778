import { useTranslation } from 'react-i18next';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { CodeBlock } from './code-block';
import type { TSnippetKey } from '../snippet-key';
import { buildSnippets, SAMPLE_MODEL, type TSnippetKind } from '@air/shared/snippets';

/** The snippet tabs: the snippet's key, and the language's name as shown. */
const LANGUAGES = [
  ['curl', 'cURL'],
  ['node', 'NodeJS'],
  ['python', 'Python'],
] as const;

/**
 * The snippets for `apiKey` and `routeName` as shown, and for each a copy function that answers it
 * with the real key when the shown one is masked. The server's APP_URL is the console's origin.
 */
export function useSnippets(apiKey: TSnippetKey, routeName: string) {
  const origin = window.location.origin;
  const shown = buildSnippets({ origin, apiKey: apiKey.shown, routeName });
  const { full } = apiKey;
  const copy = (kind: TSnippetKind) =>
    full ? async () => buildSnippets({ origin, apiKey: await full(), routeName })[kind] : undefined;
  return { origin, shown, copy };
}

/** The examples (cURL, NodeJS, Python) and the OpenAI-compatible form, with the key and route given. */
export function QuickStart({ apiKey, routeName }: { apiKey: TSnippetKey; routeName: string }) {
  const { t } = useTranslation('dashboard');
  const { origin, shown: snippets, copy } = useSnippets(apiKey, routeName);
  return (
    <div className="min-w-0 space-y-4">
      <Tabs defaultValue="curl">
        <TabsList>
          {LANGUAGES.map(([value, name]) => (
            <TabsTrigger key={value} value={value}>
              {name}
            </TabsTrigger>
          ))}
        </TabsList>
        {LANGUAGES.map(([value, name]) => (
          <TabsContent key={value} value={value}>
            <CodeBlock
              code={snippets[value]}
              label={t('quickstart.snippet', { name })}
              testId={`snippet-${value}`}
              copy={copy(value)}
            />
          </TabsContent>
        ))}
      </Tabs>
      <div className="space-y-3">
        <p className="text-sm font-medium">{t('openai.title')}</p>
        <p className="text-sm text-muted-foreground">{t('openai.description', { model: SAMPLE_MODEL })}</p>
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-muted-foreground">{t('openai.baseUrl')}</dt>
          <dd className="font-mono break-all">{`${origin}/api/v1`}</dd>
          <dt className="text-muted-foreground">{t('openai.endpoint')}</dt>
          <dd className="font-mono break-all">{`${origin}/api/v1/chat/completions`}</dd>
        </dl>
        <CodeBlock
          code={snippets.openai}
          label={t('openai.title')}
          testId="snippet-openai"
          copy={copy('openai')}
        />
      </div>
    </div>
  );
}
