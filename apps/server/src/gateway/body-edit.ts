// Changes to a caller's JSON body made in its bytes: the members the gateway sets (a route's
// upstream `model`, `stream_options.include_usage`) are replaced or put in, and every other byte
// goes upstream as the caller sent it. Serialising a parsed body again would change what the
// caller sent: JSON.parse rounds integers past 2^53 (a `seed` of 9007199254740993 becomes
// ...992), and spacing, escapes and number forms are rewritten.
//
// Every function here expects a body JSON.parse has already accepted as an object: it skips over
// values without checking them.

import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COMMA,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
} from '../lib/json-bytes';

/** One change: the bytes [start, end) replaced by `text` (an insertion when start === end). */
export interface TBodyEdit {
  start: number;
  end: number;
  text: string;
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/**
 * Where the body's `{` is when its first non-blank byte is one, else -1: a cheap test that the
 * body is meant as a JSON object, and where the edits below start.
 */
export function objectStart(body: Buffer): number {
  const i = skipSpace(body, 0);
  return body[i] === OPEN_BRACE ? i : -1;
}

function skipSpace(body: Buffer, i: number): number {
  while (i < body.length && isSpace(body[i]!)) i++;
  return i;
}

/** From a string's opening quote to just past its closing one (the next quote not escaped). */
function skipString(body: Buffer, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = body.indexOf(QUOTE, from);
    if (quote < 0) return body.length;
    let backslashes = 0;
    for (let i = quote - 1; i > open && body[i] === BACKSLASH; i--) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** From a value's first byte to just past its last (nested values walked without recursion). */
function skipValue(body: Buffer, i: number): number {
  const first = body[i];
  if (first === QUOTE) return skipString(body, i);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    while (i < body.length) {
      const byte = body[i]!;
      if (byte === QUOTE) {
        i = skipString(body, i);
        continue;
      }
      if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return i;
  }
  // A number, true, false or null: up to the next separator.
  while (i < body.length) {
    const byte = body[i]!;
    if (byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || isSpace(byte)) break;
    i++;
  }
  return i;
}

/** Does the key string at [start, end) (quotes included) name `key`? Escaped keys are decoded. */
function namesKey(body: Buffer, start: number, end: number, key: string): boolean {
  const raw = body.subarray(start + 1, end - 1);
  if (raw.includes(BACKSLASH)) return JSON.parse(body.toString('utf8', start, end)) === key;
  return raw.length === Buffer.byteLength(key) && raw.toString('utf8') === key;
}

/**
 * The object opening at `open`: where each value of `key` is ([start, end) byte ranges; several
 * when the key is repeated, JSON.parse keeping the last), and whether the object has no members.
 */
function memberValues(
  body: Buffer,
  open: number,
  key: string,
): { ranges: Array<[number, number]>; empty: boolean } {
  const ranges: Array<[number, number]> = [];
  let empty = true;
  let i = open + 1;
  while (i < body.length) {
    i = skipSpace(body, i);
    const byte = body[i];
    if (byte === CLOSE_BRACE) break;
    if (byte === COMMA) {
      i++;
      continue;
    }
    empty = false;
    const keyStart = i;
    i = skipString(body, i);
    const matches = namesKey(body, keyStart, i, key);
    i = skipSpace(body, i) + 1; // the colon
    i = skipSpace(body, i);
    const valueStart = i;
    i = skipValue(body, i);
    if (matches) ranges.push([valueStart, i]);
  }
  return { ranges, empty };
}

/**
 * Sets `key` to the JSON text `value` in the object opening at `open`: every value of it replaced,
 * or the member put first. `absent`: the caller knows the object has no such key (from its parsed
 * form) and that it has other members, so the body is not walked at all.
 */
export function setMember(
  body: Buffer,
  open: number,
  key: string,
  value: string,
  absent = false,
): TBodyEdit[] {
  const member = `${JSON.stringify(key)}:${value}`;
  if (absent) return [{ start: open + 1, end: open + 1, text: `${member},` }];
  const { ranges, empty } = memberValues(body, open, key);
  if (ranges.length > 0) return ranges.map(([start, end]) => ({ start, end, text: value }));
  return [{ start: open + 1, end: open + 1, text: empty ? member : `${member},` }];
}

const INCLUDE_USAGE = 'true';
const USAGE_OPTIONS = '{"include_usage":true}';

/**
 * `stream_options.include_usage` set to true in the top-level object opening at `open`: inside
 * the caller's options object when there is one (its other members kept), else the member set
 * (`absent` as for setMember).
 */
export function includeUsage(body: Buffer, open: number, absent = false): TBodyEdit[] {
  if (absent) return setMember(body, open, 'stream_options', USAGE_OPTIONS, true);
  const { ranges } = memberValues(body, open, 'stream_options');
  if (ranges.length === 0) return setMember(body, open, 'stream_options', USAGE_OPTIONS);
  const edits: TBodyEdit[] = [];
  for (const [start, end] of ranges) {
    if (body[start] === OPEN_BRACE) edits.push(...setMember(body, start, 'include_usage', INCLUDE_USAGE));
    else edits.push({ start, end, text: USAGE_OPTIONS });
  }
  return edits;
}

/** The body with the edits made (they must not overlap; insertions at one place keep their order). */
export function applyEdits(body: Buffer, edits: TBodyEdit[]): Buffer {
  if (edits.length === 0) return body;
  if (edits.length === 1) {
    const { start, end, text } = edits[0]!;
    return Buffer.concat([body.subarray(0, start), Buffer.from(text), body.subarray(end)]);
  }
  const sorted = edits.map((edit, index) => ({ edit, index }));
  sorted.sort((a, b) => a.edit.start - b.edit.start || a.index - b.index);
  const parts: Buffer[] = [];
  let at = 0;
  for (const { edit } of sorted) {
    parts.push(body.subarray(at, edit.start), Buffer.from(edit.text));
    at = edit.end;
  }
  parts.push(body.subarray(at));
  return Buffer.concat(parts);
}

/**
 * `key` taken out of the object opening at `open` (each member of that name with one comma next
 * to it), every other byte kept: the gateway's own field (`provider`, contract 5b) never reaches
 * the upstream. A name repeated as the last members comes back re-serialised from `parsed`
 * instead (the one case where the commas would not pair up).
 */
export function withoutMember(
  body: Buffer,
  open: number,
  key: string,
  parsed: Record<string, unknown>,
): Buffer {
  const edits: TBodyEdit[] = [];
  let lastComma = -1;
  let i = open + 1;
  while (i < body.length) {
    i = skipSpace(body, i);
    const byte = body[i];
    if (byte === CLOSE_BRACE) break;
    if (byte === COMMA) {
      lastComma = i++;
      continue;
    }
    const keyStart = i;
    i = skipString(body, i);
    const matches = namesKey(body, keyStart, i, key);
    i = skipSpace(body, i) + 1; // the colon
    i = skipValue(body, skipSpace(body, i));
    if (!matches) continue;
    const next = skipSpace(body, i);
    if (body[next] === COMMA) {
      edits.push({ start: keyStart, end: next + 1, text: '' });
      i = next + 1;
    } else {
      const start = lastComma >= 0 ? lastComma : keyStart;
      // Its comma went with the member before (the name repeated at the end): written anew.
      if (edits.length > 0 && start < edits[edits.length - 1]!.end) return serialisedWithout(parsed, key);
      edits.push({ start, end: i, text: '' });
    }
  }
  return edits.length === 0 ? body : applyEdits(body, edits);
}

function serialisedWithout(parsed: Record<string, unknown>, key: string): Buffer {
  const rest = { ...parsed };
  delete rest[key];
  return Buffer.from(JSON.stringify(rest));
}
