/**
 * Provider formats (contract 6c): an upstream entry's `format` says which API it speaks. A chat
 * call to an `anthropic` or `gemini` upstream is translated for that attempt (its body, path and
 * answer); an `openai` upstream gets the caller's bytes as they are.
 */

import type { IncomingHttpHeaders } from 'node:http';
import type { TUpstreamFormat } from '@air/shared/schemas/aiendpoint';
import { jsonDepthExceeds } from '../../lib/json-guard';
import { CHAT, upstreamPath, type TProtocol } from '../protocols';
import { chained, chatFromAnthropic, chatToAnthropicTranslator } from './anthropic-in';
import { ANTHROPIC_VERSION, anthropicRequest, anthropicTranslator } from './anthropic';
import { Untranslatable, objectOf } from './chat-shape';
import { geminiPath, geminiRequest, geminiTranslator } from './gemini';
import type { TAnswerTranslator } from './types';

export type { TAnswerTranslator } from './types';

/** One attempt's request in the upstream's format. */
export interface TTranslated {
  path: string;
  body: Buffer;
  translator: TAnswerTranslator;
}

/** Each format's auth headers: on a route mixing formats, one format's are not sent to another's upstream. */
const AUTH_HEADERS: Record<TUpstreamFormat, readonly string[]> = {
  openai: ['authorization'],
  anthropic: ['x-api-key', 'anthropic-version', 'anthropic-beta'],
  gemini: ['x-goog-api-key'],
};

/**
 * The headers sent to an upstream of a format, from the endpoint's (built when the route is
 * loaded, never per call): Anthropic's version header when none is set, and, when the route mixes
 * formats, without the other formats' auth headers.
 */
export function headersForFormat(
  headers: Record<string, string>,
  format: TUpstreamFormat,
  formats: ReadonlySet<TUpstreamFormat>,
): Record<string, string> {
  if (format === 'openai' && formats.size === 1) return headers;
  const out: Record<string, string> = {};
  const foreign = new Set<string>();
  if (formats.size > 1)
    for (const other of formats)
      if (other !== format) for (const name of AUTH_HEADERS[other]) foreign.add(name);
  for (const [name, value] of Object.entries(headers)) if (!foreign.has(name)) out[name] = value;
  if (format === 'anthropic' && out['anthropic-version'] === undefined)
    out['anthropic-version'] = ANTHROPIC_VERSION;
  return out;
}

/**
 * An Anthropic client's own `anthropic-version` and `anthropic-beta` (decision 061), sent to an
 * Anthropic upstream in place of the endpoint's: its body is written for that version. Null when
 * it sent neither (the endpoint's, or 2023-06-01, go as before). Neither is required nor checked:
 * an Anthropic upstream answers a version it does not know with its own 400.
 */
export function clientVersionHeaders(headers: IncomingHttpHeaders): Record<string, string> | null {
  const version = headers['anthropic-version'];
  const beta = headers['anthropic-beta'];
  if (version === undefined && beta === undefined) return null;
  const out: Record<string, string> = {};
  if (typeof version === 'string' && version !== '') out['anthropic-version'] = version;
  // A repeated header is one comma-separated list, as HTTP reads it.
  const betas = Array.isArray(beta) ? beta.join(',') : beta;
  if (betas !== undefined && betas !== '') out['anthropic-beta'] = betas;
  return out;
}

/** An attempt's headers: an Anthropic upstream gets an Anthropic client's version headers. */
export function attemptHeaders(
  headers: Record<string, string>,
  format: TUpstreamFormat,
  client: Record<string, string> | null,
): Record<string, string> {
  return client === null || format !== 'anthropic' ? headers : { ...headers, ...client };
}

/**
 * The call's body (OpenAI chat, as edited by the gateway) for an upstream of another format, or
 * the reason it cannot be translated (answered 400 `unsupported_parameter`).
 */
export function translateChat(
  format: Exclude<TUpstreamFormat, 'openai'>,
  body: Buffer,
  path: string,
): TTranslated | { refused: string } {
  const parsed = parseBody(body);
  if (!parsed) return { refused: 'The request body must be a JSON object.' };
  const stream = parsed.stream === true;
  try {
    if (format === 'anthropic')
      return {
        path,
        body: Buffer.from(JSON.stringify(anthropicRequest(parsed, stream))),
        translator: anthropicTranslator(),
      };
    const model = typeof parsed.model === 'string' ? parsed.model : '';
    return {
      path: geminiPath(path, parsed.model, stream),
      body: Buffer.from(JSON.stringify(geminiRequest(parsed))),
      translator: geminiTranslator(model),
    };
  } catch (error) {
    if (error instanceof Untranslatable) return { refused: error.message };
    throw error;
  }
}

/** The body as a JSON object, or null (not JSON, not an object, or too deep to re-serialise). */
function parseBody(body: Buffer): Record<string, unknown> | null {
  const text = body.toString('utf8');
  if (jsonDepthExceeds(text)) return null;
  try {
    return objectOf(JSON.parse(text));
  } catch {
    return null;
  }
}

/** One attempt's path, body and answer translator (null: the caller's bytes as they are). */
export interface TAttempt {
  path: string;
  body: Buffer;
  translator: TAnswerTranslator | null;
}

/** What an attempt on an upstream sends: its protocol's path, or the call translated to its format. */
export function attemptFor(
  target: { path: string; format: TUpstreamFormat },
  body: Buffer,
  protocol: TProtocol,
): TAttempt | { refused: string } {
  if (protocol.client === 'anthropic') return fromAnthropic(target, body);
  // A sibling of a registered `/chat/completions` URL (protocols.ts).
  if (target.format === 'openai')
    return { path: upstreamPath(target.path, protocol) ?? target.path, body, translator: null };
  return translateChat(target.format, body, target.path);
}

/**
 * An Anthropic client's call: as it is to an Anthropic upstream; as a chat request to an OpenAI
 * one (its answer back to a message); through chat to a Gemini one (both translations chained).
 */
function fromAnthropic(
  target: { path: string; format: TUpstreamFormat },
  body: Buffer,
): TAttempt | { refused: string } {
  if (target.format === 'anthropic') return { path: target.path, body, translator: null };
  const parsed = parseBody(body);
  if (!parsed) return { refused: 'The request body must be a JSON object.' };
  let chat: Buffer;
  try {
    chat = Buffer.from(JSON.stringify(chatFromAnthropic(parsed, parsed.stream === true)));
  } catch (error) {
    if (error instanceof Untranslatable) return { refused: error.message };
    throw error;
  }
  const back = chatToAnthropicTranslator();
  if (target.format === 'openai')
    return { path: upstreamPath(target.path, CHAT) ?? target.path, body: chat, translator: back };
  const gemini = translateChat('gemini', chat, target.path);
  if ('refused' in gemini) return gemini;
  return { path: gemini.path, body: gemini.body, translator: chained(gemini.translator, back) };
}
