import { z } from 'zod';
import { isEmail, missingError, OTP_LENGTH } from '../validation';

/** Field schemas several request schemas share (their keys are in the `validation.*` catalogs). */

/** An email address, trimmed and lower-cased; empty is "required", anything else must look like one. */
export const ZEmailAddress = z
  .string({ error: missingError('validation.email_required') })
  .trim()
  .toLowerCase()
  .min(1, { error: 'validation.email_required' })
  .max(254)
  .refine(isEmail, { error: 'validation.invalid_email' });

/** A one-time code from an authenticator app: exactly OTP_LENGTH characters. */
export const ZOtpCode = z.string().trim().length(OTP_LENGTH, { error: 'validation.otp_length' });
