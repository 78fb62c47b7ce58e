// The worker's buffers for posted rows: a returned buffer is filled again
// when a batch fits it, so a steady run allocates no new buffer per batch.

import { describe, expect, it } from 'vitest';
import { RowBuffers } from './rowBuffers';

const values = (n: number) => Float64Array.from({ length: n }, (_, i) => i + 0.5);

describe('RowBuffers', () => {
  it('copies the values exactly, into a new buffer while none has come back', () => {
    const buffers = new RowBuffers();
    const source = values(5);
    const copy = buffers.copy(source);
    expect(Array.from(copy)).toEqual(Array.from(source));
    expect(copy.buffer).not.toBe(source.buffer);
    expect(copy.buffer.byteLength).toBeGreaterThanOrEqual(source.byteLength);
  });

  it('fills a returned buffer again, with the new batch’s length, when it fits', () => {
    const buffers = new RowBuffers();
    const first = buffers.copy(values(100));
    buffers.recycle(first.buffer as ArrayBuffer);
    const second = buffers.copy(values(60));
    expect(second.buffer).toBe(first.buffer);
    expect(second.length).toBe(60);
    expect(Array.from(second)).toEqual(Array.from(values(60)));
  });

  it('takes a new buffer for a batch no returned buffer holds, and keeps the small one for later', () => {
    const buffers = new RowBuffers();
    const small = buffers.copy(values(4)).buffer as ArrayBuffer;
    buffers.recycle(small);
    const large = buffers.copy(values(1000));
    expect(large.buffer).not.toBe(small);
    expect(buffers.copy(values(4)).buffer).toBe(small);
  });

  it('picks the smallest returned buffer that holds the batch', () => {
    const buffers = new RowBuffers();
    const sizes = [4096, 256, 1024].map((bytes) => new ArrayBuffer(bytes));
    sizes.forEach((buffer) => buffers.recycle(buffer));
    expect(buffers.copy(values(20)).buffer).toBe(sizes[1]);
    expect(buffers.copy(values(20)).buffer).toBe(sizes[2]);
  });

  it('hands out a returned buffer for values the caller writes itself, with the length asked for', () => {
    const buffers = new RowBuffers();
    const returned = new ArrayBuffer(1024);
    buffers.recycle(returned);
    const taken = buffers.take(100);
    expect(taken.buffer).toBe(returned);
    expect(taken.length).toBe(100);
    expect(buffers.take(100).buffer).not.toBe(returned);
  });

  it('keeps eight buffers at most, dropping the smallest', () => {
    const buffers = new RowBuffers();
    const kept = Array.from({ length: 9 }, (_, i) => new ArrayBuffer(16 << i));
    kept.forEach((buffer) => buffers.recycle(buffer));
    // The 16-byte buffer was dropped: one value now goes into the 32-byte one.
    expect(buffers.copy(values(1)).buffer).toBe(kept[1]);
  });
});
