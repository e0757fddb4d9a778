import type * as React from 'react';
import type { TWriteCall } from '@/lib/api';
import type { TFormFields, TFormParams, TFormSchema } from '@/components/form/types';

// The shared dialog's types, apart from the provider and its lazily loaded view so neither imports
// the other.

interface TDialogBase {
  title?: React.ReactNode;
  description?: React.ReactNode;
  buttonText?: React.ReactNode;
  /** A form dialog's call of the shared table, and its path parameters. */
  call?: TWriteCall;
  params?: TFormParams;
  /** Called once with the result when the dialog closes: the form's answer, true on confirm, false on cancel. */
  callback?: (result: unknown) => void;
}

/**
 * A confirmation, or (with a form field map, see the form engine) a form dialog, which must name
 * the request's shared schema: the form validates with the rules the server applies.
 */
export type TDialogOptions = TDialogBase &
  (
    | { fields: TFormFields; schema: TFormSchema; call: TWriteCall }
    | { fields?: undefined; schema?: undefined; call?: undefined }
  );

export type TDialogState = TDialogOptions & { open: boolean };

/** Renders a form dialog's body; the default is the generic form engine (tests may pass their own). */
export type TDialogFormRenderer = (props: {
  fields: TFormFields;
  schema: TFormSchema;
  call: TWriteCall;
  params?: TFormParams;
  buttonText?: React.ReactNode;
  onSuccess: (result: unknown) => void;
  cancel: () => void;
}) => React.ReactNode;

/** Where focus goes back to when the dialog closes: the control that opened it. */
export type TReturnFocus = () => void;
