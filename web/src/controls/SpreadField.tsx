// A value that is one number or a [lo, hi] range spread over a flow group
// (access delays spread evenly, start times drawn uniformly).

import type { Spread } from '../scenario/types';
import { FieldError } from './FieldError';
import { NumberField } from './NumberField';

interface SpreadFieldProps {
  label: string;
  unit: string;
  value: Spread | undefined;
  onChange: (value: Spread | undefined) => void;
  /** What the first field runs with when left out. */
  placeholder?: string;
  error?: string;
  testId?: string;
}

/** A spread's first value as the placeholder of its "from" field. */
export function spreadPlaceholder(value: Spread | undefined): string | undefined {
  return value === undefined ? undefined : String(Array.isArray(value) ? value[0] : value);
}

export function SpreadField({ label, unit, value, onChange, placeholder, error, testId }: SpreadFieldProps) {
  const lo = Array.isArray(value) ? value[0] : value;
  const hi = Array.isArray(value) ? value[1] : undefined;
  const update = (nextLo: number | undefined, nextHi: number | undefined) => {
    if (nextLo === undefined) onChange(nextHi === undefined ? undefined : [0, nextHi]);
    else onChange(nextHi === undefined ? nextLo : [nextLo, nextHi]);
  };
  return (
    <fieldset className={`spread${error ? ' field-invalid' : ''}`}>
      <legend>
        {label} <span className="field-unit">({unit})</span>
      </legend>
      <NumberField label="from" value={lo} optional placeholder={placeholder} onChange={(next) => update(next, hi)} testId={testId && `${testId}-from`} />
      <NumberField label="to" value={hi} optional placeholder="same" onChange={(next) => update(lo, next)} testId={testId && `${testId}-to`} />
      <FieldError message={error} />
    </fieldset>
  );
}
