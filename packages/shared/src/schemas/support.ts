import { z } from 'zod';
import { ZEmailAddress } from './fields';

/**
 * `POST /api/utility/mail` (spec section 5): the help page's support form. The message goes to
 * SUPPORT_EMAIL with the signed-in user's account, user and plan; a copy goes to the user's own
 * address. `email` and `name` are the contact details the user left (prefilled with theirs).
 */
export const SUPPORT_MESSAGE_MAX = 5000;
export const SUPPORT_MESSAGES_PER_HOUR = 5;

export const ZSupportMail = z.strictObject({
  email: ZEmailAddress,
  name: z.string().trim().min(1, { error: 'validation.support_name_required' }).max(200),
  template: z.literal('help').default('help'),
  message: z
    .string()
    .trim()
    .min(1, { error: 'validation.support_message_required' })
    .max(SUPPORT_MESSAGE_MAX),
});
export type TSupportMail = z.infer<typeof ZSupportMail>;

/** `GET /api/utility/config`: what the console needs to know of the server's configuration. */
export const ZUtilityConfig = z.object({
  /** Where the side navigation's Docs link goes: DOCS_URL, else the OpenAPI reference. */
  docs_url: z.string(),
  /** SUPPORT_EMAIL is set: the support form can send. */
  support_configured: z.boolean(),
});
export type TUtilityConfig = z.infer<typeof ZUtilityConfig>;
