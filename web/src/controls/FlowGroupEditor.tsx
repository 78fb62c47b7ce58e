// One flow group of the scenario: its kind, how many flows, the kind's own
// settings, access delay and jitter, start and stop times, and direction.

import type { ReactNode } from 'react';
import { Term } from '../glossary/Term';
import { CC_CHOICES, CUBIC_RTT_CHOICES, HYSTART_CHOICES, type Choice } from '../scenario/flavours';
import { withCc, withKey, withKind } from '../scenario/model';
import type { FlowGroup, FlowKind, FlowKinds, ResolvedGroup, ScenarioProblem } from '../scenario/types';
import { SelectField, SwitchField, TextField } from './EditorFields';
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
  /** The engine's flow kinds: what a group switched to another kind starts with (the kind is fixed until they arrive). */
  kinds: FlowKinds | undefined;
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

const REVERSE_ABOUT =
  "Right to left: the data crosses the reverse links (which then run the same scheme) and the ACKs share the forward queue with the other flows' data: two-way traffic.";

const DIRECTION_CHOICES = [
  { value: 'forward', label: 'left → right' },
  { value: 'reverse', label: 'right → left' },
] as const;

const SACK_ABOUT = 'With SACK the receiver reports every block it holds, so the sender resends several losses in one round trip instead of timing out.';

export function FlowGroupEditor({ index, group, onChange, onRemove, planned, problem, kinds }: FlowGroupEditorProps) {
  const path = (key: string) => `flows[${index}].${key}`;
  const set = <K extends keyof FlowGroup>(key: K, value: FlowGroup[K] | undefined) => onChange(withKey(group, key, value));
  // Without `cc` the group runs what the engine's plan says (none while the draft is invalid).
  const cc = CC_CHOICES.find((choice) => choice.value === shown(group.cc, planned?.cc));
  const part = { index, group, planned, set };
  return (
    <section className="flow-group" aria-label={`Flow group ${index + 1}`} data-testid={`flow-group-${index}`}>
      <div className="flow-group-head">
        <SelectField
          label="kind"
          value={group.kind}
          choices={(kinds?.kinds.map((k) => k.kind) ?? [group.kind]).map((kind) => ({ value: kind, label: KIND_NAMES[kind] }))}
          onChange={(kind) => kinds && onChange(withKind(kinds, group, kind))}
          error={problemAt(problem, path('kind'))}
          testId={`flow-${index}-kind`}
        />
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
        <TextField
          label="label"
          value={group.label}
          maxLength={80}
          placeholder={group.kind}
          onChange={(label) => set('label', label)}
          error={problemAt(problem, path('label'))}
        />
      </div>
      <div className="field-row">
        {group.kind === 'tcp' && (
          <SelectField
            label="congestion control"
            value={cc?.value ?? ''}
            choices={CC_CHOICES}
            onChange={(name) => onChange(withCc(group, name))}
            testId={`flow-${index}-cc`}
          />
        )}
        {KIND_FIELDS[group.kind].map(({ key, ...shown }) => (
          <GroupNumber key={key} {...part} problem={problem} field={key} {...shown} optional={key !== 'rate_bps'} placeholder="default" />
        ))}
      </div>
      {group.kind === 'tcp' && <TcpSwitches {...part} />}
      {group.kind === 'tcp' && cc?.value === 'cubic' && <CubicChoices {...part} problem={problem} />}
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
        <SelectField
          label="direction"
          value={group.reverse ? 'reverse' : 'forward'}
          choices={DIRECTION_CHOICES}
          onChange={(direction) => set('reverse', direction === 'reverse' || undefined)}
          about={REVERSE_ABOUT}
          error={problemAt(problem, path('reverse'))}
          testId={`flow-${index}-direction`}
        />
        <GroupNumber {...part} problem={problem} field="stop_s" label="stop time" unit="s" optional placeholder="never" />
      </div>
      <div className="field-row">
        <GroupNumber {...part} problem={problem} field="access_jitter_ms" label="access jitter" unit="ms" optional placeholder="link default" />
        <GroupSwitch
          {...part}
          field="one_host"
          label={
            <>
              one host (<Term id="host-isolation">host isolation</Term>)
            </>
          }
          about={ONE_HOST_ABOUT}
        />
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

type CubicKey = 'hystart' | 'cubic_rtt';

/** One of CUBIC's choices: a select showing the document's value or the plan's, and the chosen value's meaning. */
function CubicChoice<K extends CubicKey>({
  index,
  group,
  planned,
  set,
  problem,
  field,
  label,
  termId,
  choices,
}: CubicPartProps & { field: K; label: string; termId: string; choices: readonly Choice<NonNullable<FlowGroup[K]>>[] }) {
  const chosen = choices.find((choice) => choice.value === shown(group[field], planned?.[field]));
  return (
    <SelectField
      label={<Term id={termId}>{label}</Term>}
      value={chosen?.value ?? ''}
      choices={choices}
      onChange={(value) => set(field, value)}
      about={chosen?.about}
      error={problemAt(problem, `flows[${index}].${field}`)}
      testId={`flow-${index}-${field}`}
    />
  );
}

type CubicPartProps = GroupPartProps & { problem: ScenarioProblem | undefined };

/** A CUBIC group's slow-start exit and look-ahead RTT, each with what the one chosen does. */
function CubicChoices(part: CubicPartProps) {
  const { index, group, planned } = part;
  const hystartAbout = HYSTART_CHOICES.find((c) => c.value === shown(group.hystart, planned?.hystart))?.about;
  const rttAbout = CUBIC_RTT_CHOICES.find((c) => c.value === shown(group.cubic_rtt, planned?.cubic_rtt))?.about;
  return (
    <>
      <div className="field-row">
        <CubicChoice {...part} field="hystart" label="HyStart" termId="hystart" choices={HYSTART_CHOICES} />
        <CubicChoice {...part} field="cubic_rtt" label="look-ahead RTT" termId="cubic-rtt" choices={CUBIC_RTT_CHOICES} />
      </div>
      <p className="hint" data-testid={`flow-${index}-cubic-about`}>
        {hystartAbout && <strong>HyStart: </strong>}
        {hystartAbout} {rttAbout && <strong>Look-ahead RTT: </strong>}
        {rttAbout}
      </p>
    </>
  );
}

/** One of a group's numbers, shown in its display unit. */
function GroupNumber({
  index,
  group,
  set,
  problem,
  field,
  ...shown
}: GroupPartProps & {
  problem: ScenarioProblem | undefined;
  field: NumericKey | 'stop_s' | 'access_jitter_ms';
  label: string;
  unit: string;
  scale?: number;
  integer?: boolean;
  optional: boolean;
  placeholder: string;
}) {
  return (
    <NumberField
      {...shown}
      value={group[field]}
      onChange={(v) => set(field, v)}
      error={problemAt(problem, `flows[${index}].${field}`)}
      testId={`flow-${index}-${field}`}
    />
  );
}

/** One of a group's on/off options, showing the document's value or the plan's. */
function GroupSwitch({
  index,
  group,
  planned,
  set,
  field,
  label,
  about,
}: GroupPartProps & { field: 'sack' | 'pacing' | 'one_host'; label: ReactNode; about: string }) {
  return (
    <SwitchField
      label={label}
      checked={shown(group[field], planned?.[field]) === true}
      onChange={(on) => set(field, on)}
      about={about}
      testId={`flow-${index}-${field}`}
    />
  );
}

/** A TCP group's ECN codepoint, SACK and pacing. */
function TcpSwitches(part: GroupPartProps) {
  const { index, group, set } = part;
  return (
    <div className="field-row">
      <SelectField
        label="ECN"
        value={ecnChoice(group.ecn)}
        choices={ECN_CHOICES}
        onChange={(ecn) => set('ecn', ecn === 'off' ? undefined : ecn)}
        about={ECN_ABOUT}
        testId={`flow-${index}-ecn`}
      />
      <GroupSwitch {...part} field="sack" label="SACK" about={SACK_ABOUT} />
      <GroupSwitch {...part} field="pacing" label="pacing" about={PACING_ABOUT} />
    </div>
  );
}
