// A number input that keeps what the user types (so "0." or "" can be typed
// on the way to a value) and reports parsed numbers in scenario units.

import { useEffect, useId, useRef, useState } from 'react';

interface NumberFieldProps {
  label: string;
  /** Value in scenario units (e.g. bits per second). */
  value: number | undefined;
  onChange: (value: number | undefined) => void;
  /** Display unit, e.g. "Mb/s". */
  unit?: string;
  /** Scenario units per display unit, e.g. 1e6 for Mb/s shown for bps. */
  scale?: number;
  /** Round the scenario value to an integer (counts, bytes, bits per second). */
  integer?: boolean;
  /** Empty means "absent" (the engine's default) rather than an error. */
  optional?: boolean;
  placeholder?: string;
  /** The engine's message for this field, if it rejected it. */
  error?: string;
  testId?: string;
}

function display(value: number | undefined, scale: number): string {
  if (value === undefined || !Number.isFinite(value)) return '';
  return String(Number((value / scale).toPrecision(12)));
}

export function NumberField({ label, value, onChange, unit, scale = 1, integer, optional, placeholder, error, testId }: NumberFieldProps) {
  const id = useId();
  const [text, setText] = useState(display(value, scale));
  const [localError, setLocalError] = useState<string | null>(null);

  // The last value this field reported: anything else arriving is an outside
  // change (a preset, a revert) that replaces what the user typed.
  const reported = useRef(value);
  useEffect(() => {
    if (Object.is(value, reported.current)) return;
    reported.current = value;
    setText(display(value, scale));
    setLocalError(null);
  }, [value, scale]);

  const report = (next: number | undefined) => {
    reported.current = next;
    onChange(next);
  };

  const commit = (next: string) => {
    setText(next);
    if (next.trim() === '') {
      setLocalError(optional ? null : 'enter a number');
      report(optional ? undefined : Number.NaN);
      return;
    }
    const parsed = Number(next);
    if (!Number.isFinite(parsed)) {
      setLocalError('enter a number');
      report(Number.NaN);
      return;
    }
    setLocalError(null);
    const scaled = parsed * scale;
    report(integer ? Math.round(scaled) : scaled);
  };

  const message = localError ?? error;
  return (
    <label className={`field${message ? ' field-invalid' : ''}`} htmlFor={id}>
      <span className="field-label">
        {label}
        {unit && <span className="field-unit"> ({unit})</span>}
      </span>
      <input
        id={id}
        type="text"
        inputMode="decimal"
        value={text}
        placeholder={placeholder}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? `${id}-error` : undefined}
        data-testid={testId}
        onChange={(event) => commit(event.target.value)}
      />
      {message && (
        <span className="field-error" id={`${id}-error`} role="alert">
          {message}
        </span>
      )}
    </label>
  );
}
