import { htmlToText } from '@/features/registry/html-text';

/** Spec section 9: the grid holds at most 8 cards and descriptions are cut at 21 characters. */
export const MARKETPLACE_MAX_CARDS = 8;
export const DESCRIPTION_CUT = 21;

/** The card's description: HTML stripped, then cut to 21 characters followed by "...". */
export function cardDescription(html: string | undefined | null): string {
  const text = htmlToText(html);
  return text.length > DESCRIPTION_CUT ? `${text.slice(0, DESCRIPTION_CUT)}...` : text;
}
