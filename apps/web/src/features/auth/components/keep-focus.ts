import type { MouseEvent } from 'react';

/**
 * For the secondary actions under a form (mode switches, "forgot password", "back"): pressing
 * them must not blur the field first. The blur would validate it, insert an error message above
 * the action and move it, and the release would then miss it, so the click would be lost.
 */
export function keepFocus(event: MouseEvent) {
  event.preventDefault();
}
