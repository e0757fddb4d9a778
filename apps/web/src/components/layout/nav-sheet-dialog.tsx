import { useTranslation } from 'react-i18next';
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from '@/components/ui/sheet';
import { Logo } from '@/components/layout/logo';
import { NavGroups } from '@/components/layout/nav-groups';
import { NavSheetButton } from '@/components/layout/overlay-triggers';

/**
 * Small screens: the navigation entries in a slide-out drawer (Radix Dialog). Loaded on first use
 * by the shell's NavSheet (app-nav.tsx), which keeps the open state: the click that loaded it opens it.
 */
export function NavSheetDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetTrigger asChild>
        <NavSheetButton />
      </SheetTrigger>
      <SheetContent>
        <SheetTitle className="sr-only">{t('nav.label')}</SheetTitle>
        <SheetDescription className="sr-only">{t('nav.description')}</SheetDescription>
        <Logo />
        <nav aria-label={t('nav.label')} className="flex flex-1 flex-col">
          <NavGroups compact={false} onNavigate={() => onOpenChange(false)} />
        </nav>
      </SheetContent>
    </Sheet>
  );
}
