import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteHandle } from '@/lib/route-handle';
import { cn } from '@/lib/utils';

/** The page's title as its heading (from the route table), with optional content beside it. */
export function PageHeading({ className, children }: { className?: string; children?: React.ReactNode }) {
  const handle = useRouteHandle();
  const { t } = useTranslation();
  return (
    <div className={cn('mb-6 flex flex-wrap items-center justify-between gap-4', className)}>
      <h1 className="text-2xl font-semibold tracking-tight">{handle ? t(`title.${handle.title}`) : null}</h1>
      {children}
    </div>
  );
}
