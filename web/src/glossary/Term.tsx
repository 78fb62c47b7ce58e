// A word with a glossary entry: a button that opens the glossary at it.

import { createContext, useContext, type ReactNode } from 'react';
import { glossaryEntry } from './glossary';
import { parseRichText } from './richText';

/** Opens the glossary at an entry; provided by the page. */
export const GlossaryContext = createContext<(id: string) => void>(() => {});

export function Term({ id, children }: { id: string; children: ReactNode }) {
  const open = useContext(GlossaryContext);
  const entry = glossaryEntry(id);
  if (!entry) return <>{children}</>;
  return (
    <button type="button" className="term" onClick={() => open(entry.id)} title={`${entry.term}: what it means`} data-term={entry.id}>
      {children}
    </button>
  );
}

/** Text with `[[term]]` links made into glossary buttons. */
export function RichText({ text }: { text: string }) {
  return (
    <>
      {parseRichText(text).map((part, i) =>
        part.kind === 'text' ? (
          part.text
        ) : (
          <Term key={i} id={part.termId}>
            {part.text}
          </Term>
        ),
      )}
    </>
  );
}
