import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SeriesStore } from '../engine/seriesStore';
import { Simulation, initSync } from '../engine/pkg/aqm_core.js';
import { formatCsvNumber, seriesToCsv } from './csv';
import { exportFileName, scenarioToJson } from './documents';

function storeOf(columns: string[], rowsOfValues: number[][]): SeriesStore {
  const store = new SeriesStore(columns);
  const columnMajor = new Float64Array(columns.length * rowsOfValues.length);
  rowsOfValues.forEach((row, r) => row.forEach((value, c) => (columnMajor[c * rowsOfValues.length + r] = value)));
  store.append(rowsOfValues.length, columnMajor);
  return store;
}

describe('formatCsvNumber', () => {
  it('writes numbers as Rust prints an f64', () => {
    const cases: [number, string][] = [
      [0, '0'],
      [-0, '-0'],
      [5, '5'],
      [-12, '-12'],
      [0.1, '0.1'],
      [0.30000000000000004, '0.30000000000000004'],
      [1e-7, '0.0000001'],
      [-2.5e-10, '-0.00000000025'],
      [123456789.125, '123456789.125'],
      [1e21, '1000000000000000000000'],
      [1.5e22, '15000000000000000000000'],
      [10_000_000, '10000000'],
      [Infinity, 'inf'],
      [-Infinity, '-inf'],
    ];
    for (const [value, text] of cases) expect(formatCsvNumber(value), String(value)).toBe(text);
  });

  it('leaves NaN empty', () => {
    expect(formatCsvNumber(NaN)).toBe('');
  });

  it('reads back as the same number', () => {
    for (const value of [Math.PI, 1 / 3, 2 ** -30, 9007199254740993, 4.94e-324, 1.7976931348623157e308]) {
      expect(Number(formatCsvNumber(value))).toBe(value);
    }
  });
});

describe('seriesToCsv', () => {
  it('has the column ids as header, one line per row held, and empty cells for NaN', () => {
    const columns = ['t_s', 'queue_packets', 'goodput_bps.0', 'goodput_bps.1'];
    const store = storeOf(columns, [
      [0.01, 3, NaN, 1500000],
      [0.02, 4, 800000.5, NaN],
      [0.03, 0, 0, 0],
    ]);
    const text = seriesToCsv(store);
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('t_s,queue_packets,goodput_bps.0,goodput_bps.1');
    expect(lines).toHaveLength(1 + store.rows);
    expect(lines.slice(1)).toEqual(['0.01,3,,1500000', '0.02,4,800000.5,', '0.03,0,0,0']);
  });

  it('is only the header when no rows are held', () => {
    expect(seriesToCsv(new SeriesStore(['t_s', 'queue_packets']))).toBe('t_s,queue_packets\n');
  });

  it('holds the rows the store keeps after dropping old ones', () => {
    const store = new SeriesStore(['t_s', 'x'], 2048);
    for (let batch = 0; batch < 5; batch++) {
      const rows = 400;
      const data = new Float64Array(rows * 2);
      for (let r = 0; r < rows; r++) {
        data[r] = (batch * rows + r) / 100;
        data[rows + r] = r % 7 === 1 ? NaN : r;
      }
      store.append(rows, data);
    }
    const lines = seriesToCsv(store).trimEnd().split('\n');
    expect(lines).toHaveLength(1 + store.rows);
    expect(lines[lines.length - 1]).toBe(`${(5 * 400 - 1) / 100},${formatCsvNumber(399)}`);
  });
});

describe('exports match the CLI', () => {
  const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
  // npm test points AQM_SIM at the CLI its engine tests just built.
  const nativeCli = process.env.AQM_SIM ?? `${repoRoot}target/release/aqm-sim`;
  const wasmFile = new URL('../engine/pkg/aqm_core_bg.wasm', import.meta.url);
  const ready = existsSync(nativeCli) && existsSync(wasmFile);

  it.runIf(ready)('the time-series CSV is byte for byte what `aqm-sim run --timeseries` writes', () => {
    const scenario = JSON.parse(readFileSync(`${repoRoot}scenarios/red-vs-droptail-cbr.json`, 'utf8'));
    scenario.duration_s = 8;
    scenario.measure_from_s = 2;
    // The exported scenario file is what the CLI runs.
    const scenarioJson = scenarioToJson(scenario);

    initSync({ module: readFileSync(wasmFile) });
    const sim = new Simulation(scenarioJson);
    const store = new SeriesStore(sim.columns());
    try {
      for (let t = 0.25; !sim.isFinished(); t += 0.25) {
        sim.advanceTo(t);
        const batch = sim.drain();
        store.append(batch.rows, batch.data);
      }
    } finally {
      sim.free();
    }

    const scratch = mkdtempSync(join(tmpdir(), 'aqm-export-'));
    try {
      const csvPath = join(scratch, 'series.csv');
      execFileSync(nativeCli, ['run', '-', '--timeseries', csvPath], { input: scenarioJson, encoding: 'utf8' });
      const native = readFileSync(csvPath, 'utf8');
      expect(store.rows).toBeGreaterThan(100);
      expect(seriesToCsv(store)).toBe(native);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe('exportFileName', () => {
  it('makes a plain file name from the experiment name', () => {
    expect(exportFileName('RED with 8 TCP flows & Poisson', 'timeseries', 'csv')).toBe('aqm-lab-red-with-8-tcp-flows-poisson-timeseries.csv');
    expect(exportFileName('', 'scenario', 'json')).toBe('aqm-lab-scenario.json');
    expect(exportFileName('<b>Ünïcode</b>', 'summary', 'json')).toBe('aqm-lab-b-unicode-b-summary.json');
  });
});
