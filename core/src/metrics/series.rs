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

impl SeriesStore {
    pub fn new(columns: Vec<Column>, cap: usize, streaming: bool) -> SeriesStore {
        SeriesStore {
            columns,
            rows: Vec::new(),
            cap: cap.max(2),
            stride: 1,
            offered: 0,
            pending: Vec::new(),
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

    fn column_major(&self, rows: &[f64]) -> SeriesChunk {
        let w = self.width();
        let n = rows.len() / w.max(1);
        let mut data = vec![0.0; rows.len()];
        for (r, row) in rows.chunks(w).enumerate() {
            for (c, v) in row.iter().enumerate() {
                data[c * n + r] = *v;
            }
        }
        SeriesChunk { columns: self.columns.iter().map(|c| c.id.clone()).collect(), rows: n, data }
    }

    /// The rows added since the last drain (streaming mode only).
    pub fn drain(&mut self) -> SeriesChunk {
        let chunk = self.column_major(&self.pending);
        self.pending.clear();
        chunk
    }

    /// The whole (decimated) history.
    pub fn history(&self) -> SeriesChunk {
        self.column_major(&self.rows)
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
}
