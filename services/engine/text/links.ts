import type { Block } from '../types.ts';
import { splitSentences } from './segment.ts';

/**
 * Links between adjacent passages that an edit must not cut: a sentence ending in a colon and the
 * list or paragraph it announces, a sentence announcing what follows ("below", "poniżej",
 * "folgende"), and a sentence that refers back to the one before ("These …", "Te …", "Diese …").
 * A change that separates the two (moves one away, puts something between them) breaks the text.
 */

// Demonstratives, and the connectives that open a sentence by leaning on the one before ("Then …").
const BACK_REF =
  /^(?:these|this|those|they|such|both|then|therefore|thus|te|ten|ta|to|tych|takie|oba|obie|wtedy|więc|dlatego|zatem|diese|dieser|dieses|solche|beide|dann|daher|deshalb|deswegen)(?![\p{L}])/iu;
/** A question and the sentence that answers it (a question heading included): the answer must stay. */
const QUESTION = /\?\s*$/u;
const FORWARD =
  /(?:^|[^\p{L}])(?:below|following|as follows|poniżej|poniższ\p{L}*|następując\p{L}*|oto|unten|folgend\p{L}*|nachstehend\p{L}*)(?![\p{L}])/iu;

export interface PassageLink {
  first: string;
  second: string;
  why: string;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
const textOf = (b: Block) => norm(b.kind === 'list' || b.kind === 'table' ? b.items.join(' ') : b.text);
const sentencesOf = (b: Block, t: string) => (b.kind === 'paragraph' || b.kind === 'quote' ? splitSentences(t) : [t]);

export const passageLinks = (blocks: Block[]): PassageLink[] => {
  const xs = blocks.map((b) => ({ b, t: textOf(b) })).filter((x) => x.t);
  const links: PassageLink[] = [];
  for (let i = 0; i < xs.length; i++) {
    const a = xs[i]!;
    const aS = sentencesOf(a.b, a.t);
    if (a.b.kind === 'paragraph') {
      for (let j = 1; j < aS.length; j++)
        if (BACK_REF.test(aS[j]!)) links.push({ first: aS[j - 1]!, second: aS[j]!, why: 'refers back' });
        else if (QUESTION.test(aS[j - 1]!)) links.push({ first: aS[j - 1]!, second: aS[j]!, why: 'answers' });
    }
    const b = xs[i + 1];
    if (b && a.b.kind === 'heading' && b.b.kind !== 'heading' && QUESTION.test(a.t))
      links.push({ first: a.t, second: sentencesOf(b.b, b.t)[0] ?? '', why: 'answers' });
    if (!b || a.b.kind === 'heading' || b.b.kind === 'heading') continue;
    const last = aS[aS.length - 1] ?? '';
    const first = sentencesOf(b.b, b.t)[0] ?? '';
    if (/:$/.test(last)) links.push({ first: last, second: first, why: 'colon' });
    else if (QUESTION.test(last)) links.push({ first: last, second: first, why: 'answers' });
    else if (BACK_REF.test(first)) links.push({ first: last, second: first, why: 'refers back' });
    else if (FORWARD.test(last)) links.push({ first: last, second: first, why: 'announces' });
  }
  return links;
};

/**
 * The links broken in the changed blocks: both passages still there but no longer adjacent, or the
 * lead-in cut while what it leads into stays (a list without its colon sentence, "These …" without
 * what they refer to).
 */
export const brokenLinks = (links: PassageLink[], changed: Block[]): PassageLink[] => {
  if (!links.length) return [];
  const plain = changed.map(textOf).filter(Boolean).join(' ');
  return links.filter((l) => {
    const a = plain.indexOf(l.first);
    const b = plain.indexOf(l.second);
    // A question kept while its answer is cut leaves the reader without the answer.
    if (l.why === 'answers' && a >= 0 && b < 0 && l.second) return true;
    // A lead-in shortened at its start (a filler phrase cut) still ends where it did: not a cut.
    if (a < 0 && b >= 0) return !plain.slice(Math.max(0, b - l.first.length - 2), b).includes(l.first.slice(-12));
    return a >= 0 && b >= 0 && norm(plain.slice(a + l.first.length, b)) !== '';
  });
};
