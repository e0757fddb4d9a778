import type { ComponentType } from 'react';
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
}
