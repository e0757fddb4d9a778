import { z } from 'zod';

/**
 * The spec's six name-only collections (newitem, newitemtwo, endpointtest, airoute, air, search):
 * `GET /api/{kind}`, `GET /api/{kind}/{id}`, `POST /api/{kind} { name }`,
 * `PATCH /api/{kind}/{id} { name }`, `DELETE /api/{kind}` (array of ids; airoute:
 * `DELETE /api/airoute/{ids}` comma-separated).
 */
export const ITEM_KINDS = ['newitem', 'newitemtwo', 'endpointtest', 'airoute', 'air', 'search'] as const;
export const ZItemKind = z.enum(ITEM_KINDS);
export type TItemKind = z.infer<typeof ZItemKind>;

export const ZItemInput = z.strictObject({ name: z.string().trim().min(1).max(200) });
export type TItemInput = z.infer<typeof ZItemInput>;

/** A bare array of ids, or `{ ids: [...] }`. */
const ZItemIds = z.array(z.uuid()).min(1).max(500);
export const ZDeleteItems = z.union([ZItemIds, z.strictObject({ ids: ZItemIds })]);

export const ZItem = z.object({ id: z.uuid(), name: z.string(), date_created: z.string() });
export type TItem = z.infer<typeof ZItem>;
