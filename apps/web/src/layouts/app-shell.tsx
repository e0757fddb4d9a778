import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { NavRail, NavSheet } from '@/components/layout/app-nav';
import { UserMenu } from '@/components/layout/user-menu';
import { FeedbackWidget } from '@/components/layout/feedback-widget';
import { Logo } from '@/components/layout/logo';
import { QuotaBanner } from '@/features/usage/components/quota-banner';
import { LoadingStatus } from '@/components/ui/loading-status';

/** What a page shows in the frame while its code or its translations load. */
export function PageLoading({ label }: { label: string }) {
  return <LoadingStatus className="flex py-8 text-sm" label={label} />;
}

/**
 * The app layout's frame: icon rail (wide) or slide-out menu (small), header with the user menu.
 * Its overlays (the rail's tooltips, the drawer, the user menu, the feedback panel) load their
 * code on first use, so no page's first load carries it (scripts/bundle-size.mjs checks).
 */
export function AppShell({ children }: { children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="min-h-screen bg-background">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-background focus:p-2"
      >
        {t('nav.skip')}
      </a>
      <NavRail />
      <div className="md:pl-16">
        <header className="sticky top-0 z-20 flex h-14 items-center justify-between gap-2 border-b bg-background/95 px-4 backdrop-blur md:justify-end md:px-6">
          <Logo className="md:hidden" compact />
          <div className="flex items-center gap-1">
            <UserMenu />
            <NavSheet />
          </div>
        </header>
        {/* Bottom padding keeps the last rows and editors scrollable clear of the feedback button. */}
        <main id="main" className="mx-auto w-full max-w-6xl p-4 pb-24 md:p-8 md:pb-24">
          {/* The banner reads the usage catalogue: while it loads, the frame shows without it. */}
          <React.Suspense fallback={null}>
            <QuotaBanner />
          </React.Suspense>
          {/* A page waiting for its code or its translations shows in the frame with a loading
                state, not as a blank screen (the root's boundary would hide the frame too). */}
          <React.Suspense fallback={<PageLoading label={t('loading')} />}>{children}</React.Suspense>
        </main>
      </div>
      <FeedbackWidget />
    </div>
  );
}
