import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AirHeader } from '@/layouts/air-header';

/** The public marketplace layout: top bar, centred column, footer. */
export default function AirPublicLayout() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-screen flex-col bg-background">
      <AirHeader />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 p-4 md:p-8">
        <Outlet />
      </main>
      <footer className="border-t py-6 text-center text-sm text-muted-foreground">{t('brand.footer')}</footer>
    </div>
  );
}
