import { Outlet } from 'react-router';
import { Logo } from '@/components/layout/logo';
import { UserMenu } from '@/components/layout/user-menu';

/** Onboarding: a focused single card, with the user menu to sign out or change preferences. */
export default function OnboardingLayout() {
  return (
    <div className="flex min-h-screen flex-col bg-muted/40">
      <header className="flex h-14 items-center justify-between border-b bg-background px-4 md:px-8">
        <Logo />
        <UserMenu />
      </header>
      <main id="main" className="mx-auto flex w-full max-w-2xl flex-1 flex-col p-4 md:p-10">
        <div className="rounded-lg border bg-card p-6 shadow-sm md:p-10">
          <Outlet />
        </div>
      </main>
    </div>
  );
}
