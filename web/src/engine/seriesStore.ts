// The page's copy of a run's time series: one growable Float64Array per
// column, filled from the worker's column-major batches. Memory is bounded:
// when the store is full the oldest half of the rows is dropped, so the
// recent past stays available for scrolling back. Half, not less: what is
// kept moves to the front, and a run at full speed fills the store every
// second or so, so each row is copied about once rather than several times.

/** Values kept at most across all columns (about 64 MB). */
const DEFAULT_VALUE_BUDGET = 8_000_000;
const MIN_CAPACITY_ROWS = 1024;

export class SeriesStore {
  readonly columns: readonly string[];
  private readonly index = new Map<string, number>();
  private data: Float64Array[];
  private length = 0;
  private readonly maxRows: number;
  /** Increases with every change, so views can tell when to redraw. */
  revision = 0;
  private listeners = new Set<() => void>();

  constructor(columns: readonly string[], valueBudget = DEFAULT_VALUE_BUDGET) {
    this.columns = columns;
    columns.forEach((name, i) => this.index.set(name, i));
    this.maxRows = Math.max(MIN_CAPACITY_ROWS, Math.floor(valueBudget / Math.max(1, columns.length)));
    this.data = columns.map(() => new Float64Array(Math.min(MIN_CAPACITY_ROWS, this.maxRows)));
  }

  get rows(): number {
    return this.length;
  }

  has(name: string): boolean {
    return this.index.has(name);
  }

  /** The live values of a column (a view: valid until the next append). */
  column(name: string): Float64Array {
    const i = this.index.get(name);
    if (i === undefined) throw new Error(`no series column "${name}"`);
    return this.data[i].subarray(0, this.length);
  }

  /** Append `rows` rows given column-major, in `columns` order. */
  append(rows: number, columnMajor: Float64Array): void {
    if (rows <= 0) return;
    if (columnMajor.length !== rows * this.columns.length) {
      throw new Error(`batch of ${columnMajor.length} values does not hold ${rows} rows of ${this.columns.length} columns`);
    }
    this.makeRoom(rows);
    // A batch larger than the whole store keeps only its newest rows.
    const skip = Math.max(0, rows - this.maxRows);
    this.data.forEach((column, c) => column.set(columnMajor.subarray(c * rows + skip, (c + 1) * rows), this.length));
    this.length += rows - skip;
    this.changed();
  }

  clear(): void {
    this.length = 0;
    this.changed();
  }

  /** Call `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** First row index whose `t_s` is ≥ `timeS` (binary search; time is increasing). */
  indexAtOrAfter(timeS: number): number {
    const t = this.column('t_s');
    let lo = 0;
    let hi = t.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (t[mid] < timeS) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private changed(): void {
    this.revision += 1;
    for (const listener of this.listeners) listener();
  }

  private makeRoom(incoming: number): void {
    const needed = this.length + Math.min(incoming, this.maxRows);
    if (needed > this.maxRows) {
      const drop = Math.min(this.length, Math.max(needed - this.maxRows, Math.floor(this.maxRows / 2)));
      for (const column of this.data) column.copyWithin(0, drop, this.length);
      this.length -= drop;
    }
    const capacity = this.data[0]?.length ?? 0;
    if (this.length + incoming > capacity && capacity < this.maxRows) {
      const grown = Math.min(this.maxRows, Math.max(capacity * 2, this.length + incoming));
      this.data = this.data.map((column) => {
        const next = new Float64Array(grown);
        next.set(column.subarray(0, this.length));
        return next;
      });
    }
  }
}
