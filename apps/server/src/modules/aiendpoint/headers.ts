import {
  MASKED_HEADER_VALUE,
  MAX_UPSTREAM_HEADERS,
  RESERVED_HEADER_NAMES,
} from '@air/shared/schemas/aiendpoint';
import { AppError } from '../../lib/app-error';
import { encryptSecret } from '../../lib/crypto';

const INPUT_ERROR = 'config.headers';

/**
 * Applies an edit to the upstream headers (names are case-insensitive, kept lower-case): a value
 * equal to the masked placeholder keeps the stored value, null removes the header, anything else
 * sets it. Names not mentioned are kept.
 */
export function mergeHeaders(
  stored: Record<string, string>,
  edit: Record<string, string | null>,
): Record<string, string> {
  const result = { ...stored };
  for (const [rawName, value] of Object.entries(edit)) {
    const name = rawName.toLowerCase();
    if ((RESERVED_HEADER_NAMES as readonly string[]).includes(name) || name.startsWith('proxy-'))
      throw new AppError('validation', {
        inputError: INPUT_ERROR,
        messageKey: 'validation.header_reserved',
        params: { name: rawName },
      });
    if (value === null) {
      delete result[name];
    } else if (value === MASKED_HEADER_VALUE) {
      if (!(name in stored))
        throw new AppError('validation', {
          inputError: INPUT_ERROR,
          messageKey: 'validation.header_masked_unknown',
          params: { name: rawName },
        });
    } else {
      result[name] = value;
    }
  }
  if (Object.keys(result).length > MAX_UPSTREAM_HEADERS)
    throw new AppError('validation', { inputError: INPUT_ERROR, messageKey: 'validation.header_name' });
  return result;
}

/** One sealed JSON for all headers, or null when there are none. */
export function sealHeaders(secret: string, headers: Record<string, string>): string | null {
  return Object.keys(headers).length === 0 ? null : encryptSecret(secret, JSON.stringify(headers));
}
