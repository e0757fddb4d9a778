import type { TLocale } from '@air/shared/schemas/common';
import type { TMailContent } from './layout';

/** What a template gets besides its params: the public base URL for links and the product name. */
export interface TMailContext {
  appUrl: string;
  productName: string;
}

export type TMailParams = Record<string, string>;

/**
 * A mail template: one renderer per locale. A file `src/mail/templates/<name>.ts` (underscores of
 * the template name become hyphens: `new_signin` → `new-signin.ts`) default-exports one of these.
 */
export type TMailTemplate = Record<TLocale, (params: TMailParams, context: TMailContext) => TMailContent>;

export function defineMailTemplate(template: TMailTemplate): TMailTemplate {
  return template;
}

/** A required param, so a caller's omission fails loudly instead of mailing "undefined". */
export function param(params: TMailParams, name: string): string {
  const value = params[name];
  if (typeof value !== 'string') throw new Error(`mail template param "${name}" is missing`);
  return value;
}
