import { CopyButton } from '@/components/ui/copy-button';

/** A snippet with its copy button; the text is exactly what gets copied. */
export function CodeBlock({ code, label, testId }: { code: string; label: string; testId?: string }) {
  return (
    <div className="relative">
      <pre
        aria-label={label}
        data-testid={testId}
        tabIndex={0}
        className="max-h-96 overflow-auto rounded-md border bg-muted p-4 pr-24 font-mono text-xs leading-relaxed whitespace-pre"
      >
        <code>{code}</code>
      </pre>
      <CopyButton text={code} className="absolute top-2 right-2" />
    </div>
  );
}
