import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';

/**
 * The one-message states of the sign-in family ("Something Went Wrong", "Magic Link Is Invalid",
 * "Signing you in…"): a heading, a line of text and an optional way back. The busy variant is a
 * polite live region so screen readers hear the change to the final state.
 */
export function StatusPanel({
  title,
  description,
  back,
  busy = false,
  children,
}: {
  title: string;
  description?: string;
  back?: { to: string; label: string };
  busy?: boolean;
  children?: ReactNode;
}) {
  return (
    <section
      className="grid justify-items-center gap-4 text-center"
      aria-live="polite"
      aria-busy={busy || undefined}
    >
      {busy && <Loader2 className="size-8 animate-spin text-muted-foreground" aria-hidden="true" />}
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      {description && <p className="text-muted-foreground">{description}</p>}
      {children}
      {back && (
        <Button asChild variant="outline">
          <Link to={back.to}>{back.label}</Link>
        </Button>
      )}
    </section>
  );
}
