import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './json-bytes';

/**
 * Checks on untrusted JSON text that run before any code walks the parsed value: recursive code
 * (validators, serialisers, sanitisers) overflows the stack on deeply nested input, and PostgreSQL
 * refuses U+0000 in text and lone UTF-16 surrogates in jsonb, so either reaching a query would be
 * a 500.
 */

/** How deep a request body may nest objects and arrays. */
export const MAX_JSON_DEPTH = 32;

/** True when the JSON text nests objects/arrays deeper than `max` (brackets in strings ignored). */
export function jsonDepthExceeds(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

/** The stored-text rule is shared with the console's forms (one rule, one place). */
export { findBadText } from '@air/shared/validation';

const BAD_TEXT_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

/**
 * Could the JSON text hold a NUL or a lone surrogate? Raw U+0000 is invalid JSON, and text decoded
 * from UTF-8 holds no lone surrogate (the decoder replaces broken bytes with U+FFFD), so only an
 * escape (`\u0000`, `\ud800`) can: a body without one is not walked.
 */
export function mayHoldBadText(text: string): boolean {
  return BAD_TEXT_ESCAPE.test(text);
}
