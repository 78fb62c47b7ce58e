import { useEffect, useState } from 'react';
import type { SeriesStore } from '../engine/seriesStore';

/**
 * Re-render the caller when `store` changes, at most once per animation
 * frame however many batches arrive in between.
 */
export function useStoreRevision(store: SeriesStore | null): number {
  const [revision, setRevision] = useState(0);
  useEffect(() => {
    if (!store) return;
    let frame = 0;
    const unsubscribe = store.subscribe(() => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        setRevision(store.revision);
      });
    });
    return () => {
      unsubscribe();
      cancelAnimationFrame(frame);
    };
  }, [store]);
  return revision;
}
