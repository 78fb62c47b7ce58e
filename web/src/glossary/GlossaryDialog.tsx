// The glossary: every entry, opened at the one asked for.

import { useEffect, useRef } from 'react';
import { GLOSSARY } from './glossary';

interface GlossaryDialogProps {
  /** The entry to show first, or null for the top of the list. */
  focusId: string | null;
  onClose: () => void;
}

export function GlossaryDialog({ focusId, onClose }: GlossaryDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    const entry = focusId ? dialog.querySelector<HTMLElement>(`[data-entry="${focusId}"]`) : null;
    (entry ?? dialog.querySelector<HTMLElement>('.glossary-close'))?.focus();
    entry?.scrollIntoView({ block: 'start' });
  }, [focusId]);
  return (
    <dialog ref={dialogRef} className="glossary" aria-labelledby="glossary-title" onClose={onClose} onCancel={onClose} data-testid="glossary">
      <div className="glossary-head">
        <h2 id="glossary-title">Glossary</h2>
        <button type="button" className="glossary-close" onClick={onClose} data-testid="glossary-close">
          Close
        </button>
      </div>
      <dl>
        {GLOSSARY.map((entry) => (
          <div
            key={entry.id}
            className={entry.id === focusId ? 'glossary-entry current' : 'glossary-entry'}
            data-entry={entry.id}
            tabIndex={-1}
            data-testid={`glossary-${entry.id}`}
          >
            <dt>{entry.term}</dt>
            <dd>
              {entry.meaning}
              {entry.source && <span className="glossary-source"> ({entry.source})</span>}
            </dd>
          </div>
        ))}
      </dl>
    </dialog>
  );
}
