import { useTranslation } from 'react-i18next';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { InputOTP, InputOTPGroup, InputOTPSeparator, InputOTPSlot } from '@/components/ui/input-otp';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import {
  Select,
  SelectContent,
  SelectGroup,
  SelectItem,
  SelectLabel,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { OTP_LENGTH } from '@air/shared/validation';
import { DateField } from './date-field';
import { FieldNotes } from './field-notes';
import { FileField } from './file-field';
import { RegisteredCardField, cardFieldComponent } from './payment-step';
import { isCheckboxSet, type TFieldOption, type TFieldType, type TFormField } from './types';

export interface TFieldProps {
  id: string;
  name: string;
  field: TFormField & { type: TFieldType };
  value: unknown;
  error?: string;
  /** Marks the label: the form's schema refuses this field's empty value. */
  required?: boolean;
  onChange: (value: unknown) => void;
  onBlur: () => void;
}

const INPUT_TYPES: Partial<
  Record<TFieldType, { type: string; inputMode?: 'decimal' | 'tel' | 'url' | 'email' }>
> = {
  text: { type: 'text' },
  email: { type: 'email', inputMode: 'email' },
  password: { type: 'password' },
  // Text, not type=number: the browser would blank invalid input and hide "Please enter a valid number".
  number: { type: 'text', inputMode: 'decimal' },
  phone: { type: 'tel', inputMode: 'tel' },
  url: { type: 'url', inputMode: 'url' },
};

/** Select items may not have an empty value (Radix refuses them; the spec forbids them). */
function selectable(options: readonly TFieldOption[] = []): TFieldOption[] {
  return options.filter((o) => o.value !== '');
}

function groupsOf(options: TFieldOption[]): [string | undefined, TFieldOption[]][] {
  const groups = new Map<string | undefined, TFieldOption[]>();
  for (const option of options) groups.set(option.group, [...(groups.get(option.group) ?? []), option]);
  return [...groups.entries()];
}

/** One field of the generic form: label, the control for its type, description and error. */
export function FormField(props: TFieldProps) {
  const { id, name, field, error } = props;
  const descriptionId = field.description ? `${id}-description` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [descriptionId, errorId].filter(Boolean).join(' ') || undefined;

  if (field.type === 'hidden') {
    return <input type="hidden" id={id} name={name} value={String(props.value ?? '')} />;
  }
  // Single checkboxes and switches carry their label beside the control.
  const inlineLabel = (field.type === 'checkbox' && !isCheckboxSet(field)) || field.type === 'switch';

  return (
    <div className="space-y-2" data-field={name}>
      {field.label && !inlineLabel && (
        <Label htmlFor={id} id={`${id}-label`}>
          {field.label}
          {props.required && <span aria-hidden="true"> *</span>}
        </Label>
      )}
      <Control {...props} describedBy={describedBy} />
      <FieldNotes
        description={field.description}
        descriptionId={descriptionId}
        error={error}
        errorId={errorId}
      />
    </div>
  );
}

function Control({
  id,
  name,
  field,
  value,
  error,
  onChange,
  onBlur,
  describedBy,
}: TFieldProps & { describedBy?: string }) {
  const { t } = useTranslation('form');
  const invalid = Boolean(error) || undefined;
  const common = {
    id,
    name,
    disabled: field.disabled,
    'aria-invalid': invalid,
    'aria-describedby': describedBy,
  };

  switch (field.type) {
    case 'textarea':
      return (
        <Textarea
          {...common}
          value={String(value ?? '')}
          placeholder={field.placeholder}
          readOnly={field.readonly}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
        />
      );

    case 'select': {
      const options = selectable(field.options);
      return (
        <Select
          name={name}
          value={value === '' || value == null ? undefined : String(value)}
          disabled={field.disabled || field.readonly}
          onValueChange={onChange}
          onOpenChange={(open) => !open && onBlur()}
        >
          <SelectTrigger
            id={id}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            aria-labelledby={field.label ? `${id}-label` : undefined}
          >
            <SelectValue placeholder={field.placeholder ?? t('form.select.placeholder')} />
          </SelectTrigger>
          <SelectContent>
            {groupsOf(options).map(([group, items]) =>
              group ? (
                <SelectGroup key={group}>
                  <SelectLabel>{group}</SelectLabel>
                  {items.map((o) => (
                    <SelectItem key={o.value} value={o.value}>
                      {o.label}
                    </SelectItem>
                  ))}
                </SelectGroup>
              ) : (
                items.map((o) => (
                  <SelectItem key={o.value} value={o.value}>
                    {o.label}
                  </SelectItem>
                ))
              ),
            )}
          </SelectContent>
        </Select>
      );
    }

    case 'checkbox': {
      if (!isCheckboxSet(field)) {
        return (
          <div className="flex items-center gap-2">
            <Checkbox
              {...common}
              checked={value === true}
              onCheckedChange={(checked) => onChange(checked === true)}
            />
            {field.label && <Label htmlFor={id}>{field.label}</Label>}
          </div>
        );
      }
      const chosen = Array.isArray(value) ? (value as string[]) : [];
      return (
        <div
          role="group"
          aria-labelledby={field.label ? `${id}-label` : undefined}
          aria-describedby={describedBy}
          className="space-y-2"
        >
          {(field.options ?? []).map((option) => {
            const optionId = `${id}-${option.value}`;
            return (
              <div key={option.value} className="flex items-center gap-2">
                <Checkbox
                  id={optionId}
                  name={name}
                  value={option.value}
                  disabled={field.disabled}
                  aria-invalid={invalid}
                  checked={chosen.includes(option.value)}
                  onCheckedChange={(checked) =>
                    onChange(
                      checked === true ? [...chosen, option.value] : chosen.filter((v) => v !== option.value),
                    )
                  }
                />
                <Label htmlFor={optionId}>{option.label}</Label>
              </div>
            );
          })}
        </div>
      );
    }

    case 'radio':
      return (
        <RadioGroup
          name={name}
          value={value == null ? '' : String(value)}
          disabled={field.disabled}
          onValueChange={onChange}
          aria-labelledby={field.label ? `${id}-label` : undefined}
          aria-describedby={describedBy}
          aria-invalid={invalid}
        >
          {(field.options ?? []).map((option) => (
            <div key={option.value} className="flex items-center gap-2">
              <RadioGroupItem id={`${id}-${option.value}`} value={option.value} />
              <Label htmlFor={`${id}-${option.value}`}>{option.label}</Label>
            </div>
          ))}
        </RadioGroup>
      );

    case 'switch':
      return (
        <div className="flex items-center gap-2">
          <Switch {...common} checked={value === true} onCheckedChange={(checked) => onChange(checked)} />
          {field.label && <Label htmlFor={id}>{field.label}</Label>}
        </div>
      );

    case 'date':
      return (
        <DateField
          id={id}
          value={value}
          placeholder={field.placeholder}
          disabled={field.disabled}
          invalid={invalid}
          describedBy={describedBy}
          onChange={onChange}
          onClose={onBlur}
        />
      );

    case 'file':
      return (
        <FileField
          id={id}
          name={name}
          field={field}
          value={value}
          invalid={invalid}
          describedBy={describedBy}
          onChange={onChange}
        />
      );

    case 'otp':
      return (
        <InputOTP
          {...common}
          maxLength={OTP_LENGTH}
          pattern={field.pattern}
          value={String(value ?? '')}
          onChange={onChange}
          onBlur={onBlur}
          autoComplete="one-time-code"
        >
          <InputOTPGroup>
            <InputOTPSlot index={0} />
            <InputOTPSlot index={1} />
            <InputOTPSlot index={2} />
          </InputOTPGroup>
          <InputOTPSeparator />
          <InputOTPGroup>
            <InputOTPSlot index={3} />
            <InputOTPSlot index={4} />
            <InputOTPSlot index={5} />
          </InputOTPGroup>
        </InputOTP>
      );

    case 'card': {
      if (!cardFieldComponent()) {
        return (
          <p id={id} role="status" className="text-sm text-muted-foreground">
            {t('form.card.unavailable')}
          </p>
        );
      }
      return (
        <RegisteredCardField
          id={id}
          name={name}
          disabled={field.disabled}
          invalid={invalid}
          describedBy={describedBy}
          onChange={onChange}
          onBlur={onBlur}
        />
      );
    }

    default: {
      const input = INPUT_TYPES[field.type] ?? { type: 'text' };
      return (
        <Input
          {...common}
          type={input.type}
          inputMode={input.inputMode}
          value={String(value ?? '')}
          placeholder={field.placeholder}
          readOnly={field.readonly}
          autoComplete={
            field.type === 'password' ? (field.autoComplete ?? 'current-password') : field.autoComplete
          }
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
        />
      );
    }
  }
}
