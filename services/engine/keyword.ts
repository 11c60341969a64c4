import { AppError } from '../shared/errors.ts';
import type { Analyzer } from './document.ts';
import { createAnalyzer } from './document.ts';
import type { Block, Intent, KeywordInfo } from './types.ts';
import { lexiconFor } from './text/lexicon.ts';
import { tokenize } from './text/segment.ts';

/**
 * The keyword: auto-detection when none is supplied, and its parts (central entity, verb, intent).
 */

/** Times the keyphrase occurs in a sentence: every content stem of it must occur (Yoast's "match"). */
export const occurrences = (s: { stems: string[] }, kwStems: string[]): number => {
  if (!kwStems.length) return 0;
  let min = Infinity;
  for (const k of kwStems) {
    let n = 0;
    for (const st of s.stems) if (st === k) n++;
    if (n < min) min = n;
    if (min === 0) return 0;
  }
  return min;
};

export const containsAll = (stems: Iterable<string>, need: string[]): boolean => {
  const set = stems instanceof Set ? (stems as Set<string>) : new Set(stems);
  return need.length > 0 && need.every((k) => set.has(k));
};

/** Share of `need` found in `stems`. */
export const coverage = (stems: Iterable<string>, need: string[]): number => {
  if (!need.length) return 0;
  const set = stems instanceof Set ? (stems as Set<string>) : new Set(stems);
  return need.filter((k) => set.has(k)).length / need.length;
};

const YEAR = /^(19|20)\d\d$/;
const CONNECTORS = new Set(['vs', 'versus', 'czy', 'oder', 'or', 'vs.']);

export const describeKeyword = (keyword: string, an: Analyzer): KeywordInfo => {
  const lex = lexiconFor(an.lang);
  const lower = keyword.toLowerCase().trim();
  const words = tokenize(lower);
  let intent: Intent = 'informational';
  const has = (list: string[]) => list.some((m) => (m.includes(' ') ? lower.includes(m) : words.includes(m)));
  if (has(lex.intent.transactional)) intent = 'transactional';
  else if (has(lex.intent.commercial)) intent = 'commercial';
  else if (has(lex.intent.local)) intent = 'local';
  const modifiers = new Set([...lex.intent.informational, ...lex.intent.commercial, ...lex.intent.transactional, ...lex.intent.local.filter((m) => !m.includes(' '))]);
  let verb = '';
  const isVerb = (w: string, i: number) =>
    lex.verbs.includes(w) || (an.lang === 'pl' && /ć$/.test(w) && w.length > 3) || (an.lang === 'en' && i > 0 && words[i - 1] === 'to');
  const entityWords: string[] = [];
  words.forEach((w, i) => {
    if (!verb && isVerb(w, i)) verb = w;
    else if (!modifiers.has(w) && !YEAR.test(w)) entityWords.push(w);
  });
  // Trim stop words at the edges ("how to", "do"), keep them inside ("ekspres do kawy").
  while (entityWords.length && an.stop.has(entityWords[0] ?? '')) entityWords.shift();
  while (entityWords.length && an.stop.has(entityWords[entityWords.length - 1] ?? '')) entityWords.pop();
  const entity = entityWords.join(' ');
  return {
    text: keyword.trim(),
    // Matching (density) uses the phrase without comparison connectors ("vs", "czy"), which
    // writers do not repeat in every sentence that mentions both sides.
    stems: [...new Set(an.contentStems(words.filter((w) => !CONNECTORS.has(w)).join(' ')))],
    entity,
    entityStems: [...new Set(an.contentStems(entity))],
    verb,
    verbStem: verb ? an.stem(verb) : '',
    intent,
  };
};

interface Candidate { key: string; freq: number; surfaces: Map<string, number>; inTitle: boolean; inHeadings: number; n: number; firstPos: number }

/**
 * Auto-detects the keyword (spec 4.2): the most prominent 1-3-word phrase, weighing frequency in the
 * body, presence in the title/H1 and in subheadings. Inflected forms are grouped by stems; the
 * surface form shown is the one in the title when it is there, else the most frequent.
 */
export const detectKeyword = (title: string, blocks: Block[], sentences: string[], kwLang: 'pl' | 'en' | 'de'): string => {
  const an = createAnalyzer(kwLang);
  const cands = new Map<string, Candidate>();
  let pos = 0;
  const addPhrases = (t: string, where: 'body' | 'title' | 'heading') => {
    const ws = tokenize(t);
    for (let i = 0; i < ws.length; i++) {
      const first = ws[i] ?? '';
      if (an.stop.has(first) || first.length < 3 || /\d/.test(first)) continue;
      let internalStops = 0;
      for (let j = i; j < Math.min(ws.length, i + 4); j++) {
        const w = ws[j] ?? '';
        if (/\d/.test(w)) break;
        if (an.stop.has(w)) {
          if (++internalStops > 1 || j === i) break;
          continue;
        }
        if (w.length < 3) break;
        const slice = ws.slice(i, j + 1);
        const contentCount = slice.filter((x) => !an.stop.has(x)).length;
        if (contentCount > 3) break;
        const key = slice.map((x) => (an.stop.has(x) ? '_' : an.stem(x))).join(' ');
        let c = cands.get(key);
        if (!c) {
          c = { key, freq: 0, surfaces: new Map(), inTitle: false, inHeadings: 0, n: contentCount, firstPos: pos };
          cands.set(key, c);
        }
        const surface = slice.join(' ');
        if (where === 'body') {
          c.freq++;
          c.surfaces.set(surface, (c.surfaces.get(surface) ?? 0) + 1);
        } else if (where === 'title') {
          c.inTitle = true;
          c.surfaces.set(surface, (c.surfaces.get(surface) ?? 0) + 1000);
        } else c.inHeadings++;
      }
      pos++;
    }
  };
  addPhrases(title, 'title');
  for (const b of blocks) if (b.kind === 'heading') addPhrases(b.text, b.level === 1 ? 'title' : 'heading');
  for (const s of sentences) addPhrases(s, 'body');
  const ranked: { c: Candidate; score: number }[] = [];
  for (const c of cands.values()) {
    if (c.freq < 2 && !(c.inTitle && c.freq >= 1)) continue;
    const lengthBonus = c.n === 1 ? 0.7 : c.n === 2 ? 1.7 : 1.5;
    const score = c.freq * lengthBonus * (1 + (c.inTitle ? 2 : 0) + Math.min(2, 0.5 * c.inHeadings));
    if (score >= 3) ranked.push({ c, score });
  }
  ranked.sort((a, b) => b.score - a.score || a.c.firstPos - b.c.firstPos || (a.c.key < b.c.key ? -1 : 1));
  // A longer phrase holding a candidate's words wins when it scores at least 40% as much
  // ("espresso machine" over "machine"); a verb alone ("descale") cannot carry a CSI.
  for (const { c, score } of ranked) {
    const longer = ranked.find((x) => x.c.n > c.n && ` ${x.c.key} `.includes(` ${c.key} `) && x.score >= score * 0.4);
    for (const pick of longer ? [longer.c, c] : [c]) {
      const surfaces = [...pick.surfaces.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      const phrase = surfaces[0]?.[0] ?? pick.key;
      if (describeKeyword(phrase, an).entity) return phrase;
    }
  }
  throw new AppError('keyword_required', 'No keyword was given and none could be detected in the content; supply a keyword.');
};
