import { useTranslation } from 'react-i18next';
import { buildMcpSnippets, type TMcpSnippetKind } from '@air/shared/mcp-snippets';
import { CodeBlock } from '@/features/dashboard/components/code-block';
import type { TSnippetKey } from '@/features/dashboard/snippet-key';

/**
 * "Try it now" for an MCP endpoint: the catalog's own snippets (one builder, `@air/shared/snippets`)
 * with the key given: an MCP client's `mcpServers` entry, and a cURL of `initialize` then
 * `tools/list` at `/api/mcp/{route}`. Shown masked, copied with the real key.
 */
export function McpReadyCall({ apiKey, routeName }: { apiKey: TSnippetKey; routeName: string }) {
  const { t } = useTranslation('registry');
  const origin = window.location.origin;
  const shown = buildMcpSnippets({ origin, routeName, apiKey: apiKey.shown });
  const { full } = apiKey;
  const copy = (kind: TMcpSnippetKind) =>
    full ? async () => buildMcpSnippets({ origin, routeName, apiKey: await full() })[kind] : undefined;
  return (
    <div className="min-w-0 space-y-3" data-testid="mcp-ready-call">
      <p className="text-sm font-medium">{t('mcpTry.title')}</p>
      <p className="text-sm text-muted-foreground">{t('mcpTry.text')}</p>
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-muted-foreground">{t('mcpTry.url')}</dt>
        <dd className="font-mono break-all">{`${origin}/api/mcp/${routeName}`}</dd>
      </dl>
      <CodeBlock
        code={shown.mcp_servers}
        label={t('mcpTry.config')}
        testId="mcp-try-config"
        copy={copy('mcp_servers')}
      />
      <CodeBlock code={shown.curl} label={t('mcpTry.curl')} testId="mcp-try-curl" copy={copy('curl')} />
    </div>
  );
}
