// The figures of every reproduction file, with what the sweep pool needs to
// run each: the file's text and the scenario it names (the engine applies the file's `queue` and `set`).

import { REPRODUCTIONS } from '../reproduce/reproductions';
import type { PaperFigureSpec } from '../sweep/PaperFigures';

export const PAPER_FIGURES: PaperFigureSpec[] = REPRODUCTIONS.flatMap((r) =>
  (r.file.figures ?? []).map((f) => ({
    id: f.id,
    title: f.title,
    source: f.source,
    paper: r.file.paper,
    marks: f.marks ?? [],
    marksNote: f.marks_note,
    reproductionJson: r.json,
    scenarioJson: JSON.stringify(r.named),
  })),
).sort((a, b) => a.id.localeCompare(b.id));
