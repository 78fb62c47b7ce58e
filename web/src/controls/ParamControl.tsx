// One scheme parameter, generated from its catalogue entry: a slider and a
// number field (or a checkbox for switch parameters), with reset-to-default.
// Changes apply to the running simulation at once.

import { useEffect, useId, useRef, useState } from 'react';
import { switchOn } from '../scenario/model';
import { PARAM_PATH_PREFIX, paramName } from '../scenario/paramNames';
import type { ParamSpec } from '../scenario/types';
import { FieldError } from './FieldError';

interface ParamControlProps {
  spec: ParamSpec;
  value: number;
  /** Upper end of the slider when the full range would make it useless (thresholds vs. a small buffer). */
  sliderMax?: number;
  /** Rejects with the reason (naming the parameter) when the value is refused. */
  onChange: (value: number) => Promise<unknown>;
}

const SLIDER_STEPS = 1000;

/** Ranges spanning three or more decades (w_q: 0.0001 to 1) get a logarithmic slider. */
function isLogarithmic(spec: ParamSpec): boolean {
  return spec.min > 0 && spec.max / spec.min >= 1000;
}

function snap(value: number, spec: ParamSpec): number {
  const snapped = Math.round((value - spec.min) / spec.step) * spec.step + spec.min;
  return Number(Math.min(spec.max, Math.max(spec.min, snapped)).toPrecision(10));
}

function toSlider(value: number, spec: ParamSpec, max: number): number {
  if (isLogarithmic(spec)) return (SLIDER_STEPS * Math.log(value / spec.min)) / Math.log(max / spec.min);
  return value;
}

function fromSlider(position: number, spec: ParamSpec, max: number): number {
  if (isLogarithmic(spec)) return snap(spec.min * (max / spec.min) ** (position / SLIDER_STEPS), spec);
  return snap(position, spec);
}

function formatValue(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)));
}

export function ParamControl({ spec, value, sliderMax, onChange }: ParamControlProps) {
  const id = useId();
  const name = paramName(spec);
  const [shown, setShown] = useState(value);
  const [text, setText] = useState(formatValue(value));
  const [error, setError] = useState<string | null>(null);
  const dragging = useRef(false);

  // Follow the engine's value, except mid-drag (a snapshot taken before the
  // latest change would pull the thumb back).
  useEffect(() => {
    if (dragging.current) return;
    setShown(value);
    setText(formatValue(value));
  }, [value]);

  const apply = (next: number) => {
    setShown(next);
    setText(formatValue(next));
    onChange(next).then(
      () => setError(null),
      (reason: unknown) => {
        setError(reason instanceof Error ? reason.message : String(reason));
        setShown(value);
        setText(formatValue(value));
      },
    );
  };

  const commitText = () => {
    const parsed = Number(text);
    if (text.trim() === '' || !Number.isFinite(parsed)) {
      setError(`${name}: enter a number between ${spec.min} and ${spec.max} [${PARAM_PATH_PREFIX}${spec.id}]`);
      return;
    }
    if (parsed !== shown) apply(parsed);
  };

  const doc = (
    <span className="param-doc" id={`${id}-doc`}>
      {spec.doc}
    </span>
  );
  const isDefault = Math.abs(shown - spec.default) < 1e-12;
  const resetButton = (
    <button
      type="button"
      className="icon-button"
      disabled={isDefault}
      onClick={() => apply(spec.default)}
      aria-label={`Reset ${name} to its default, ${formatValue(spec.default)}`}
      title={`Default: ${formatValue(spec.default)}`}
    >
      Reset
    </button>
  );

  if (spec.kind === 'switch') {
    return (
      <div className="param param-switch" data-param={spec.id}>
        <label title={spec.doc}>
          <input
            type="checkbox"
            checked={switchOn(shown)}
            onChange={(event) => apply(event.target.checked ? 1 : 0)}
            aria-describedby={`${id}-doc`}
            data-testid={`param-${spec.id}`}
          />
          <span className="param-label">{name}</span>
        </label>
        {resetButton}
        {doc}
        <FieldError message={error} />
      </div>
    );
  }

  const max = Math.max(spec.min + spec.step, Math.min(spec.max, sliderMax ?? spec.max));
  return (
    <div className={`param${error ? ' field-invalid' : ''}`} data-param={spec.id}>
      <label className="param-label" htmlFor={id} title={spec.doc}>
        {name}
        {spec.unit && <span className="field-unit"> · {spec.unit}</span>}
      </label>
      <div className="param-inputs">
        <input
          id={id}
          type="range"
          min={isLogarithmic(spec) ? 0 : spec.min}
          max={isLogarithmic(spec) ? SLIDER_STEPS : max}
          step={isLogarithmic(spec) ? 1 : spec.step}
          value={toSlider(Math.min(shown, max), spec, max)}
          aria-describedby={`${id}-doc`}
          aria-valuetext={`${formatValue(shown)} ${spec.unit}`}
          data-testid={`param-${spec.id}`}
          onPointerDown={() => (dragging.current = true)}
          onPointerUp={() => (dragging.current = false)}
          onBlur={() => (dragging.current = false)}
          onChange={(event) => apply(fromSlider(Number(event.target.value), spec, max))}
        />
        <input
          type="text"
          inputMode="decimal"
          className="param-number"
          aria-label={`${name} value`}
          value={text}
          data-testid={`param-${spec.id}-value`}
          onChange={(event) => setText(event.target.value)}
          onBlur={commitText}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commitText();
          }}
        />
        {resetButton}
      </div>
      {doc}
      <FieldError message={error} testId={`param-${spec.id}-error`} />
    </div>
  );
}
