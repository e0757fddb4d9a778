import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type * as TooltipModule from '@/components/ui/tooltip';
import { cn } from '@/lib/utils';
import { signOut } from '@/lib/session';
import { useDocsUrl } from '@/lib/utility-config';
import { NAV_BOTTOM, NAV_TOP, type TNavItem } from '@/components/layout/nav-items';

/** The tooltip primitives (components/ui/tooltip.tsx), loaded on first use. */
export type TTooltips = typeof TooltipModule;

const itemClass = (active: boolean) =>
  cn(
    'flex items-center gap-3 rounded-md text-sm font-medium transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
    active ? 'bg-accent text-accent-foreground' : 'text-muted-foreground',
  );

/** One navigation entry: a route link, an external link, or the sign-out action. */
function NavEntry({
  item,
  compact,
  tooltips,
  onNavigate,
}: {
  item: TNavItem;
  compact: boolean;
  tooltips?: TTooltips;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const docsUrl = useDocsUrl();
  const label = t(`nav.${item.key}`);
  const Icon = item.icon;
  const size = compact ? 'size-10 justify-center' : 'h-10 px-3';
  const content = (
    <>
      <Icon className="size-5 shrink-0" aria-hidden="true" />
      <span className={compact ? 'sr-only' : undefined}>{label}</span>
    </>
  );
  const active = item.to !== undefined && (pathname === item.to || pathname.startsWith(`${item.to}/`));
  let entry;
  if (item.to) {
    entry = (
      // A string className (not NavLink's function form): the tooltip trigger's Slot merges classes as strings.
      <Link
        to={item.to}
        onClick={onNavigate}
        aria-current={active ? 'page' : undefined}
        className={cn(itemClass(active), size)}
      >
        {content}
      </Link>
    );
  } else if (item.href) {
    entry = (
      <a
        href={item.key === 'docs' ? docsUrl : item.href}
        target="_blank"
        rel="noreferrer"
        className={cn(itemClass(false), size)}
      >
        {content}
      </a>
    );
  } else {
    entry = (
      <button
        type="button"
        onClick={() => {
          onNavigate?.();
          void signOut((to) => void navigate(to));
        }}
        className={cn(itemClass(false), size, 'w-full')}
      >
        {content}
      </button>
    );
  }
  if (!compact || !tooltips) return entry;
  const { Tooltip, TooltipContent, TooltipTrigger } = tooltips;
  return (
    <Tooltip>
      <TooltipTrigger asChild>{entry}</TooltipTrigger>
      <TooltipContent side="right">{label}</TooltipContent>
    </Tooltip>
  );
}

/**
 * The navigation entries, top group then bottom group: icons with tooltips on the rail (once
 * `tooltips`, the tooltip code, is there: app-nav.tsx loads it on first use), labelled in the
 * small screens' drawer.
 */
export function NavGroups({
  compact,
  tooltips,
  onNavigate,
}: {
  compact: boolean;
  tooltips?: TTooltips;
  onNavigate?: () => void;
}) {
  return (
    <>
      <ul className="flex flex-col gap-1">
        {NAV_TOP.map((item) => (
          <li key={item.key}>
            <NavEntry item={item} compact={compact} tooltips={tooltips} onNavigate={onNavigate} />
          </li>
        ))}
      </ul>
      <ul className="mt-auto flex flex-col gap-1">
        {NAV_BOTTOM.map((item) => (
          <li key={item.key}>
            <NavEntry item={item} compact={compact} tooltips={tooltips} onNavigate={onNavigate} />
          </li>
        ))}
      </ul>
    </>
  );
}
