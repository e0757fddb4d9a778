import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { PageHeading } from '@/components/layout/page-heading';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { CodeBlock } from '../components/code-block';
import { WelcomeNote } from '../components/welcome-note';
import { callsRow, firstApiKey, firstRouteName } from '../dashboard-data';
import { monthUsageQuery } from '@/features/usage/usage-api';
import { buildSnippets, PLACEHOLDER_KEY, PLACEHOLDER_ROUTE, SAMPLE_MODEL } from '../snippets';
import { formatNumber } from '@/lib/format-number';

/** /dashboard: the quick-start (cURL, NodeJS, Python, OpenAI compatibility) and usage this period. */
export default function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const key = useQuery({ queryKey: ['quickstart-key'], queryFn: firstApiKey, staleTime: 60_000 });
  const route = useQuery({ queryKey: ['quickstart-route'], queryFn: firstRouteName });
  // The quota banner reads the same query: one cache entry, one shape (the list), each selects.
  const usage = useQuery({ ...monthUsageQuery, select: callsRow });

  // The server's APP_URL is the origin the console is served from.
  const origin = window.location.origin;
  const apiKey = key.data ?? PLACEHOLDER_KEY;
  const routeName = route.data ?? PLACEHOLDER_ROUTE;
  const snippets = buildSnippets({ origin, apiKey, routeName });

  return (
    <section className="space-y-6">
      <PageHeading />
      <WelcomeNote />
      <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>{t('quickstart.title')}</CardTitle>
            <CardDescription>{t('quickstart.description')}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            {(!key.data || !route.data) && !key.isPending && !route.isPending && (
              <p className="text-sm text-muted-foreground">
                {!key.data && (
                  <>
                    {t('quickstart.noKey')}{' '}
                    <Link
                      className="text-primary underline underline-offset-4"
                      to="/account/apikeys/create"
                    >
                      {t('quickstart.createKey')}
                    </Link>
                    {'. '}
                  </>
                )}
                {!route.data && (
                  <>
                    {t('quickstart.noRoute')}{' '}
                    <Link className="text-primary underline underline-offset-4" to="/registry">
                      {t('quickstart.register')}
                    </Link>
                    .
                  </>
                )}
              </p>
            )}
            <Tabs defaultValue="curl">
              <TabsList>
                <TabsTrigger value="curl">cURL</TabsTrigger>
                <TabsTrigger value="node">NodeJS</TabsTrigger>
                <TabsTrigger value="python">Python</TabsTrigger>
              </TabsList>
              <TabsContent value="curl">
                <CodeBlock
                  code={snippets.curl}
                  label={t('quickstart.snippet', { name: 'cURL' })}
                  testId="snippet-curl"
                />
              </TabsContent>
              <TabsContent value="node">
                <CodeBlock
                  code={snippets.node}
                  label={t('quickstart.snippet', { name: 'NodeJS' })}
                  testId="snippet-node"
                />
              </TabsContent>
              <TabsContent value="python">
                <CodeBlock
                  code={snippets.python}
                  label={t('quickstart.snippet', { name: 'Python' })}
                  testId="snippet-python"
                />
              </TabsContent>
            </Tabs>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t('usage.title')}</CardTitle>
            <CardDescription>{usage.data?.period ?? t('usage.period')}</CardDescription>
          </CardHeader>
          <CardContent>
            {usage.data ? (
              <p>
                <span className="text-3xl font-semibold" data-testid="usage-total">
                  {formatNumber(usage.data.total)}
                </span>{' '}
                <span className="text-sm text-muted-foreground">
                  {usage.data.quota != null
                    ? t('usage.ofQuota', { quota: formatNumber(usage.data.quota) })
                    : (usage.data.label ?? t('usage.calls'))}
                </span>
                <Link
                  className="mt-2 block text-sm font-medium text-primary underline-offset-4 hover:underline"
                  to="/account/usage"
                >
                  {t('usage.details')}
                </Link>
              </p>
            ) : (
              <p className="text-sm text-muted-foreground">
                {usage.isPending ? t('common:loading') : t('usage.unavailable')}
              </p>
            )}
          </CardContent>
        </Card>
      </div>
      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>{t('openai.title')}</CardTitle>
          <CardDescription>{t('openai.description', { model: SAMPLE_MODEL })}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="text-muted-foreground">{t('openai.baseUrl')}</dt>
            <dd className="font-mono break-all">{`${origin}/api/v1`}</dd>
            <dt className="text-muted-foreground">{t('openai.endpoint')}</dt>
            <dd className="font-mono break-all">{`${origin}/api/v1/chat/completions`}</dd>
          </dl>
          <CodeBlock code={snippets.openai} label={t('openai.title')} testId="snippet-openai" />
        </CardContent>
      </Card>
    </section>
  );
}
