// "Capture (pcap)": the packets leaving one congested hop, both ways, in a
// window of simulated time, as a Wireshark file (what `aqm-sim run --pcap`
// writes). The engine runs the scenario to its end out of sight in the
// worker; the page holds only the window's bytes, so the form shows their
// bound before it asks.

import { useState } from 'react';
import { EngineRefusal } from '../engine/client';
import type { CaptureFiles } from '../engine/pkg/aqm_core';
import type { ResolvedPlan, Scenario } from '../scenario/types';
import { exportFileName } from './documents';
import { downloadBlob } from './download';

/** Default window: this long from the start of the measurement. */
const DEFAULT_WINDOW_S = 10;
/** Largest capture the page asks for, by its bound (both directions at the hop's rate). */
export const MAX_CAPTURE_BYTES = 256e6;
/** Record header of a packet and the smallest packet (a pure ACK): the bound's overhead per byte. */
const RECORD_OVERHEAD = 16 / 40;

/** At most this many bytes: the hop's rate both ways over the window, with a record header per smallest packet. */
export function captureBoundBytes(scenario: Scenario, fromS: number, toS: number): number {
  const rateBps = scenario.topology.bottleneck.rate_bps;
  return 24 + 2 * (rateBps / 8) * Math.max(0, toS - fromS) * (1 + RECORD_OVERHEAD);
}

export function defaultWindow(plan: ResolvedPlan): { fromS: number; toS: number } {
  const duration = plan.duration_s;
  const fromS = Math.min(plan.measure_from_s, duration);
  return { fromS, toS: Math.min(duration, fromS + DEFAULT_WINDOW_S) };
}

interface CaptureFormProps {
  scenario: Scenario;
  /** The engine's plan of `scenario`: its measurement start and hops. */
  plan: ResolvedPlan;
  capture: (scenarioJson: string, hop: number, fromS: number, toS: number) => Promise<CaptureFiles>;
  onDone: () => void;
}

export function CaptureForm({ scenario, plan, capture, onDone }: CaptureFormProps) {
  const hops = plan.hops;
  const initial = defaultWindow(plan);
  const [hop, setHop] = useState(0);
  const [fromS, setFromS] = useState(String(initial.fromS));
  const [toS, setToS] = useState(String(initial.toS));
  const [drops, setDrops] = useState(true);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ field: string; message: string } | null>(null);
  const from = Number(fromS);
  const to = Number(toS);
  const bound = captureBoundBytes(scenario, from, to);
  const tooLarge = bound > MAX_CAPTURE_BYTES;

  const submit = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const files = await capture(JSON.stringify(scenario), hop, from, to);
      const type = 'application/vnd.tcpdump.pcap';
      downloadBlob(new Blob([files.passed as Uint8Array<ArrayBuffer>], { type }), exportFileName(scenario.name, `hop${hop}-capture`, 'pcap'));
      if (drops) downloadBlob(new Blob([files.dropped as Uint8Array<ArrayBuffer>], { type }), exportFileName(scenario.name, `hop${hop}-capture.drops`, 'pcap'));
      onDone();
    } catch (error) {
      const p = error instanceof EngineRefusal ? error.problem : undefined;
      setProblem({ field: p?.path ?? '', message: p?.message ?? String(error instanceof Error ? error.message : error) });
    } finally {
      setBusy(false);
    }
  };

  const note = (field: string) =>
    problem?.field === field && (
      <span className="capture-problem" role="alert" data-testid={`capture-problem-${field || 'scenario'}`}>
        {problem.message}
      </span>
    );

  return (
    <form
      className="capture-form"
      aria-label="Capture (pcap)"
      data-testid="capture-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy && !tooLarge) void submit();
      }}
    >
      <label>
        Hop
        <select value={hop} onChange={(e) => setHop(Number(e.target.value))} data-testid="capture-hop" disabled={hops < 2}>
          {Array.from({ length: hops }, (_, h) => (
            <option key={h} value={h}>
              {h}
            </option>
          ))}
        </select>
      </label>
      {note('hop')}
      <label>
        From (s)
        <input type="number" min={0} step="any" value={fromS} onChange={(e) => setFromS(e.target.value)} data-testid="capture-from" />
      </label>
      {note('from')}
      <label>
        To (s)
        <input type="number" min={0} step="any" value={toS} onChange={(e) => setToS(e.target.value)} data-testid="capture-to" />
      </label>
      {note('to')}
      <label>
        <input type="checkbox" checked={drops} onChange={(e) => setDrops(e.target.checked)} data-testid="capture-drops" />
        Also the drops (a second file)
      </label>
      <p className="capture-bound" data-testid="capture-bound">
        {tooLarge
          ? `Up to ${(bound / 1e6).toFixed(0)} MB: more than the page holds (${MAX_CAPTURE_BYTES / 1e6} MB); shorten the window.`
          : `At most about ${(bound / 1e6).toFixed(1)} MB.`}
      </p>
      {note('')}
      <button type="submit" disabled={busy || tooLarge} data-testid="capture-download">
        {busy ? 'Running…' : 'Download capture'}
      </button>
    </form>
  );
}
