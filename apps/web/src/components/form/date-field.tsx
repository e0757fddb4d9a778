import { Suspense, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CalendarIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { cn } from '@/lib/utils';
import { formatLongDay } from '@/lib/format-date';

// The calendar (react-day-picker) loads when a date field is first opened: every form page
// carries the field code, few open a date.
const Calendar = lazy(() => import('@/components/ui/calendar').then((m) => ({ default: m.Calendar })));

/** A local calendar date as YYYY-MM-DD (what the date field emits; never shifted by time zone). */
export function toIsoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function fromIsoDate(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
}

interface TDateFieldProps {
  id: string;
  value: unknown;
  placeholder?: string;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
  onChange: (value: string) => void;
  onClose: () => void;
}

/** Date picker: a 280px button showing the long date, opening a Sunday-first 6-week calendar. */
export function DateField({
  id,
  value,
  placeholder,
  disabled,
  invalid,
  describedBy,
  onChange,
  onClose,
}: TDateFieldProps) {
  const { t, i18n } = useTranslation('form');
  const [open, setOpen] = useState(false);
  const selected = fromIsoDate(value);
  const shown = selected ? formatLongDay(selected, i18n.language) : null;

  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) onClose();
      }}
    >
      <PopoverTrigger asChild>
        <Button
          id={id}
          type="button"
          variant="outline"
          disabled={disabled}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          // A block, like the other fields' controls: inline, it sat beside its label.
          className={cn(
            'flex w-[280px] max-w-full justify-start text-left font-normal',
            !shown && 'text-muted-foreground',
          )}
        >
          <CalendarIcon aria-hidden="true" />
          {shown ?? placeholder ?? t('form.date.placeholder')}
        </Button>
      </PopoverTrigger>
      <PopoverContent className="w-auto p-0" align="start">
        <Suspense fallback={<div className="h-[304px] w-[280px]" />}>
          <Calendar
            mode="single"
            selected={selected}
            defaultMonth={selected}
            onSelect={(date) => {
              onChange(date ? toIsoDate(date) : '');
              setOpen(false);
              onClose();
            }}
            autoFocus
          />
        </Suspense>
      </PopoverContent>
    </Popover>
  );
}
