import { z } from 'zod';

/** `POST /api/auth/impersonate`: the 5-minute token of a link minted by `npm run cli -- impersonate`. */
export const ZImpersonate = z.strictObject({ token: z.string().min(1).max(512) });
export type TImpersonate = z.infer<typeof ZImpersonate>;
