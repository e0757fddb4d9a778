import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Check, Copy } from 'lucide-react';
import { Button, type ButtonProps } from '@/components/ui/button';

/** Spec section 9: the copy confirmation shows for 2 seconds. */
export const COPY_CONFIRM_MS = 2000;

/** Clipboard API where available; otherwise the selection fallback (older browsers, insecure origins). */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Permission refused: fall through to the selection fallback.
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    document.execCommand('copy');
  } finally {
    area.remove();
  }
}

/**
 * A button that copies `text` and says "Copied" for two seconds. `text` may be a function that
 * answers it later (a snippet whose key is fetched only when copied); if it fails, nothing is
 * copied and the function itself reports why.
 */
export function CopyButton({
  text,
  label,
  ...props
}: { text: string | (() => Promise<string>); label?: string } & Omit<ButtonProps, 'onClick' | 'children'>) {
  const { t } = useTranslation('clipboard');
  const [copied, setCopied] = React.useState(false);
  const timer = React.useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  React.useEffect(() => () => clearTimeout(timer.current), []);

  async function onClick() {
    let value: string;
    try {
      value = typeof text === 'string' ? text : await text();
    } catch {
      return;
    }
    await copyText(value);
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_CONFIRM_MS);
  }

  return (
    <Button type="button" variant="outline" size="sm" onClick={() => void onClick()} {...props}>
      {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
      <span aria-live="polite">{copied ? t('copied') : (label ?? t('copy'))}</span>
    </Button>
  );
}
