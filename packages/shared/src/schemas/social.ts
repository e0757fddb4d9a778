import { z } from 'zod';

/** Social sign-in (OpenID Connect): the providers the sign-in page offers, by URL name. */
export const ZSocialProvider = z.object({ name: z.string(), label: z.string() });
export type TSocialProvider = z.infer<typeof ZSocialProvider>;

export const ZSocialProviders = z.array(ZSocialProvider);

/** `/api/auth/social/:provider`: lower-case letters and digits, as derived from OIDC_<NAME>_*. */
export const ZSocialParams = z.strictObject({ provider: z.string().regex(/^[a-z0-9]{1,40}$/) });
export type TSocialParams = z.infer<typeof ZSocialParams>;

/** What the provider appends to the callback (RFC 6749 4.1.2, RFC 9207 `iss`); read, not trusted. */
export const ZSocialCallbackQuery = z.looseObject({
  code: z.string().max(2048).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(256).optional(),
});
