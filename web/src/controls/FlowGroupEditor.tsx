// One flow group of the scenario: its kind, how many flows, the kind's own
// settings, access delay and jitter, start and stop times, and direction.

import { Term } from '../glossary/Term';
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

/** The congestion controls a TCP group can run, each with one line for students. */
const CC_CHOICES: { value: CcName; label: string; about: string }[] = [
  {
    value: 'newreno',
    label: 'NewReno',
    about: 'NewReno halves its window at a loss, then adds one segment per round trip; it repairs one loss per round trip.',
  },
  { value: 'reno', label: 'Reno', about: "Reno is NewReno's predecessor: a second loss in the same window waits for a timeout." },
  {
    value: 'cubic',
    label: 'CUBIC',
    about: "CUBIC (Linux's default) backs off to 70% and regrows along a cubic curve: fast far from the window where it lost, flat near it.",
  },
  {
    value: 'dctcp',
    label: 'DCTCP',
    about:
      'DCTCP (datacenters, RFC 8257) cuts its window by half the share of its packets that were marked, so a few marks cost it little. It needs ECN, and RED as a step marker (min_th = max_th).',
  },
  {
    value: 'prague',
    label: 'Prague',
    about:
      "Prague (L4S) answers marks as DCTCP does, paces its packets and, once settled, grows as if its round trip were 25 ms, so short and long paths share more evenly. It needs ECN set to ECT(1), and DualPI2's L queue to keep its delay near 1 ms.",
  },
  {
    value: 'bbr',
    label: 'BBR',
    about:
      'BBR v1 (Cardwell et al. 2016) does not take a loss as a sign of congestion: it measures the largest delivery rate and the smallest round trip it sees, paces at that rate and keeps about two bandwidth-delay products in flight, probing for more bandwidth one round trip in eight. It always paces and does not use ECN.',
  },
];

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
  const cc = CC_CHOICES.find((choice) => choice.value === (group.cc ?? 'newreno')) ?? CC_CHOICES[0];
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
            <select value={cc.value} onChange={(event) => onChange(withCc(group, event.target.value as CcName))} data-testid={`flow-${index}-cc`}>
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
      {group.kind === 'tcp' && (
        <p className="hint" data-testid={`flow-${index}-tcp-about`}>
          {cc.about} {SACK_ABOUT}
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
            onChange={(event) => set('one_host', event.target.checked || undefined)}
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

/** A TCP group's ECN codepoint, SACK and pacing. */
function TcpSwitches({
  index,
  group,
  planned,
  set,
}: {
  index: number;
  group: FlowGroup;
  planned: ResolvedGroup | undefined;
  set: <K extends keyof FlowGroup>(key: K, value: FlowGroup[K] | undefined) => void;
}) {
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
          onChange={(event) => set('sack', event.target.checked || undefined)}
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
