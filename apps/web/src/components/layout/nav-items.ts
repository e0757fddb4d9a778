import {
  BookOpen,
  CircleHelp,
  LayoutDashboard,
  LogOut,
  Server,
  Store,
  UserRound,
  type LucideIcon,
} from 'lucide-react';

export interface TNavItem {
  /** common:nav.<key> */
  key: string;
  icon: LucideIcon;
  /** An in-app route, an external link, or an action (sign out). */
  to?: string;
  href?: string;
  action?: 'signout';
}

/** Spec section 2: the app layout's navigation, top group then bottom group. */
export const NAV_TOP: readonly TNavItem[] = [
  { key: 'dashboard', icon: LayoutDashboard, to: '/dashboard' },
  { key: 'registry', icon: Server, to: '/registry' },
  { key: 'marketplace', icon: Store, to: '/mkt' },
  { key: 'account', icon: UserRound, to: '/account' },
];

export const NAV_BOTTOM: readonly TNavItem[] = [
  { key: 'docs', icon: BookOpen, href: '/api/docs' },
  { key: 'help', icon: CircleHelp, to: '/help' },
  { key: 'signout', icon: LogOut, action: 'signout' },
];
