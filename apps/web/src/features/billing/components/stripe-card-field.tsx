import { useEffect, useRef } from 'react';
import type { Stripe } from '@stripe/stripe-js';
import type { TCardFieldProps } from '@/components/form/payment-step';
import { cn } from '@/lib/utils';

/** Stripe Elements' card element inside the generic form: reports the element once it is complete. */
export function createStripeCardField(stripe: Stripe) {
  return function StripeCardField({
    id,
    name,
    disabled,
    invalid,
    describedBy,
    onChange,
    onBlur,
  }: TCardFieldProps) {
    const host = useRef<HTMLDivElement>(null);
    const changed = useRef(onChange);
    const blurred = useRef(onBlur);
    changed.current = onChange;
    blurred.current = onBlur;

    useEffect(() => {
      if (!host.current) return;
      const dark = document.documentElement.classList.contains('dark');
      const element = stripe.elements().create('card', {
        hidePostalCode: true,
        style: { base: { color: dark ? '#fafafa' : '#0a0a0a', fontSize: '14px' } },
      });
      element.mount(host.current);
      element.on('change', (event) => changed.current(event.complete ? element : null));
      element.on('blur', () => blurred.current());
      return () => element.destroy();
    }, []);

    return (
      <div
        id={id}
        ref={host}
        data-card-field={name}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        aria-disabled={disabled}
        className={cn(
          'rounded-md border border-input bg-background px-3 py-3',
          invalid && 'border-destructive',
          disabled && 'opacity-50',
        )}
      />
    );
  };
}
