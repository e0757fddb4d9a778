import { Outlet } from 'react-router';

/** No chrome: error pages. */
export default function PlainLayout() {
  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-background p-6">
      <Outlet />
    </main>
  );
}
