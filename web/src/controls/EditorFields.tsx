// The editor's fields other than numbers: a select among named choices, a
// switch (checkbox) and a line of text, each with its label.

import type { ReactNode } from 'react';
import { FieldError } from './FieldError';

export interface FieldChoice<T extends string> {
  value: T;
  label: string;
}

interface SelectFieldProps<T extends string> {
  label: ReactNode;
  /** The chosen value; '' shows no choice (none is known yet). */
  value: T | '';
  choices: readonly FieldChoice<T>[];
  onChange: (value: T) => void;
  /** What the field or the chosen value does, shown on hover. */
  about?: string;
  error?: string;
  testId?: string;
}

export function SelectField<T extends string>({ label, value, choices, onChange, about, error, testId }: SelectFieldProps<T>) {
  return (
    <label className="field" title={about}>
      <span className="field-label">{label}</span>
      <select value={value} onChange={(event) => onChange(event.target.value as T)} data-testid={testId}>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      <FieldError message={error} />
    </label>
  );
}

interface SwitchFieldProps {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** What the switch does, shown on hover. */
  about: string;
  testId: string;
}

export function SwitchField({ label, checked, onChange, about, testId }: SwitchFieldProps) {
  return (
    <label className="field checkbox" title={about}>
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} data-testid={testId} />
      <span className="field-label">{label}</span>
    </label>
  );
}

interface TextFieldProps {
  label: string;
  value: string | undefined;
  /** The new text, or undefined when it is cleared (the key is left out). */
  onChange: (value: string | undefined) => void;
  maxLength: number;
  placeholder?: string;
  /** Spans the panel's width. */
  wide?: boolean;
  error?: string;
  testId?: string;
}

export function TextField({ label, value, onChange, maxLength, placeholder, wide, error, testId }: TextFieldProps) {
  return (
    <label className={wide ? 'field wide' : 'field'}>
      <span className="field-label">{label}</span>
      <input
        type="text"
        value={value ?? ''}
        maxLength={maxLength}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value || undefined)}
        data-testid={testId}
      />
      <FieldError message={error} />
    </label>
  );
}
