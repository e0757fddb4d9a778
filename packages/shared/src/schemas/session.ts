import { z } from 'zod';

/**
 * The signed-in user's sessions (profile → Sessions). `GET /api/user/sessions` lists the live
 * ones, newest activity first; `DELETE /api/user/sessions/{id}` signs one out (the caller's own
 * included); `DELETE /api/user/sessions` signs out every other one.
 */
export const ZSession = z.object({
  id: z.uuid(),
  /** The browser's user agent as sent at sign-in, or null. */
  device: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: z.string(),
  last_seen_at: z.string(),
  /** The session making this request. */
  current: z.boolean(),
});
export type TSession = z.infer<typeof ZSession>;

export const ZSessionList = z.object({ data: z.array(ZSession) });
export type TSessionList = z.infer<typeof ZSessionList>;

export const ZSessionsSignedOut = z.object({
  data: z.object({ signed_out: z.number().int(), signout: z.boolean() }),
  message: z.string(),
});
export type TSessionsSignedOut = z.infer<typeof ZSessionsSignedOut>;
