import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Eye, EyeOff } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { useErrorHandler } from '@/lib/error-handler';
import { revealKey, type TApiKey } from './api-keys-api';

/** The key column: masked until the reveal toggle fetches the full key (GET /api/key/{id}). */
export function RevealKey({ apiKey }: { apiKey: TApiKey }) {
  const { t } = useTranslation('apikeys');
  const handleError = useErrorHandler();
  const [full, setFull] = React.useState<string | null>(null);
  const [shown, setShown] = React.useState(false);
  const [loading, setLoading] = React.useState(false);

  async function toggle() {
    if (shown) return setShown(false);
    if (full) return setShown(true);
    setLoading(true);
    try {
      setFull(await revealKey(apiKey.id));
      setShown(true);
    } catch (error) {
      handleError(error);
    } finally {
      setLoading(false);
    }
  }

  // The list already answers the masked prefix (`air_AbCd…`).
  const masked = apiKey.key ?? 'air_…';
  return (
    <span className="inline-flex items-center gap-1">
      {/* The masked key stays on one line (it broke into three at 1280 px); the full one wraps. */}
      <code
        className={cn(
          'rounded bg-muted px-1.5 py-0.5 font-mono text-xs',
          shown && full ? 'break-all' : 'whitespace-nowrap',
        )}
      >
        {shown && full ? full : masked}
      </code>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        className="size-8"
        loading={loading}
        aria-pressed={shown}
        aria-label={shown ? t('list.hide', { name: apiKey.name }) : t('list.reveal', { name: apiKey.name })}
        onClick={() => void toggle()}
      >
        {!loading && (shown ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />)}
      </Button>
    </span>
  );
}
