import type {
  TAiEndpoint as TOwnEndpoint,
  TRouteType,
  TSharedAiEndpoint,
} from '@air/shared/schemas/aiendpoint';
import type { TBadgeVariant } from '@/components/ui/badge';

export type { TRouteType } from '@air/shared/schemas/aiendpoint';

// Kept here rather than imported so list pages don't pull zod in with the shared schema module.
export const ROUTE_TYPES = ['agent', 'model', 'datasource'] as const satisfies readonly TRouteType[];

/**
 * An AI endpoint row as the registry calls answer it (spec section 3): the shared list's fields,
 * plus the owner-only ones when the caller owns it. `editable` false marks another account's
 * shared endpoint (readable, never writable).
 */
export type TAiEndpoint = TSharedAiEndpoint &
  Partial<
    Pick<
      TOwnEndpoint,
      'route_endpoint' | 'editable' | 'date_created' | 'date_updated' | 'protocols' | 'disabled_tools'
    >
  > & {
    config: TSharedAiEndpoint['config'] & Partial<TOwnEndpoint['config']>;
  };

/** Spec section 2: model green, datasource orange, agent blue. */
export const ROUTE_TYPE_BADGE: Record<TRouteType, TBadgeVariant> = {
  model: 'green',
  datasource: 'orange',
  agent: 'blue',
};

export function routeTypeBadge(type: string): TBadgeVariant {
  return ROUTE_TYPE_BADGE[type as TRouteType] ?? 'default';
}

export { htmlToText } from './html-text';
