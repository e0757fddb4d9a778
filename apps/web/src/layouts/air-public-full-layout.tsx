import { Outlet } from 'react-router';
import { AirHeader } from '@/layouts/air-header';

/** The public layout at full width (no content column). */
export default function AirPublicFullLayout() {
  return (
    <div className="min-h-screen bg-background">
      <AirHeader full />
      <main id="main" className="w-full p-4 md:p-8">
        <Outlet />
      </main>
    </div>
  );
}
