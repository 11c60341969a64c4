import { gamingOf } from '../engine/dimensions/gaming.ts';
import { keptWhole, type GateContext } from '../engine/grounding.ts';
import { prepareDocument } from '../engine/prepare.ts';
import type { Sentence } from '../engine/types.ts';

/**
 * The engine's reading of the Markdown apply works on: which sentences it scores as keyword
 * stuffing and which as filler (gaming.ts), and the gate's context (grounding.ts), so an
 * item apply offers is judged by the same rules as the engine's own recommendations.
 */
export interface EngineView {
  ctx: GateContext;
  /** Prose sentences the engine counts as keyword stuffing, in text order. */
  stuffed: Sentence[];
  /** Their texts, whitespace collapsed. */
  stuffedTexts: Set<string>;
  /** Stuffed sentences that may be cut whole (grounding.ts `keptWhole`: not a step, not advice that only repeats). */
  cuttable: Set<string>;
  /** Texts (whitespace collapsed) of the sentences of filler or unspecific paragraphs (no keyword, no fact). */
  empty: Set<string>;
}

export const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** null when the engine cannot read the text (too short, too long): apply then offers no such item. */
export const engineView = (markdown: string, keyword: string, language: string): EngineView | null => {
  let p: ReturnType<typeof prepareDocument>;
  try {
    p = prepareDocument({ content: markdown, format: 'markdown', url: null, keyword, language, benchmark: null });
  } catch {
    return null;
  }
  const g = gamingOf(p.doc, p.kw, p.an);
  const stuffed = p.doc.sentences.filter((s) => s.kind === 'prose' && g.stuffedSentences.has(s));
  return {
    ctx: { an: p.an, lex: p.lex, lang: p.language, kw: p.kw, bench: null, selfShingles: null },
    stuffed,
    stuffedTexts: new Set(stuffed.map((s) => norm(s.text))),
    cuttable: new Set(stuffed.filter((s) => !keptWhole(s.text, g.repeats.has(s), p.language)).map((s) => norm(s.text))),
    empty: new Set([...g.filler, ...g.unspecific].map((s) => norm(s.text))),
  };
};
