// "Export": the run's files. The time series as CSV (the format of
// `aqm-sim run --timeseries`), the summary as JSON (as `aqm-sim run` prints
// it), the running scenario as JSON (which `aqm-sim run` takes as-is) and a
// Wireshark capture of a hop (as `aqm-sim run --pcap` writes it).

import { useEffect, useId, useRef, useState } from 'react';
import type { CaptureFiles } from '../engine/pkg/aqm_core';
import { CaptureForm } from '../export/CaptureForm';
import { seriesToCsv, type SeriesColumns } from '../export/csv';
import { exportFileName, scenarioToJson, summaryToJson } from '../export/documents';
import { downloadText } from '../export/download';
import type { ResolvedPlan, Scenario, Summary } from '../scenario/types';

interface ExportMenuProps {
  /** The rows the page holds now (read when the file is made). */
  series: SeriesColumns | null;
  /** The complete summary now (read when the file is made: it may be large). */
  summary: (() => Summary) | null;
  /** The running scenario with the current parameter values, as the share link carries it. */
  scenario: Scenario;
  /** The engine's plan of the running experiment (null before one is loaded). */
  plan: ResolvedPlan | null;
  /** In compare mode, the partner's run: its files are offered too. */
  partner?: { name: string; series: SeriesColumns | null; summary: (() => Summary) | null };
  /** Run a scenario to its end in the worker and capture a hop (the engine client's `capture`). */
  capture: (scenarioJson: string, hop: number, fromS: number, toS: number) => Promise<CaptureFiles>;
}

export function ExportMenu({ series, summary, scenario, plan, partner, capture }: ExportMenuProps) {
  const [open, setOpen] = useState(false);
  const [capturing, setCapturing] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
    const closeOutside = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  const close = () => {
    setOpen(false);
    setCapturing(false);
    toggleRef.current?.focus();
  };

  const save = (make: () => void) => {
    make();
    close();
  };

  return (
    <div
      className="export"
      ref={rootRef}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.preventDefault();
          close();
        }
      }}
      onBlur={(event) => {
        if (open && !rootRef.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        type="button"
        ref={toggleRef}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => {
          setOpen((was) => !was);
          setCapturing(false);
        }}
        data-testid="export-toggle"
      >
        Export
      </button>
      {open && (
        <div className="export-menu" id={menuId} ref={menuRef} role="group" aria-label="Export files">
          <RunFiles
            series={series}
            summary={summary}
            fileName={scenario.name}
            labels={{ series: 'Time series (CSV)', summary: 'Summary (JSON)' }}
            testId="export"
            onSave={save}
          />
          <button
            type="button"
            onClick={() => save(() => downloadText(scenarioToJson(scenario), exportFileName(scenario.name, 'scenario', 'json'), 'application/json'))}
            data-testid="export-scenario"
          >
            Scenario (JSON)
          </button>
          <button type="button" aria-expanded={capturing} onClick={() => setCapturing((was) => !was)} data-testid="export-capture">
            Capture (pcap)…
          </button>
          {capturing && plan && <CaptureForm scenario={scenario} plan={plan} capture={capture} onDone={close} />}
          {partner && (
            <RunFiles
              series={partner.series}
              summary={partner.summary}
              fileName={`${scenario.name} ${partner.name}`}
              labels={{ series: `${partner.name}: time series (CSV)`, summary: `${partner.name}: summary (JSON)` }}
              testId="export-partner"
              onSave={save}
            />
          )}
        </div>
      )}
    </div>
  );
}

interface RunFilesProps {
  series: SeriesColumns | null;
  summary: (() => Summary) | null;
  /** What the file names are made from. */
  fileName: string | undefined;
  labels: { series: string; summary: string };
  /** Prefix of the buttons' test ids (`-timeseries`, `-summary`). */
  testId: string;
  onSave: (make: () => void) => void;
}

/** One run's files: its time series as CSV and its summary as JSON. */
function RunFiles({ series, summary, fileName, labels, testId, onSave }: RunFilesProps) {
  return (
    <>
      <button
        type="button"
        disabled={!series}
        onClick={() => onSave(() => series && downloadText(seriesToCsv(series), exportFileName(fileName, 'timeseries', 'csv'), 'text/csv'))}
        data-testid={`${testId}-timeseries`}
      >
        {labels.series}
      </button>
      <button
        type="button"
        disabled={!summary}
        onClick={() => onSave(() => summary && downloadText(summaryToJson(summary()), exportFileName(fileName, 'summary', 'json'), 'application/json'))}
        data-testid={`${testId}-summary`}
      >
        {labels.summary}
      </button>
    </>
  );
}
