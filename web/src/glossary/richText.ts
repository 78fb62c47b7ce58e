// Lesson and caption text with glossary links: `[[ECN]]` links the entry
// named ECN, `[[round-trip time|rtt]]` shows "round-trip time" and links rtt.

export type TextPart = { kind: 'text'; text: string } | { kind: 'term'; text: string; termId: string };

const LINK = /\[\[([^\]|]+)(?:\|([^\]]+))?\]\]/g;

export function parseRichText(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const at = match.index ?? 0;
    if (at > last) parts.push({ kind: 'text', text: text.slice(last, at) });
    parts.push({ kind: 'term', text: match[1], termId: (match[2] ?? match[1]).trim() });
    last = at + match[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
