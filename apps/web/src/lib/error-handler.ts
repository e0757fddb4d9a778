import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '@/lib/api';
import i18n from '@/lib/i18n';
import { toast } from '@/components/ui/use-toast';
import { setEndedNotice } from '@/lib/session';

export type TNavigate = (to: string) => void;

function bodyMessage(error: unknown): string | undefined {
  if (error instanceof ApiError) {
    const body = error.body;
    if (body && typeof body === 'object' && typeof body.message === 'string' && body.message)
      return body.message;
    return undefined;
  }
  if (error instanceof Error && error.message) return error.message;
  return undefined;
}

/**
 * The shared error handler of spec section 8. A response body message wins over the generic text;
 * 401 signs in again, 404 (or a refused path parameter) shows the not-found page, 402 asks for an upgrade to the plan the
 * server names, 429 shows the server's text, anything else is an error notification.
 */
export function handleError(error: unknown, navigate: TNavigate): void {
  const title = i18n.t('common:error.title');
  const message = bodyMessage(error);
  // A 500 says "Something went wrong" too: the same words twice under one another help nobody.
  const description =
    message && message.trim() !== title.trim() ? message : i18n.t('common:error.description');

  if (!(error instanceof ApiError) || error.status === 0) {
    // No response at all: nothing the server said to show, so keep the cause for the developer.
    console.error(error);
    toast({ variant: 'error', title, description });
    return;
  }
  // A malformed id in the URL (the server's 400 naming a path parameter): nothing is there.
  const status = error.pathParam ? 404 : error.status;
  switch (status) {
    case 401: {
      // A session ended by a removal from the member's only account: the sign-in page says why.
      const ended = error.body && typeof error.body === 'object' ? error.body.ended : undefined;
      if (ended) setEndedNotice(ended);
      navigate('/signin');
      return;
    }
    case 404:
      navigate('/notfound');
      return;
    case 402: {
      const plan = error.body && typeof error.body === 'object' ? error.body.plan : undefined;
      navigate(`/account/upgrade?plan=${encodeURIComponent(typeof plan === 'string' ? plan : '')}`);
      return;
    }
    case 429: {
      const body = error.body;
      const text =
        typeof body === 'string' ? body : (bodyMessage(error) ?? i18n.t('common:error.description'));
      toast({ variant: 'error', title, description: text });
      return;
    }
    default:
      toast({ variant: 'error', title, description });
  }
}

/** The handler bound to the router's navigation, for use in components. */
export function useErrorHandler(): (error: unknown) => void {
  const navigate = useNavigate();
  return useCallback((error: unknown) => handleError(error, (to) => void navigate(to)), [navigate]);
}
