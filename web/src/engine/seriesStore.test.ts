import { describe, expect, it } from 'vitest';
import { SeriesStore } from './seriesStore';

/** `rows` rows of `t_s` and `x = 2·t`, column-major, from `t = from`. */
function batch(from: number, rows: number): Float64Array {
  const data = new Float64Array(2 * rows);
  for (let i = 0; i < rows; i++) {
    data[i] = from + i;
    data[rows + i] = 2 * (from + i);
  }
  return data;
}

describe('SeriesStore', () => {
  it('keeps every row in order until full, then drops the oldest half and keeps the newest rows in order', () => {
    // 2 048 values over two columns: 1 024 rows.
    const store = new SeriesStore(['t_s', 'x'], 2048);
    store.append(1000, batch(0, 1000));
    store.append(24, batch(1000, 24));
    expect(store.rows).toBe(1024);
    store.append(10, batch(1024, 10));
    expect(store.rows).toBe(1024 - 512 + 10);
    const t = store.column('t_s');
    expect(t[0]).toBe(512);
    expect(t[t.length - 1]).toBe(1033);
    expect(t.every((value, i) => value === 512 + i)).toBe(true);
    expect(store.column('x').every((value, i) => value === 2 * t[i])).toBe(true);
  });

  it('keeps only the newest rows of a batch larger than the whole store', () => {
    const store = new SeriesStore(['t_s', 'x'], 2048);
    store.append(3000, batch(0, 3000));
    expect(store.rows).toBe(1024);
    expect(store.column('t_s')[0]).toBe(3000 - 1024);
    expect(store.column('x')[1023]).toBe(2 * 2999);
  });
});
