import { useMatches } from 'react-router';
import type { TRouteRequirement } from '@air/shared/route-guard';

/** What every page route carries in its `handle`, read by the title sync and the page heading. */
export interface TRouteHandle {
  title: string;
  permission: TRouteRequirement;
}

function isHandle(value: unknown): value is TRouteHandle {
  return typeof value === 'object' && value !== null && typeof (value as TRouteHandle).title === 'string';
}

/** The deepest matched route's handle (the page's, not its layout's). */
export function useRouteHandle(): TRouteHandle | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle;
    if (isHandle(handle)) return handle;
  }
  return undefined;
}
