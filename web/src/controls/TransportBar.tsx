// Play, pause, step, reset and speed, with the simulated clock and the
// engine's event rate.

import type { RunSnapshot, Speed } from '../engine/client';
import { SKIP_TARGETS } from './SkipLinks';

interface TransportBarProps {
  snapshot: RunSnapshot | null;
  speed: Speed;
  stepS: number;
  onPlay: () => void;
  onPause: () => void;
  onStep: () => void;
  onReset: () => void;
  onSpeed: (speed: Speed) => void;
}

const SPEEDS: { value: Speed; label: string }[] = [
  { value: 0.1, label: '0.1× speed' },
  { value: 0.25, label: '0.25× speed' },
  { value: 0.5, label: '0.5× speed' },
  { value: 1, label: 'real time' },
  { value: 2, label: '2× speed' },
  { value: 5, label: '5× speed' },
  { value: 10, label: '10× speed' },
  { value: 'max', label: 'full speed' },
];

const EVENTS = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

export function TransportBar({ snapshot, speed, stepS, onPlay, onPause, onStep, onReset, onSpeed }: TransportBarProps) {
  const playing = snapshot?.playing ?? false;
  const finished = snapshot?.finished ?? false;
  const nowS = snapshot?.nowS ?? 0;
  const durationS = snapshot?.durationS ?? 0;
  return (
    <div className="transport" role="toolbar" aria-label="Simulation controls" id={SKIP_TARGETS.transport} tabIndex={-1}>
      <button
        type="button"
        className="primary play-button"
        onClick={playing ? onPause : onPlay}
        disabled={!snapshot || (finished && !playing)}
        aria-keyshortcuts="Space"
        data-testid="play-pause"
      >
        {playing ? 'Pause' : finished ? 'Finished' : 'Play'}
      </button>
      <button type="button" onClick={onStep} disabled={!snapshot || finished} title={`Advance ${stepS} s of simulated time`} data-testid="step">
        Step {stepS} s
      </button>
      <button type="button" onClick={onReset} disabled={!snapshot} title="Back to t = 0 with the current parameters" data-testid="reset">
        Reset
      </button>
      <label className="speed">
        <span className="visually-hidden">speed</span>
        <select value={String(speed)} onChange={(event) => onSpeed(event.target.value === 'max' ? 'max' : Number(event.target.value))} data-testid="speed">
          {SPEEDS.map((s) => (
            <option key={s.label} value={String(s.value)}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <div className="clock" aria-live="off">
        <span className="clock-time" data-testid="sim-time" data-seconds={nowS}>
          t = {nowS.toFixed(2)} s
        </span>
        <span className="clock-of"> / {durationS.toFixed(0)} s</span>
        <progress max={durationS || 1} value={nowS} aria-label="simulated time elapsed" />
      </div>
      <span
        className="event-rate"
        title="Engine events handled per wall-clock second"
        data-testid="event-rate"
        data-engine-memory-bytes={snapshot?.engineMemoryBytes ?? 0}
        data-events={snapshot?.events ?? 0}
      >
        {EVENTS.format(snapshot?.eventsPerSecond ?? 0)} events/s
      </span>
    </div>
  );
}
