//! Column-oriented time series with bounded memory.
//!
//! Policy: at most `cap` rows are kept. When full, every other row is
//! discarded and from then on only every second sample is stored (the
//! stride doubles), so a run of any length keeps between cap/2 and cap rows
//! spread evenly over the whole run. A streaming consumer (the web app)
//! instead drains rows as they come and keeps its own window.

#[derive(Clone, Debug, serde::Serialize)]
pub struct Column {
    pub id: String,
    pub unit: &'static str,
}

#[derive(Clone, Debug)]
pub struct SeriesStore {
    pub columns: Vec<Column>,
    /// Row-major history, decimated as described above.
    rows: Vec<f64>,
    cap: usize,
    stride: u64,
    offered: u64,
    /// Rows not yet drained (row-major), when streaming.
    pending: Vec<f64>,
    /// The last drain's rows, column-major; kept so that a drain after
    /// every slice reuses one buffer instead of allocating a chunk.
    drained: Vec<f64>,
    streaming: bool,
}

/// Rows handed out by [`SeriesStore::drain`], column-major so each column is
/// one contiguous typed array.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct SeriesChunk {
    pub columns: Vec<String>,
    pub rows: usize,
    pub data: Vec<f64>,
}

impl SeriesChunk {
    pub fn column(&self, i: usize) -> &[f64] {
        &self.data[i * self.rows..(i + 1) * self.rows]
    }
}

/// Rows handed out by [`SeriesStore::drain`], column-major like
/// [`SeriesChunk`] but borrowed: the column names are the store's
/// (they never change during a run), so a drain copies none of them.
#[derive(Clone, Copy, Debug, Default)]
pub struct SeriesView<'a> {
    pub rows: usize,
    pub data: &'a [f64],
}

impl SeriesView<'_> {
    pub fn column(&self, i: usize) -> &[f64] {
        &self.data[i * self.rows..(i + 1) * self.rows]
    }
}

impl SeriesStore {
    pub fn new(columns: Vec<Column>, cap: usize, streaming: bool) -> SeriesStore {
        SeriesStore {
            columns,
            rows: Vec::new(),
            cap: cap.max(2),
            stride: 1,
            offered: 0,
            pending: Vec::new(),
            drained: Vec::new(),
            streaming,
        }
    }

    pub fn width(&self) -> usize {
        self.columns.len()
    }

    pub fn push(&mut self, row: &[f64]) {
        debug_assert_eq!(row.len(), self.width());
        if self.streaming {
            self.pending.extend_from_slice(row);
        }
        self.offered += 1;
        if !(self.offered - 1).is_multiple_of(self.stride) {
            return;
        }
        if self.len() == self.cap {
            let w = self.width();
            let kept: Vec<f64> = self.rows.chunks(w).step_by(2).flatten().copied().collect();
            self.rows = kept;
            self.stride *= 2;
            if !(self.offered - 1).is_multiple_of(self.stride) {
                return;
            }
        }
        self.rows.extend_from_slice(row);
    }

    pub fn len(&self) -> usize {
        self.rows.len() / self.width().max(1)
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    pub fn row(&self, i: usize) -> &[f64] {
        let w = self.width();
        &self.rows[i * w..(i + 1) * w]
    }

    /// The column ids, in the order of every drained or history column.
    pub fn column_ids(&self) -> Vec<String> {
        self.columns.iter().map(|c| c.id.clone()).collect()
    }

    /// Writes row-major `rows` of this store's width into `data` column-major
    /// and returns the number of rows.
    fn column_major(width: usize, rows: &[f64], data: &mut Vec<f64>) -> usize {
        let n = rows.len() / width.max(1);
        data.clear();
        data.resize(rows.len(), 0.0);
        for (r, row) in rows.chunks(width).enumerate() {
            for (c, v) in row.iter().enumerate() {
                data[c * n + r] = *v;
            }
        }
        n
    }

    /// The rows added since the last drain (streaming mode only), valid
    /// until the next drain.
    pub fn drain(&mut self) -> SeriesView<'_> {
        let rows = Self::column_major(self.width(), &self.pending, &mut self.drained);
        self.pending.clear();
        SeriesView { rows, data: &self.drained }
    }

    /// The whole (decimated) history.
    pub fn history(&self) -> SeriesChunk {
        let mut data = Vec::new();
        let rows = Self::column_major(self.width(), &self.rows, &mut data);
        SeriesChunk { columns: self.column_ids(), rows, data }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(cap: usize) -> SeriesStore {
        let cols = vec![Column { id: "t".into(), unit: "s" }, Column { id: "x".into(), unit: "" }];
        SeriesStore::new(cols, cap, true)
    }

    #[test]
    fn decimation_keeps_memory_bounded_and_spacing_even() {
        let mut s = store(100);
        for i in 0..10_000 {
            s.push(&[i as f64, 2.0 * i as f64]);
        }
        assert!(s.len() <= 100 && s.len() >= 50, "{}", s.len());
        let t: Vec<f64> = (0..s.len()).map(|i| s.row(i)[0]).collect();
        let gap = t[1] - t[0];
        assert!(t.windows(2).all(|w| w[1] - w[0] == gap), "uneven spacing");
        assert_eq!(t[0], 0.0);
        assert!(*t.last().unwrap() > 9_000.0);
    }

    #[test]
    fn drain_returns_each_row_once_column_major() {
        let mut s = store(4);
        for i in 0..3 {
            s.push(&[i as f64, 10.0 + i as f64]);
        }
        let c = s.drain();
        assert_eq!(c.rows, 3);
        assert_eq!(c.column(0), &[0.0, 1.0, 2.0]);
        assert_eq!(c.column(1), &[10.0, 11.0, 12.0]);
        assert_eq!(s.drain().rows, 0);
    }

    #[test]
    fn drain_after_a_larger_drain_holds_only_the_new_rows() {
        let mut s = store(8);
        for i in 0..3 {
            s.push(&[i as f64, 10.0 + i as f64]);
        }
        s.drain();
        s.push(&[3.0, 13.0]);
        let c = s.drain();
        assert_eq!((c.rows, c.data), (1, &[3.0, 13.0][..]));
        assert_eq!(s.column_ids(), ["t", "x"]);
    }
}
