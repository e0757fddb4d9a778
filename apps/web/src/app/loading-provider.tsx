import * as React from 'react';
import { Loader2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';

interface TLoadingContext {
  loading: boolean;
  set: (loading: boolean) => void;
}

const LoadingContext = React.createContext<TLoadingContext | null>(null);

/** A full-screen overlay over everything while `loading` is set (spec section 4). */
export function LoadingProvider({ children }: { children: React.ReactNode }) {
  const [loading, set] = React.useState(false);
  const value = React.useMemo(() => ({ loading, set }), [loading]);
  const { t } = useTranslation();
  return (
    <LoadingContext.Provider value={value}>
      {children}
      {loading && (
        <div
          role="status"
          aria-live="polite"
          className="fixed inset-0 z-[90] flex items-center justify-center bg-background/70 backdrop-blur-sm"
        >
          <Loader2 className="size-10 animate-spin text-primary" aria-hidden="true" />
          <span className="sr-only">{t('loading')}</span>
        </div>
      )}
    </LoadingContext.Provider>
  );
}

export function useLoading(): TLoadingContext {
  const ctx = React.useContext(LoadingContext);
  if (!ctx) throw new Error('useLoading must be used inside <LoadingProvider>');
  return ctx;
}
