import { CopyButton } from '@/components/ui/copy-button';

/**
 * A snippet with its copy button above it (never over the code). What is copied is the text shown,
 * unless `copy` answers another: a snippet showing a masked key copies the command with the real one.
 */
export function CodeBlock({
  code,
  label,
  testId,
  copy,
}: {
  code: string;
  label: string;
  testId?: string;
  copy?: () => Promise<string>;
}) {
  return (
    <div className="overflow-hidden rounded-md border bg-muted">
      <div className="flex items-center justify-between gap-2 border-b px-3 py-1.5">
        <span className="text-xs font-medium text-muted-foreground">{label}</span>
        <CopyButton text={copy ?? code} variant="ghost" className="h-8" />
      </div>
      <pre
        aria-label={label}
        data-testid={testId}
        tabIndex={0}
        className="max-h-96 overflow-auto p-4 font-mono text-xs leading-relaxed whitespace-pre focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
      >
        <code>{code}</code>
      </pre>
    </div>
  );
}
