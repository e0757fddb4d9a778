import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CreditCard } from 'lucide-react';
import { cvcLength } from '@air/shared/cards';
import type { TCardFieldProps } from '@/components/form/payment-step';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import {
  completeCard,
  cvcProblem,
  digitsOf,
  expiryProblem,
  formatCardNumber,
  formatExpiry,
  numberProblem,
  type TCardProblem,
} from '../lib/card-input';

type TPart = 'number' | 'expiry' | 'cvc';

/**
 * The local card processor's card widget: card number, expiration date and CVC. It reports the
 * complete card to the form, or null while it is empty or incomplete; a part that is wrong says
 * so once the user leaves it.
 */
export function LocalCardField({
  id,
  name,
  disabled,
  invalid,
  describedBy,
  onChange,
  onBlur,
}: TCardFieldProps) {
  const { t } = useTranslation('billing');
  const [parts, setParts] = useState<Record<TPart, string>>({ number: '', expiry: '', cvc: '' });
  const [left, setLeft] = useState<Record<TPart, boolean>>({ number: false, expiry: false, cvc: false });

  function update(part: TPart, value: string) {
    const next = { ...parts, [part]: value };
    setParts(next);
    onChange(completeCard(next.number, next.expiry, next.cvc));
  }

  function leave(part: TPart) {
    setLeft((prev) => ({ ...prev, [part]: true }));
    onBlur();
  }

  const problems: Record<TPart, TCardProblem | null> = {
    number: left.number && parts.number ? numberProblem(parts.number) : null,
    expiry: left.expiry && parts.expiry ? expiryProblem(parts.expiry) : null,
    cvc: left.cvc && parts.cvc ? cvcProblem(parts.cvc, parts.number) : null,
  };
  const problem = problems.number ?? problems.expiry ?? problems.cvc;
  const problemId = `${id}-problem`;
  const described = (part: TPart) =>
    [describedBy, problems[part] ? problemId : null].filter(Boolean).join(' ') || undefined;
  const partInvalid = (part: TPart) => Boolean(invalid || problems[part]) || undefined;

  return (
    <div id={id} role="group" aria-labelledby={`${id}-label`} data-card-field={name} className="space-y-2">
      <div className="space-y-1">
        <Label htmlFor={`${id}-number`} className="text-xs text-muted-foreground">
          {t('card.number')}
        </Label>
        <div className="relative">
          <CreditCard
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            id={`${id}-number`}
            className="pl-9 font-mono"
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="1234 1234 1234 1234"
            value={parts.number}
            disabled={disabled}
            aria-invalid={partInvalid('number')}
            aria-describedby={described('number')}
            onChange={(e) => update('number', formatCardNumber(e.target.value))}
            onBlur={() => leave('number')}
          />
        </div>
      </div>
      <div className="grid grid-cols-2 gap-2">
        <div className="space-y-1">
          <Label htmlFor={`${id}-expiry`} className="text-xs text-muted-foreground">
            {t('card.expiry')}
          </Label>
          <Input
            id={`${id}-expiry`}
            className="font-mono"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder={t('card.expiryPlaceholder')}
            value={parts.expiry}
            disabled={disabled}
            aria-invalid={partInvalid('expiry')}
            aria-describedby={described('expiry')}
            onChange={(e) => {
              const typed = e.target.value;
              // Deleting back over the " / " separator removes the digit before it.
              const erasing = typed.length < parts.expiry.length && parts.expiry.endsWith(' / ');
              update('expiry', formatExpiry(erasing ? digitsOf(typed).slice(0, 1) : typed));
            }}
            onBlur={() => leave('expiry')}
          />
        </div>
        <div className="space-y-1">
          <Label htmlFor={`${id}-cvc`} className="text-xs text-muted-foreground">
            {t('card.cvc')}
          </Label>
          <Input
            id={`${id}-cvc`}
            className="font-mono"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder={cvcLength(digitsOf(parts.number)) === 4 ? '1234' : '123'}
            value={parts.cvc}
            disabled={disabled}
            aria-invalid={partInvalid('cvc')}
            aria-describedby={described('cvc')}
            onChange={(e) => update('cvc', digitsOf(e.target.value).slice(0, 4))}
            onBlur={() => leave('cvc')}
          />
        </div>
      </div>
      {problem && (
        <p id={problemId} role="alert" className="text-sm font-medium text-destructive">
          {t(`card.problem.${problem}`)}
        </p>
      )}
    </div>
  );
}
