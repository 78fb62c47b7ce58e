// The drop-and-mark inspector's memory on the page: the newest decisions a
// run made, at most a fixed number, whatever the length of the run.

import type { DecisionRecord } from './pkg/aqm_core';

/** The decisions a run keeps on the page (the engine keeps as many between two snapshots). */
export const DECISION_RING_SIZE = 2000;

/** A bounded ring of the newest decisions, oldest first. */
export class DecisionRing {
  private readonly slots: DecisionRecord[] = [];
  /** Index of the oldest record once the ring is full. */
  private start = 0;
  /** Counts changes, so that views can tell a new content from the old. */
  revision = 0;

  constructor(readonly capacity: number = DECISION_RING_SIZE) {}

  push(records: readonly DecisionRecord[]): void {
    if (records.length === 0) return;
    for (const record of records.slice(-this.capacity)) {
      if (this.slots.length < this.capacity) {
        this.slots.push(record);
      } else {
        this.slots[this.start] = record;
        this.start = (this.start + 1) % this.capacity;
      }
    }
    this.revision += 1;
  }

  clear(): void {
    this.slots.length = 0;
    this.start = 0;
    this.revision += 1;
  }

  get size(): number {
    return this.slots.length;
  }

  /** Every record held, oldest first. */
  items(): DecisionRecord[] {
    return [...this.slots.slice(this.start), ...this.slots.slice(0, this.start)];
  }
}
