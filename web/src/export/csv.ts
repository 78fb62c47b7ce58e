// Time series as CSV, in exactly the format of `aqm-sim run --timeseries`:
// a header of the engine's column ids, one line per sample, numbers as Rust
// prints an f64 (shortest round-trip digits, never an exponent), an empty
// cell where the engine has no value (NaN).

/** What the CSV needs of the series: the page's `SeriesStore` fits. */
export interface SeriesColumns {
  readonly columns: readonly string[];
  readonly rows: number;
  column(name: string): ArrayLike<number>;
}

/** `v` as Rust's `format!("{v}")` writes an `f64`, and NaN as an empty cell. */
export function formatCsvNumber(v: number): string {
  if (Number.isNaN(v)) return '';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const sign = v < 0 ? '-' : '';
  // toExponential() without a digit count gives the shortest digits that read back as `v`.
  const [mantissa, exponent] = Math.abs(v).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  // The decimal point goes after `point` digits (negative: that many zeros before them).
  const point = Number(exponent) + 1;
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Every row held, header first, each line ending in a newline. */
export function seriesToCsv(series: SeriesColumns): string {
  const columns = series.columns.map((name) => series.column(name));
  const lines: string[] = [series.columns.join(',')];
  const cells: string[] = new Array<string>(columns.length);
  for (let r = 0; r < series.rows; r++) {
    for (let c = 0; c < columns.length; c++) cells[c] = formatCsvNumber(columns[c][r]);
    lines.push(cells.join(','));
  }
  return lines.join('\n') + '\n';
}
