import { z } from 'zod';

/**
 * Wire-format building blocks shared by every console call (server contract section 2).
 *
 * Convention: request bodies are `z.strictObject(...)` so unknown fields are rejected with 400
 * (the server reports the first unknown key as `inputError`). Use `z.looseObject` only where the
 * spec sends extra fields on purpose. A custom zod message that is an i18n key (e.g.
 * `{ error: 'validation.password_complex' }`) is translated by the server's error handler.
 */

export const ZUuid = z.uuid();
export const ZIdParams = z.strictObject({ id: z.uuid() });
export type TIdParams = z.infer<typeof ZIdParams>;
/** `/{ids}`: ids separated by commas (each checked by the route; a bad one is simply not found). */
export const ZIdsParams = z.strictObject({ ids: z.string().min(1).max(20_000) });

/**
 * Why the caller's session left an account: an admin removed the member (`removed`), they left
 * (`left`), or the owner closed the account (`closed`); `account_name` names that account.
 */
export const ZRemovalNotice = z.object({
  reason: z.enum(['removed', 'left', 'closed']),
  account_name: z.string(),
});
export type TRemovalNotice = z.infer<typeof ZRemovalNotice>;

/**
 * `{ code, message, inputError?, ... }`: every 4xx/5xx of the console API. `code` is stable (one of
 * `ERRORS` in @air/shared/errors; a card refusal gives the processor's own, `card_declined`, ...),
 * `message` is localised for people. A 401 whose session ended because the member was removed from
 * their only account says so in `ended`.
 */
export const ZErrorBody = z.looseObject({
  code: z
    .string()
    .describe('Stable error code (validation, not_found, conflict, ...; a card refusal: the processor code)'),
  message: z.string(),
  inputError: z.string().optional(),
  ended: ZRemovalNotice.optional(),
});
export type TErrorBody = z.infer<typeof ZErrorBody>;
/**
 * An error body as the console holds it: the server's, or one the console makes itself for a
 * refusal it finds before sending (components/form/submit.ts), which has no `code`.
 */
export const ZErrorBodySeen = ZErrorBody.extend({ code: z.string().optional() });
export type TErrorBodySeen = z.infer<typeof ZErrorBodySeen>;

/** `{ data?, message? }`: the success envelope. */
export function ZEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ data, message: z.string().optional() });
}

/** An answer that carries only a localised message (sign-out, mail sent…). */
export const ZMessageOnly = z.object({ message: z.string() });
export type TMessageOnly = z.infer<typeof ZMessageOnly>;

/** How many rows a bulk delete removed. */
export const ZDeleted = z.object({ deleted: z.number().int().min(0) });
export type TDeleted = z.infer<typeof ZDeleted>;

/** Deleting oneself or closing the account: `signout` tells the console to drop its session. */
export const ZSignOut = z.object({ signout: z.boolean() });
export type TSignOut = z.infer<typeof ZSignOut>;

export const LOCALES = ['en', 'es'] as const;
export const ZLocale = z.enum(LOCALES);
export type TLocale = z.infer<typeof ZLocale>;
