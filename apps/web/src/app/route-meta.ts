import type { ComponentType } from 'react';
import type { Params } from 'react-router';
import type { FetchQueryOptions } from '@tanstack/react-query';
import type { TRouteRequirement } from '@air/shared/route-guard';

/** A layout of the console's shells (app/router.tsx renders each). */
export type TLayout =
  | 'app'
  | 'account'
  | 'account-basic'
  | 'auth'
  | 'auth-centred'
  | 'onboarding'
  | 'air'
  | 'airpublic'
  | 'airpublicfull'
  | 'plain';

export interface TRouteMeta {
  path: string;
  layout: TLayout;
  permission: TRouteRequirement;
  title: string;
  page: () => Promise<{ default: ComponentType }>;
  /** The translation namespaces the page renders with, loaded alongside its code. */
  namespaces?: readonly string[];
  /**
   * The queries the page asks first, started by its loader alongside its code and catalogues:
   * otherwise each went out only once code, catalogue and first render were done, one after
   * another. The page's own useQuery finds the answer in the cache (or in flight).
   */
  preload?: (params: Params) => Promise<readonly TPreloadQuery[]>;
}

// The options of any query: each preload names its own, the cache keeps them apart by key.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TPreloadQuery = FetchQueryOptions<any, any, any, any>;
