/** A sentence taken out of its paragraph (`from`) and put at the start of the block `to`. */
export interface Move {
  kind: 'move';
  sentence: string;
  from: string;
  to: string;
}

/** One replacement on the original text: [start, end) becomes text. */
export interface Span {
  start: number;
  end: number;
  text: string;
}

/**
 * The two replacements of a move, on the original text: the sentence out (with one neighbouring
 * space, or with its whole paragraph and the blank line after it when it was the paragraph), and
 * the sentence in, as the first sentence of `to` when it comes from that same paragraph and as a
 * paragraph of its own before `to` otherwise. null when a piece is not found verbatim.
 */
export const moveSpans = (markdown: string, m: Move): [Span, Span] | null => {
  const fromAt = markdown.indexOf(m.from);
  const toAt = markdown.indexOf(m.to);
  const inFrom = m.from.indexOf(m.sentence);
  if (fromAt < 0 || toAt < 0 || inFrom < 0 || m.sentence === '' || m.to === '') return null;
  let start = fromAt + inFrom;
  let end = start + m.sentence.length;
  if (m.from.trim() === m.sentence.trim()) {
    start = fromAt;
    end = fromAt + m.from.length;
    while (markdown[end] === '\n') end++;
  } else if (markdown[start - 1] === ' ') start--;
  else if (markdown[end] === ' ') end++;
  const same = m.from === m.to;
  const sentence = m.sentence.replace(/\s*\n\s*/g, ' ');
  const insert = { start: toAt, end: toAt, text: same ? `${sentence} ` : `${sentence}\n\n` };
  return [insert, { start, end, text: '' }];
};

/** The text with non-overlapping spans applied (positions are on the text as given). */
export const applySpans = (text: string, spans: readonly Span[]): string =>
  [...spans].sort((a, b) => b.start - a.start).reduce((t, s) => t.slice(0, s.start) + s.text + t.slice(s.end), text);
