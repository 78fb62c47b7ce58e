// A field's error message beside it, announced to screen readers as it
// appears; nothing when the field has none.

export function FieldError({ message, testId }: { message: string | null | undefined; testId?: string }) {
  if (!message) return null;
  return (
    <span className="field-error" role="alert" data-testid={testId}>
      {message}
    </span>
  );
}
