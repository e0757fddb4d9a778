/**
 * What a form field says under its control, for every form of the engine: its description, then
 * its error (an alert, so it is read out when it appears). The ids are the ones the control's
 * `aria-describedby` names.
 */
export function FieldNotes({
  description,
  descriptionId,
  error,
  errorId,
}: {
  description?: string;
  descriptionId?: string;
  error?: string;
  errorId?: string;
}) {
  return (
    <>
      {description && (
        <p id={descriptionId} className="text-sm text-muted-foreground">
          {description}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </>
  );
}
