import { type FocusEvent, useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Logo } from '@/components/layout/logo';
import { NavGroups, type TTooltips } from '@/components/layout/nav-groups';
import { NavSheetButton } from '@/components/layout/overlay-triggers';
import { onDemand, useOnDemand } from '@/lib/on-demand';

// The rail's tooltips and the small screens' drawer load on first use (lib/on-demand.ts).
const tooltips = onDemand(() => import('@/components/ui/tooltip'));
const sheet = onDemand(() => import('@/components/layout/nav-sheet-dialog'));

/**
 * The rail's tooltip code, asked for when the pointer enters the rail or focus does (its first
 * stop, the logo, has no tooltip). The entries are drawn again inside the tooltips once it is
 * there, which replaces their elements; so that this never happens under a press or to the entry
 * that has focus, it waits until no press is under way and focus is outside the rail. A keyboard
 * user passing through the rail as the code arrives gets the tooltips from the next pass on (each
 * entry's name is its label meanwhile); focus is never moved.
 */
function useRailTooltips() {
  const [tips, setTips] = useState<TTooltips | undefined>(tooltips.loaded);
  const rail = useRef<HTMLElement>(null);
  const asked = useRef(false);
  const pressed = useRef(false);
  const waiting = useRef<TTooltips | undefined>(undefined);

  const swapWhenIdle = useCallback(() => {
    const module = waiting.current;
    if (!module || pressed.current || rail.current?.contains(document.activeElement)) return;
    waiting.current = undefined;
    setTips(() => module);
  }, []);

  const load = useCallback(() => {
    if (asked.current) return;
    asked.current = true;
    tooltips.load().then(
      (module) => {
        waiting.current = module;
        swapWhenIdle();
      },
      () => (asked.current = false), // the next pointer or focus asks again
    );
  }, [swapWhenIdle]);

  // Focus left the rail (it did not just move within it): the entries may be drawn again now.
  const onBlur = useCallback(
    (event: FocusEvent<HTMLElement>) => {
      if (!rail.current?.contains(event.relatedTarget as Node | null)) setTimeout(swapWhenIdle);
    },
    [swapWhenIdle],
  );

  const onPointerDown = useCallback(() => {
    pressed.current = true;
    const release = new AbortController();
    const released = () => {
      release.abort();
      pressed.current = false;
      // After the click the press makes, in the same task as the release.
      setTimeout(swapWhenIdle);
    };
    window.addEventListener('pointerup', released, { signal: release.signal });
    window.addEventListener('pointercancel', released, { signal: release.signal });
  }, [swapWhenIdle]);

  const handlers = tips ? {} : { onPointerEnter: load, onFocus: load, onBlur, onPointerDown };
  return { tips, rail, handlers };
}

/** Wide screens: a narrow icon rail with tooltips. */
export function NavRail() {
  const { t } = useTranslation();
  const { tips, rail, handlers } = useRailTooltips();
  return (
    <nav
      ref={rail}
      aria-label={t('nav.label')}
      className="fixed inset-y-0 left-0 z-30 hidden w-16 flex-col items-center gap-6 border-r bg-background py-4 md:flex"
      {...handlers}
    >
      <Logo compact />
      <div className="flex flex-1 flex-col items-center">
        {tips ? (
          <tips.TooltipProvider>
            <NavGroups compact tooltips={tips} />
          </tips.TooltipProvider>
        ) : (
          <NavGroups compact />
        )}
      </div>
    </nav>
  );
}

/**
 * Small screens: the same entries in a slide-out drawer (nav-sheet-dialog.tsx). Until its code is
 * there the same button stands in, with a closed dialog trigger's ARIA state; pointer or focus on
 * it fetches the code, and a click (Enter, Space) opens the drawer as soon as it is there.
 */
export function NavSheet() {
  const { module, request, standIn } = useOnDemand(sheet);
  const [open, setOpen] = useState(false);
  if (module) return <module.NavSheetDialog open={open} onOpenChange={setOpen} />;
  return (
    <NavSheetButton
      {...standIn('dialog')}
      onClick={() => {
        setOpen(true);
        request();
      }}
    />
  );
}
