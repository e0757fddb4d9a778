import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Menu } from 'lucide-react';
import { useState } from 'react';
import { cn } from '@/lib/utils';
import { signOut } from '@/lib/session';
import { useDocsUrl } from '@/lib/utility-config';
import { Button } from '@/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from '@/components/ui/sheet';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { Logo } from '@/components/layout/logo';
import { NAV_BOTTOM, NAV_TOP, type TNavItem } from '@/components/layout/nav-items';

const itemClass = (active: boolean) =>
  cn(
    'flex items-center gap-3 rounded-md text-sm font-medium transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
    active ? 'bg-accent text-accent-foreground' : 'text-muted-foreground',
  );

/** One navigation entry: a route link, an external link, or the sign-out action. */
function NavEntry({
  item,
  compact,
  onNavigate,
}: {
  item: TNavItem;
  compact: boolean;
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
  if (!compact) return entry;
  return (
    <Tooltip>
      <TooltipTrigger asChild>{entry}</TooltipTrigger>
      <TooltipContent side="right">{label}</TooltipContent>
    </Tooltip>
  );
}

function NavGroups({ compact, onNavigate }: { compact: boolean; onNavigate?: () => void }) {
  return (
    <>
      <ul className="flex flex-col gap-1">
        {NAV_TOP.map((item) => (
          <li key={item.key}>
            <NavEntry item={item} compact={compact} onNavigate={onNavigate} />
          </li>
        ))}
      </ul>
      <ul className="mt-auto flex flex-col gap-1">
        {NAV_BOTTOM.map((item) => (
          <li key={item.key}>
            <NavEntry item={item} compact={compact} onNavigate={onNavigate} />
          </li>
        ))}
      </ul>
    </>
  );
}

/** Wide screens: a narrow icon rail with tooltips. */
export function NavRail() {
  const { t } = useTranslation();
  return (
    <nav
      aria-label={t('nav.label')}
      className="fixed inset-y-0 left-0 z-30 hidden w-16 flex-col items-center gap-6 border-r bg-background py-4 md:flex"
    >
      <Logo compact />
      <div className="flex flex-1 flex-col items-center">
        <NavGroups compact />
      </div>
    </nav>
  );
}

/** Small screens: the same entries in a slide-out menu. */
export function NavSheet() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="icon" className="md:hidden" aria-label={t('nav.open')}>
          <Menu className="size-5" aria-hidden="true" />
        </Button>
      </SheetTrigger>
      <SheetContent>
        <SheetTitle className="sr-only">{t('nav.label')}</SheetTitle>
        <SheetDescription className="sr-only">{t('nav.description')}</SheetDescription>
        <Logo />
        <nav aria-label={t('nav.label')} className="flex flex-1 flex-col">
          <NavGroups compact={false} onNavigate={() => setOpen(false)} />
        </nav>
      </SheetContent>
    </Sheet>
  );
}
