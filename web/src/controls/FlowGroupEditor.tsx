// One flow group of the scenario: its kind, how many flows, the kind's own
// settings, access delay and jitter, start and stop times, and direction.

import { Term } from '../glossary/Term';
import { CC_CHOICES, CUBIC_RTT_CHOICES, HYSTART_CHOICES, type Choice } from '../scenario/flavours';
import { FLOW_KINDS, withCc, withKey, withKind } from '../scenario/model';
import type { CcName, FlowGroup, FlowKind, ResolvedGroup, ScenarioProblem } from '../scenario/types';
import { FieldError } from './FieldError';
import { NumberField } from './NumberField';
import { problemAt } from './problems';
import { SpreadField, spreadPlaceholder } from './SpreadField';

type NumericKey =
  | 'segment_bytes'
  | 'rate_bps'
  | 'packet_bytes'
  | 'burst_gsd'
  | 'peak_rate_bps'
  | 'on_mean_s'
  | 'off_mean_s'
  | 'sessions_per_s'
  | 'mean_bytes'
  | 'pareto_shape'
  | 'interval_ms';

interface KindField {
  key: NumericKey;
  label: string;
  unit: string;
  scale?: number;
  integer?: boolean;
}

const RATE = { unit: 'Mb/s', scale: 1e6, integer: true };
const KIND_FIELDS: Record<FlowKind, KindField[]> = {
  tcp: [{ key: 'segment_bytes', label: 'segment size', unit: 'bytes', integer: true }],
  cbr: [
    { key: 'rate_bps', label: 'rate', ...RATE },
    { key: 'packet_bytes', label: 'packet size', unit: 'bytes', integer: true },
  ],
  poisson: [
    { key: 'rate_bps', label: 'mean rate', ...RATE },
    { key: 'packet_bytes', label: 'packet size', unit: 'bytes', integer: true },
  ],
  vbr: [
    { key: 'rate_bps', label: 'mean rate', ...RATE },
    { key: 'packet_bytes', label: 'packet size', unit: 'bytes', integer: true },
    { key: 'burst_gsd', label: 'burst spread (geometric SD)', unit: '×' },
  ],
  onoff: [
    { key: 'peak_rate_bps', label: 'peak rate', ...RATE },
    { key: 'on_mean_s', label: 'mean on time', unit: 's' },
    { key: 'off_mean_s', label: 'mean off time', unit: 's' },
    { key: 'packet_bytes', label: 'packet size', unit: 'bytes', integer: true },
  ],
  web: [
    { key: 'sessions_per_s', label: 'sessions', unit: 'per s' },
    { key: 'mean_bytes', label: 'mean transfer', unit: 'bytes' },
    { key: 'pareto_shape', label: 'Pareto shape', unit: 'α' },
    { key: 'segment_bytes', label: 'segment size', unit: 'bytes', integer: true },
  ],
  tfrc: [{ key: 'segment_bytes', label: 'segment size', unit: 'bytes', integer: true }],
  ping: [
    { key: 'interval_ms', label: 'interval', unit: 'ms' },
    { key: 'packet_bytes', label: 'packet size (ICMP)', unit: 'bytes', integer: true },
  ],
};

const KIND_NAMES: Record<FlowKind, string> = {
  tcp: 'TCP (bulk transfer)',
  cbr: 'CBR (constant bit rate, UDP)',
  poisson: 'Poisson (UDP)',
  vbr: 'VBR (variable bit rate, UDP)',
  onoff: 'On/off (UDP)',
  web: 'Web sessions',
  tfrc: 'TFRC',
  ping: 'Ping (latency probe)',
};

interface FlowGroupEditorProps {
  index: number;
  group: FlowGroup;
  onChange: (group: FlowGroup) => void;
  onRemove?: () => void;
  /** The engine's plan of this group (undefined while the draft is invalid). */
  planned: ResolvedGroup | undefined;
  problem: ScenarioProblem | undefined;
}

/** The document's value where it sets one, else what the engine's plan runs with (none while the draft is invalid). */
function shown<T>(set: T | null | undefined, planned: T | undefined): T | undefined {
  return set === undefined || set === null ? planned : set;
}

/** The ECN codepoint a TCP group's packets carry: none, classic ECT(0) or L4S ECT(1). */
const ECN_CHOICES: { value: 'off' | 'ect0' | 'ect1'; label: string }[] = [
  { value: 'off', label: 'off' },
  { value: 'ect0', label: 'ECT(0)' },
  { value: 'ect1', label: 'ECT(1)' },
];

const ECN_ABOUT = 'ECN lets routers mark packets instead of dropping them: ECT(0) is classic ECN (RFC 3168), ECT(1) the L4S codepoint (RFC 9331).';

/** The editor's choice for a group's `ecn`: `true` is ECT(0). */
function ecnChoice(ecn: FlowGroup['ecn']): 'off' | 'ect0' | 'ect1' {
  if (ecn === true) return 'ect0';
  return ecn === 'ect0' || ecn === 'ect1' ? ecn : 'off';
}

const PACING_ABOUT =
  "Pacing spreads a window's packets over the round trip, at twice the window per round trip in slow start and 1.2 times after, as Linux does.";

const ONE_HOST_ABOUT =
  'All the group’s flows run between one sender and one receiver host, instead of a host pair per flow. Only host-aware schemes read it: CAKE with host isolation shares the link between hosts first.';

const SACK_ABOUT = 'With SACK the receiver reports every block it holds, so the sender resends several losses in one round trip instead of timing out.';

export function FlowGroupEditor({ index, group, onChange, onRemove, planned, problem }: FlowGroupEditorProps) {
  const path = (key: string) => `flows[${index}].${key}`;
  const set = <K extends keyof FlowGroup>(key: K, value: FlowGroup[K] | undefined) => onChange(withKey(group, key, value));
  // Without `cc` the group runs what the engine's plan says (none while the draft is invalid).
  const cc = CC_CHOICES.find((choice) => choice.value === shown(group.cc, planned?.cc));
  return (
    <section className="flow-group" aria-label={`Flow group ${index + 1}`} data-testid={`flow-group-${index}`}>
      <div className="flow-group-head">
        <label className="field">
          <span className="field-label">kind</span>
          <select value={group.kind} onChange={(event) => onChange(withKind(group, event.target.value as FlowKind))} data-testid={`flow-${index}-kind`}>
            {FLOW_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_NAMES[kind]}
              </option>
            ))}
          </select>
          <FieldError message={problemAt(problem, path('kind'))} />
        </label>
        {onRemove && (
          <button type="button" className="icon-button" onClick={onRemove} aria-label={`Remove flow group ${index + 1}`}>
            Remove
          </button>
        )}
      </div>
      <div className="field-row">
        <NumberField
          label="flows"
          value={shown(group.count, planned?.count)}
          integer
          onChange={(v) => set('count', v)}
          error={problemAt(problem, path('count'))}
          testId={`flow-${index}-count`}
        />
        <label className="field">
          <span className="field-label">label</span>
          <input
            type="text"
            value={group.label ?? ''}
            maxLength={80}
            placeholder={group.kind}
            onChange={(event) => set('label', event.target.value || undefined)}
          />
          <FieldError message={problemAt(problem, path('label'))} />
        </label>
      </div>
      <div className="field-row">
        {group.kind === 'tcp' && (
          <label className="field">
            <span className="field-label">congestion control</span>
            <select value={cc?.value ?? ''} onChange={(event) => onChange(withCc(group, event.target.value as CcName))} data-testid={`flow-${index}-cc`}>
              {CC_CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          </label>
        )}
        {KIND_FIELDS[group.kind].map((field) => (
          <NumberField
            key={field.key}
            label={field.label}
            unit={field.unit}
            scale={field.scale}
            integer={field.integer}
            value={group[field.key]}
            optional={field.key !== 'rate_bps'}
            placeholder="default"
            onChange={(v) => set(field.key, v)}
            error={problemAt(problem, path(field.key))}
            testId={`flow-${index}-${field.key}`}
          />
        ))}
      </div>
      {group.kind === 'tcp' && <TcpSwitches index={index} group={group} planned={planned} set={set} />}
      {group.kind === 'tcp' && cc?.value === 'cubic' && <CubicChoices index={index} group={group} planned={planned} set={set} problem={problem} />}
      {group.kind === 'tcp' && (
        <p className="hint" data-testid={`flow-${index}-tcp-about`}>
          {cc?.about} {SACK_ABOUT}
        </p>
      )}
      <div className="field-row">
        <SpreadField
          label="access delay"
          unit="ms"
          value={group.access_delay_ms}
          placeholder="link default"
          onChange={(v) => set('access_delay_ms', v)}
          error={problemAt(problem, path('access_delay_ms'))}
        />
        <SpreadField
          label="start time"
          unit="s"
          value={group.start_s}
          placeholder={spreadPlaceholder(planned?.start_s)}
          onChange={(v) => set('start_s', v)}
          error={problemAt(problem, path('start_s'))}
        />
      </div>
      <div className="field-row">
        <label className="field">
          <span className="field-label">direction</span>
          <select
            value={group.reverse ? 'reverse' : 'forward'}
            onChange={(event) => set('reverse', event.target.value === 'reverse' || undefined)}
            title="Right to left: the data crosses the reverse links (which then run the same scheme) and the ACKs share the forward queue with the other flows' data: two-way traffic."
            data-testid={`flow-${index}-direction`}
          >
            <option value="forward">left → right</option>
            <option value="reverse">right → left</option>
          </select>
          <FieldError message={problemAt(problem, path('reverse'))} />
        </label>
        <NumberField
          label="stop time"
          unit="s"
          value={group.stop_s}
          optional
          placeholder="never"
          onChange={(v) => set('stop_s', v)}
          error={problemAt(problem, path('stop_s'))}
        />
      </div>
      <div className="field-row">
        <NumberField
          label="access jitter"
          unit="ms"
          value={group.access_jitter_ms}
          optional
          placeholder="link default"
          onChange={(v) => set('access_jitter_ms', v)}
          error={problemAt(problem, path('access_jitter_ms'))}
          testId={`flow-${index}-access_jitter_ms`}
        />
        <label className="field checkbox" title={ONE_HOST_ABOUT}>
          <input
            type="checkbox"
            checked={shown(group.one_host, planned?.one_host) === true}
            onChange={(event) => set('one_host', event.target.checked)}
            data-testid={`flow-${index}-one_host`}
          />
          <span className="field-label">
            one host (<Term id="host-isolation">host isolation</Term>)
          </span>
        </label>
      </div>
    </section>
  );
}

interface GroupPartProps {
  index: number;
  group: FlowGroup;
  planned: ResolvedGroup | undefined;
  set: <K extends keyof FlowGroup>(key: K, value: FlowGroup[K] | undefined) => void;
}

/** One of CUBIC's choices: a select showing the document's value or the plan's, and the chosen value's meaning. */
function CubicChoice<T extends string>({
  index,
  field,
  label,
  termId,
  choices,
  value,
  onPick,
  error,
}: {
  index: number;
  field: 'hystart' | 'cubic_rtt';
  label: string;
  termId: string;
  choices: readonly Choice<T>[];
  value: T | undefined;
  onPick: (value: T) => void;
  error: string | undefined;
}) {
  const chosen = choices.find((choice) => choice.value === value);
  return (
    <label className="field" title={chosen?.about}>
      <span className="field-label">
        <Term id={termId}>{label}</Term>
      </span>
      <select value={chosen?.value ?? ''} onChange={(event) => onPick(event.target.value as T)} data-testid={`flow-${index}-${field}`}>
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

/** A CUBIC group's slow-start exit and look-ahead RTT, each with what the one chosen does. */
function CubicChoices({ index, group, planned, set, problem }: GroupPartProps & { problem: ScenarioProblem | undefined }) {
  const path = (key: string) => `flows[${index}].${key}`;
  const hystart = shown(group.hystart, planned?.hystart);
  const rtt = shown(group.cubic_rtt, planned?.cubic_rtt);
  const hystartAbout = HYSTART_CHOICES.find((c) => c.value === hystart)?.about;
  const rttAbout = CUBIC_RTT_CHOICES.find((c) => c.value === rtt)?.about;
  return (
    <>
      <div className="field-row">
        <CubicChoice
          index={index}
          field="hystart"
          label="HyStart"
          termId="hystart"
          choices={HYSTART_CHOICES}
          value={hystart}
          onPick={(v) => set('hystart', v)}
          error={problemAt(problem, path('hystart'))}
        />
        <CubicChoice
          index={index}
          field="cubic_rtt"
          label="look-ahead RTT"
          termId="cubic-rtt"
          choices={CUBIC_RTT_CHOICES}
          value={rtt}
          onPick={(v) => set('cubic_rtt', v)}
          error={problemAt(problem, path('cubic_rtt'))}
        />
      </div>
      <p className="hint" data-testid={`flow-${index}-cubic-about`}>
        {hystartAbout && <strong>HyStart: </strong>}
        {hystartAbout} {rttAbout && <strong>Look-ahead RTT: </strong>}
        {rttAbout}
      </p>
    </>
  );
}

/** A TCP group's ECN codepoint, SACK and pacing. */
function TcpSwitches({ index, group, planned, set }: GroupPartProps) {
  return (
    <div className="field-row">
      <label className="field" title={ECN_ABOUT}>
        <span className="field-label">ECN</span>
        <select
          value={ecnChoice(group.ecn)}
          onChange={(event) => set('ecn', event.target.value === 'off' ? undefined : (event.target.value as 'ect0' | 'ect1'))}
          data-testid={`flow-${index}-ecn`}
        >
          {ECN_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
      <label className="field checkbox" title={SACK_ABOUT}>
        <input
          type="checkbox"
          checked={shown(group.sack, planned?.sack) === true}
          onChange={(event) => set('sack', event.target.checked)}
          data-testid={`flow-${index}-sack`}
        />
        <span className="field-label">SACK</span>
      </label>
      <label className="field checkbox" title={PACING_ABOUT}>
        <input
          type="checkbox"
          checked={shown(group.pacing, planned?.pacing) === true}
          onChange={(event) => set('pacing', event.target.checked)}
          data-testid={`flow-${index}-pacing`}
        />
        <span className="field-label">pacing</span>
      </label>
    </div>
  );
}
