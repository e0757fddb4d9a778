import * as React from 'react';
import { Inbox } from 'lucide-react';
import { cn } from '@/lib/utils';

/** An empty state: icon, title, text and an optional action. */
export function BlankSlate({
  title,
  text,
  action,
  className,
}: {
  title: React.ReactNode;
  text?: React.ReactNode;
  action?: React.ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cn(
        'flex flex-col items-center justify-center gap-2 rounded-md border border-dashed p-6 text-center',
        className,
      )}
    >
      <Inbox className="size-8 text-muted-foreground" aria-hidden="true" />
      <p className="font-medium">{title}</p>
      {text && <p className="text-sm text-muted-foreground">{text}</p>}
      {action && <div className="mt-2">{action}</div>}
    </div>
  );
}
