import { z } from 'zod';
import { ZEmailAddress } from './fields';

/** `POST /api/auth/magic`: mails a 15-minute single-use sign-in link; always answers 200. */
export const ZMagicLinkRequest = z.strictObject({ email: ZEmailAddress });
export type TMagicLinkRequest = z.infer<typeof ZMagicLinkRequest>;

/** `POST /api/auth/magic/verify`: the link's token; answers a sign-in (or `2fa_required`). */
export const ZMagicLinkVerify = z.strictObject({ token: z.string().min(1).max(512) });
export type TMagicLinkVerify = z.infer<typeof ZMagicLinkVerify>;
