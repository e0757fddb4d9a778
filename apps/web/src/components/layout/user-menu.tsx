import { useState } from 'react';
import { onDemand, useOnDemand } from '@/lib/on-demand';
import { UserMenuButton } from './overlay-triggers';
import type { TMenuOpening } from './user-menu-dropdown';

// The menu (Radix DropdownMenu, its Popper and layers) loads on first use; see lib/on-demand.ts.
const dropdown = onDemand(() => import('./user-menu-dropdown'));

/** The keys that open a Radix menu from its trigger. */
const OPENING_KEYS = ['Enter', ' ', 'ArrowDown'];

/**
 * The user menu (user-menu-dropdown.tsx). Until its code is there, the same button stands in,
 * with the closed menu trigger's ARIA state; the pointer over it or focus on it fetches the code,
 * and a press or an opening key loads it if need be, swaps in the real menu and opens it as that
 * press or key would have (focus in the menu, Escape back to the button).
 */
export function UserMenu() {
  const { module, request, standIn } = useOnDemand(dropdown);
  const [opening, setOpening] = useState<TMenuOpening>();
  if (module) return <module.UserMenuDropdown opening={opening} />;
  const open = (how: TMenuOpening) => {
    setOpening(how);
    request();
  };
  return (
    <UserMenuButton
      {...standIn('menu')}
      // Like Radix's trigger: a primary press opens, and focus stays where it was.
      onPointerDown={(event) => {
        if (event.button !== 0 || event.ctrlKey) return;
        event.preventDefault();
        open({ pointerType: event.pointerType });
      }}
      onKeyDown={(event) => {
        if (!OPENING_KEYS.includes(event.key)) return;
        event.preventDefault();
        open({ key: event.key });
      }}
    />
  );
}
