import { Outlet } from 'react-router';
import { AirHeader } from '@/layouts/air-header';

/** The marketplace layout: top bar and a centred content column. */
export default function AirLayout() {
  return (
    <div className="min-h-screen bg-background">
      <AirHeader />
      <main id="main" className="mx-auto w-full max-w-6xl p-4 md:p-8">
        <Outlet />
      </main>
    </div>
  );
}
