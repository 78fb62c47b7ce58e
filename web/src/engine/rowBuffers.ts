// Buffers for the rows the worker posts to the page. Each batch goes over as
// a transferred ArrayBuffer; a new one per batch would be fresh memory the
// browser faults in page by page (in Chromium about a sixth of the engine
// thread's time on 100 flows), so the page hands every buffer back once it
// has copied the rows into its store, and the worker fills it again.

/** How many returned buffers the worker keeps; beyond it the smallest is dropped. */
const KEPT_BUFFERS = 8;

export class RowBuffers {
  private readonly free: ArrayBuffer[] = [];

  /** `values` copied into a kept buffer that holds them (the smallest such), or into a new one with room to spare. */
  copy(values: Float64Array): Float64Array<ArrayBuffer> {
    const copy = this.take(values.length);
    copy.set(values);
    return copy;
  }

  /**
   * An array of `length` values in a kept buffer that holds them (the smallest such), or in a new one with room
   * to spare; a kept buffer still holds what it held when it came back, so the caller writes every value.
   */
  take(length: number): Float64Array<ArrayBuffer> {
    const bytes = length * Float64Array.BYTES_PER_ELEMENT;
    let best = -1;
    this.free.forEach((buffer, i) => {
      if (buffer.byteLength >= bytes && (best < 0 || buffer.byteLength < this.free[best].byteLength)) best = i;
    });
    // A new buffer is rounded up to a power of two, so batches that grow a little still fit when it returns.
    const buffer = best >= 0 ? this.free.splice(best, 1)[0] : new ArrayBuffer(2 ** Math.ceil(Math.log2(Math.max(8, bytes))));
    return new Float64Array(buffer, 0, length);
  }

  /** Takes back a buffer the page is done with. */
  recycle(buffer: ArrayBuffer): void {
    this.free.push(buffer);
    if (this.free.length <= KEPT_BUFFERS) return;
    let smallest = 0;
    this.free.forEach((kept, i) => {
      if (kept.byteLength < this.free[smallest].byteLength) smallest = i;
    });
    this.free.splice(smallest, 1);
  }
}
