import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import i18n from '@/lib/i18n';
import { ApiError } from '@/lib/api';
import { handleError } from '@/lib/error-handler';
import { toast } from '@/components/ui/use-toast';

/**
 * Errors of the sign-in family. The shared handler sends a 401 to /signin, which on these pages
 * would swallow "wrong password" or "expired code" in silence: here a 401 is an error notification
 * carrying the server's message. Everything else (429 with its text, 5xx, no response) is the
 * shared handler's.
 */
export function handleAuthError(error: unknown, navigate: (to: string) => void): void {
  if (error instanceof ApiError && error.status === 401) {
    const body = error.body;
    const message =
      body && typeof body === 'object' && typeof body.message === 'string' && body.message
        ? body.message
        : i18n.t('common:error.description');
    toast({ variant: 'error', title: i18n.t('auth:signin.failedTitle'), description: message });
    return;
  }
  handleError(error, navigate);
}

export function useAuthErrorHandler(): (error: unknown) => void {
  const navigate = useNavigate();
  return useCallback((error: unknown) => handleAuthError(error, (to) => void navigate(to)), [navigate]);
}
