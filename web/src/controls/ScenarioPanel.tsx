// The experiment's set-up: link, buffer, timing, seed and flow groups. Edits
// stay a draft, validated by the engine as you type, until applied (which
// restarts the run); every message names its field.

import { bufferUnit, newGroup, withKey, type BufferUnit } from '../scenario/model';
import type { FlowGroup, FlowKinds, ResolvedPlan, Scenario, ScenarioProblem } from '../scenario/types';
import { SelectField, TextField, type FieldChoice } from './EditorFields';
import { FlowGroupEditor } from './FlowGroupEditor';
import { NumberField } from './NumberField';
import { problemAt } from './problems';

interface ScenarioPanelProps {
  draft: Scenario;
  onDraft: (draft: Scenario) => void;
  problem: ScenarioProblem | undefined;
  /** The engine's plan of the draft (undefined while it is invalid): what a field left out runs with. */
  plan: ResolvedPlan | undefined;
  /** The engine's flow kinds, each with the group it adds (undefined until the engine answers). */
  flowKinds: FlowKinds | undefined;
  /** The draft differs from what is running. */
  dirty: boolean;
  /** False while a new run is on its way: its document will replace the draft when it starts. */
  ready: boolean;
  onApply: () => void;
  onRevert: () => void;
}

/** What a field left out runs with, from the engine's plan (nothing while the draft is invalid). */
function planned(value: number | undefined): string | undefined {
  return value === undefined ? undefined : String(value);
}

type PlannedKey = 'measure_from_s' | 'sample_interval_ms' | 'seed';

/** A top-level number the document may leave out; empty shows what the engine's plan runs with. */
function PlannedField({
  draft,
  onDraft,
  problem,
  plan,
  field,
  ...shown
}: Pick<ScenarioPanelProps, 'draft' | 'onDraft' | 'problem' | 'plan'> & {
  field: PlannedKey;
  label: string;
  unit?: string;
  integer?: boolean;
  testId?: string;
}) {
  return (
    <NumberField
      {...shown}
      value={draft[field]}
      optional
      placeholder={planned(plan?.[field])}
      onChange={(v) => onDraft(withKey(draft, field, v))}
      error={problemAt(problem, field)}
    />
  );
}

const BUFFER_UNITS: readonly FieldChoice<BufferUnit>[] = [
  { value: 'packets', label: 'packets' },
  { value: 'bytes', label: 'bytes' },
];

function applyHint(ready: boolean, dirty: boolean, invalid: boolean): string {
  if (!ready) return 'Open for changes once the next run starts.';
  if (!dirty) return 'Running as shown.';
  return invalid ? 'Fix the highlighted field to apply.' : 'Changes take effect when applied.';
}

export function ScenarioPanel(props: ScenarioPanelProps) {
  const { problem, dirty, ready, onApply } = props;
  return (
    <form
      className="panel scenario-panel"
      aria-label="Scenario"
      onSubmit={(event) => {
        event.preventDefault();
        if (ready && dirty && !problem) onApply();
      }}
    >
      <h2>Scenario</h2>
      {/* Disabled rather than kept aside: an edit made now would be replaced by the run on its way (see acceptsEdits). */}
      <fieldset className="scenario-fields" disabled={!ready} aria-busy={!ready} data-testid="scenario-fields">
        <ScenarioFields {...props} />
      </fieldset>
    </form>
  );
}

function ScenarioFields({ draft, onDraft, problem, plan, flowKinds, dirty, ready, onRevert }: ScenarioPanelProps) {
  const topology = draft.topology;
  const unit = bufferUnit(draft);
  const setTopology = (next: Partial<Scenario['topology']>) => onDraft({ ...draft, topology: { ...topology, ...next } });
  const setFlows = (flows: FlowGroup[]) => onDraft({ ...draft, flows });
  const setBuffer = (size: number | undefined, nextUnit: BufferUnit) => setTopology({ buffer: nextUnit === 'bytes' ? { bytes: size } : { packets: size } });
  const bufferSize = topology.buffer.bytes ?? topology.buffer.packets;
  const fieldState = { draft, onDraft, problem, plan };

  return (
    <>
      {problem && (
        <p className="problem-banner" role="alert" data-testid="scenario-problem">
          {problem.path ? <code>{problem.path}</code> : null}
          {problem.path ? ': ' : ''}
          {problem.message}
        </p>
      )}
      <TextField label="name" wide value={draft.name} maxLength={200} onChange={(name) => onDraft(withKey(draft, 'name', name))} testId="scenario-name" />

      <h3>Bottleneck link</h3>
      <div className="field-row">
        <NumberField
          label="rate"
          unit="Mb/s"
          scale={1e6}
          integer
          value={topology.bottleneck.rate_bps}
          onChange={(v) => setTopology({ bottleneck: { ...topology.bottleneck, rate_bps: v ?? Number.NaN } })}
          error={problemAt(problem, 'topology.bottleneck.rate_bps')}
          testId="bottleneck-rate"
        />
        <NumberField
          label="delay"
          unit="ms"
          value={topology.bottleneck.delay_ms}
          onChange={(v) => setTopology({ bottleneck: { ...topology.bottleneck, delay_ms: v ?? Number.NaN } })}
          error={problemAt(problem, 'topology.bottleneck.delay_ms')}
          testId="bottleneck-delay"
        />
      </div>
      <div className="field-row">
        <NumberField
          label="buffer"
          integer
          value={bufferSize}
          onChange={(v) => setBuffer(v, unit)}
          error={problemAt(problem, 'topology.buffer')}
          testId="buffer-size"
        />
        <SelectField label="buffer unit" value={unit} choices={BUFFER_UNITS} onChange={(next) => setBuffer(bufferSize, next)} testId="buffer-unit" />
      </div>

      <h3>Timing</h3>
      <div className="field-row">
        <NumberField
          label="duration"
          unit="s"
          value={draft.duration_s}
          onChange={(v) => onDraft({ ...draft, duration_s: v ?? Number.NaN })}
          error={problemAt(problem, 'duration_s')}
          testId="duration"
        />
        <PlannedField {...fieldState} field="measure_from_s" label="measure from" unit="s" testId="measure-from" />
      </div>
      <div className="field-row">
        <PlannedField {...fieldState} field="sample_interval_ms" label="sample every" unit="ms" />
        <PlannedField {...fieldState} field="seed" label="random seed" integer testId="seed" />
      </div>

      <h3>Flows</h3>
      {problemAt(problem, 'flows') && !problem?.path.startsWith('flows[') && (
        <p className="field-error" role="alert">
          {problem?.message}
        </p>
      )}
      {draft.flows.map((group, i) => (
        <FlowGroupEditor
          key={i}
          index={i}
          group={group}
          planned={plan?.groups[i]}
          problem={problem}
          kinds={flowKinds}
          onChange={(next) => setFlows(draft.flows.map((g, j) => (j === i ? next : g)))}
          onRemove={draft.flows.length > 1 ? () => setFlows(draft.flows.filter((_, j) => j !== i)) : undefined}
        />
      ))}
      <button
        type="button"
        disabled={!flowKinds}
        onClick={() => flowKinds && setFlows([...draft.flows, newGroup(flowKinds, 'tcp')])}
        data-testid="add-flow-group"
      >
        Add flow group
      </button>

      <div className="apply-bar">
        <button type="submit" className="primary" disabled={!dirty || problem !== undefined} data-testid="apply-scenario">
          Apply and restart
        </button>
        <button type="button" disabled={!dirty} onClick={onRevert}>
          Revert
        </button>
        <span className="hint">{applyHint(ready, dirty, problem !== undefined)}</span>
      </div>
    </>
  );
}
