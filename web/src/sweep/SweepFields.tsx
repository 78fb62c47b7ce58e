// The sweep dialog's settings: which field to sweep, its values (evenly
// spaced or a list) and how many seeds.

import type { Dispatch, RefObject } from 'react';
import type { WorkEstimate } from '../engine/client';
import type { ParamProblem } from '../scenario/paramNames';
import type { ScenarioProblem } from '../scenario/types';
import { FieldError } from '../controls/FieldError';
import { NumberField } from '../controls/NumberField';
import { rangeFor, type SweepForm, type SweepFormAction } from './form';
import type { SweepField } from './model';
import { unitSuffix } from './sweepState';

const SECONDS = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
const EVENTS = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

const MODES: readonly { mode: SweepForm['mode']; label: string }[] = [
  { mode: 'range', label: 'evenly spaced' },
  { mode: 'list', label: 'a list' },
];

interface SweepFieldsProps {
  fields: readonly SweepField[];
  field: SweepField | undefined;
  form: SweepForm;
  dispatch: Dispatch<SweepFormAction>;
  disabled: boolean;
  paramRef: RefObject<HTMLSelectElement | null>;
  /** The message for a settings field the form refuses, by its name. */
  fieldError: (name: string) => string | undefined;
}

export function SweepFields({ fields, field, form, dispatch, disabled, paramRef, fieldError }: SweepFieldsProps) {
  const { mode, count, listText, seedCount } = form;
  const range = field ? rangeFor(form, field) : { from: undefined, to: undefined };
  return (
    <fieldset className="sweep-fields" disabled={disabled}>
      <label className="field wide">
        <span className="field-label">parameter</span>
        <select ref={paramRef} value={field?.path ?? ''} onChange={(event) => dispatch({ type: 'pick', path: event.target.value })} data-testid="sweep-param">
          {[...new Set(fields.map((f) => f.group))].map((group) => (
            <optgroup key={group} label={group}>
              {fields
                .filter((f) => f.group === group)
                .map((f) => (
                  <option key={f.path} value={f.path}>
                    {f.label}
                    {unitSuffix(f.unit)}
                  </option>
                ))}
            </optgroup>
          ))}
        </select>
        {field && (
          <span className="sweep-hint">
            <code>{field.path}</code>
            {field.current !== undefined && <>, now {SECONDS.format(field.current / field.scale)}</>}
          </span>
        )}
      </label>

      <fieldset className="sweep-mode">
        <legend className="field-label">values</legend>
        {MODES.map((choice) => (
          <label key={choice.mode}>
            <input
              type="radio"
              name="sweep-mode"
              checked={mode === choice.mode}
              onChange={() => dispatch({ type: 'mode', mode: choice.mode })}
              data-testid={`sweep-mode-${choice.mode}`}
            />{' '}
            {choice.label}
          </label>
        ))}
      </fieldset>
      {mode === 'range' ? (
        <div className="field-row">
          {(['from', 'to'] as const).map((end) => (
            <NumberField
              key={end}
              label={end}
              unit={field?.unit}
              value={range[end]}
              onChange={(value) => field && dispatch({ type: end, field, value })}
              error={fieldError(end)}
              testId={`sweep-${end}`}
            />
          ))}
          <NumberField
            label="values"
            integer
            value={count}
            onChange={(value) => dispatch({ type: 'count', value })}
            error={fieldError('values')}
            testId="sweep-count"
          />
        </div>
      ) : (
        <label className={`field wide${fieldError('values') ? ' field-invalid' : ''}`}>
          <span className="field-label">values{field?.unit ? <span className="field-unit"> ({field.unit})</span> : null}, separated by commas</span>
          <input
            type="text"
            value={listText}
            placeholder="0.02, 0.05, 0.1"
            onChange={(event) => dispatch({ type: 'list', text: event.target.value })}
            aria-invalid={fieldError('values') ? true : undefined}
            data-testid="sweep-values"
          />
          <FieldError message={fieldError('values')} />
        </label>
      )}
      <div className="field-row">
        <NumberField
          label="seeds"
          integer
          value={seedCount}
          onChange={(value) => dispatch({ type: 'seeds', value })}
          error={fieldError('seeds')}
          testId="sweep-seeds"
        />
      </div>
    </fieldset>
  );
}

interface SweepProblemsProps {
  /** The engine's first problem with the sweep's runs. */
  engineProblem: ScenarioProblem | undefined;
  /** The same, named as its slider names it when it is a scheme parameter. */
  namedProblem: ParamProblem | null | undefined;
  /** What the form itself refuses, outside its fields. */
  localProblem: { field: string; message: string } | undefined;
  /** The work of the runs together, when it is beyond what `aqm-sim sweep` runs without --force. */
  work: WorkEstimate | undefined;
}

/** Why the sweep cannot run, or a warning that it will take long. */
export function SweepProblems({ engineProblem, namedProblem, localProblem, work }: SweepProblemsProps) {
  return (
    <>
      {engineProblem && (
        <p className="problem-banner" role="alert" data-testid="sweep-problem">
          {namedProblem ? (
            <>
              {namedProblem.name}: {namedProblem.message} [<code>{namedProblem.path}</code>]
            </>
          ) : (
            <>
              {engineProblem.path ? <code>{engineProblem.path}</code> : null}
              {engineProblem.path ? ': ' : ''}
              {engineProblem.message}
            </>
          )}
        </p>
      )}
      {localProblem && !['from', 'to', 'values', 'seeds'].includes(localProblem.field) && (
        <p className="problem-banner" role="alert" data-testid="sweep-problem">
          {localProblem.field}: {localProblem.message}
        </p>
      )}
      {work && (
        <p className="sweep-work-warning" role="status" data-testid="sweep-work-warning">
          These runs would take about {EVENTS.format(work.events)} engine events in all, beyond the {EVENTS.format(work.limit)} that <code>aqm-sim sweep</code>{' '}
          runs without <code>--force</code>: many minutes here. The page stays usable and Cancel stops the sweep; fewer values or seeds, or a shorter duration,
          give an answer sooner.
        </p>
      )}
    </>
  );
}
