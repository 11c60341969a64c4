import { AppError } from '../../core/errors.ts';
import type { Analyzer } from './document.ts';
import { createAnalyzer } from './document.ts';
import type { Block, Intent, KeywordInfo } from './types.ts';
import {
  bodyStemsOf,
  entitySpan,
  holdsHead,
  phraseHead,
  runCount,
  titleHead,
  type BodyStems,
  type Head,
} from './headNoun.ts';
import { ALL_INTENTS, intentModifiers, lexiconFor } from './text/lexicon.ts';
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

/**
 * The stems name the central entity: half its stems or more, or in German a compound whose last
 * part is it ("Fahrradkette" names "Kette").
 */
export const namesEntity = (stems: string[], ce: string[], lang: string): boolean =>
  coverage(stems, ce) >= 0.5 || (lang === 'de' && ce.filter((c) => holdsHead(stems, c, lang)).length * 2 >= ce.length);

/** The central entity's stems, or the keyword's where it names none. */
export const entityStemsOf = (kw: KeywordInfo): string[] => (kw.entityStems.length ? kw.entityStems : kw.stems);

/** The query's own stems as typed: its subject, its entity and its intent words ("opinie", "best"). */
export const queryStems = (kw: KeywordInfo, an: Analyzer): string[] => [
  ...new Set([...kw.stems, ...kw.entityStems, ...an.contentStems(kw.text)]),
];

const YEAR = /^(19|20)\d\d$/;
const CONNECTORS = new Set(['vs', 'versus', 'czy', 'oder', 'or', 'vs.']);

/**
 * The keyword's parts. With the page's sentences (as stems), the central entity is cut to the span
 * around the head noun that the page repeats ("descale kettle citric acid" → "kettle").
 */
export const describeKeyword = (
  keyword: string,
  an: Analyzer,
  body?: BodyStems,
  nouns: Set<string> | null = null,
): KeywordInfo => {
  const lex = lexiconFor(an.lang);
  const lower = keyword.toLowerCase().trim();
  const words = tokenize(lower);
  const has = (list: string[]) => list.some((m) => (m.includes(' ') ? lower.includes(m) : words.includes(m)));
  const modifiers = intentModifiers(lex, ['informational', 'commercial', 'transactional', 'local']);
  let verb = '';
  const isVerb = (w: string, i: number) =>
    lex.verbs.includes(w) ||
    (an.lang === 'pl' && /ć$/.test(w) && w.length > 3) ||
    (an.lang === 'en' && i > 0 && words[i - 1] === 'to');
  const entityWords: string[] = [];
  words.forEach((w, i) => {
    if (!verb && isVerb(w, i)) verb = w;
    else if (!modifiers.has(w) && !YEAR.test(w)) entityWords.push(w);
  });
  // Trim stop words at the edges ("how to", "do"), keep them inside ("ekspres do kawy").
  while (entityWords.length && an.stop.has(entityWords[0] ?? '')) entityWords.shift();
  while (entityWords.length && an.stop.has(entityWords[entityWords.length - 1] ?? '')) entityWords.pop();
  // A connector between two names ("golf oder polo", "jaguar vs leopard"), not a question's "czy".
  const compares =
    words.slice(1, -1).some((w) => CONNECTORS.has(w)) || has(lex.intent.comparison.filter((m) => !CONNECTORS.has(m)));
  // Both sides of a comparison are its entity; elsewhere the head noun's span.
  const entity = (body && !compares ? entitySpan(entityWords, body, an, nouns) : entityWords).join(' ');
  const intent: Intent = has(lex.intent.local)
    ? 'local'
    : compares
      ? 'comparison'
      : has(lex.intent.transactional)
        ? 'transactional'
        : has(lex.intent.commercial)
          ? 'commercial'
          : has(lex.intent.instructional) || (verb && !has(lex.intent.question))
            ? 'instructional'
            : 'informational';
  return {
    text: keyword.trim(),
    // Matching (density) uses the phrase without comparison connectors ("vs", "czy"), which
    // writers do not repeat in every sentence that mentions both sides.
    // Intent modifiers ("best", "review", "opinie", "kaufen") say what the searcher wants, not words
    // the answer repeats: a review names the car in every paragraph, "opinie" in few.
    stems: matchStems(words, modifiers, an),
    entity,
    entityStems: [...new Set(an.contentStems(entity))],
    verb,
    verbStem: verb ? an.stem(verb) : '',
    intent,
  };
};

/**
 * The keyword as a reader names its subject: without the question or instruction words and intent
 * modifiers at its edges ("co to jest próchnica" → "próchnica", "best cordless trimmer" → "cordless
 * trimmer"), so advice to name it in the text never asks for the search query itself.
 */
export const subjectPhrase = (kw: KeywordInfo, an: Analyzer): string => {
  const lex = lexiconFor(an.lang);
  const edge = new Set([...intentModifiers(lex, ALL_INTENTS), ...CONNECTORS]);
  const typed = kw.text.split(/\s+/).filter(Boolean);
  const words = typed.map((w) => w.toLowerCase());
  const drop = (w: string) => edge.has(w) || an.stop.has(w) || (kw.verb !== '' && w === kw.verb);
  let a = 0;
  let b = words.length;
  while (a < b && drop(words[a]!)) a++;
  while (b > a && drop(words[b - 1]!)) b--;
  if (a >= b) return kw.text;
  // As typed; a German subject typed in lower case gets its nouns' capitals ("reifen" → "Reifen").
  const subject = typed.slice(a, b);
  return (
    an.lang === 'de' && subject.every((w) => w === w.toLowerCase())
      ? subject.map((w) => (an.stop.has(w) ? w : w.charAt(0).toLocaleUpperCase('de') + w.slice(1)))
      : subject
  ).join(' ');
};

/** The keyphrase's content stems for matching, without connectors and (when a subject stays) modifiers. */
function matchStems(words: string[], modifiers: Set<string>, an: Analyzer): string[] {
  const all = words.filter((w) => !CONNECTORS.has(w));
  const subject = all.filter((w) => !modifiers.has(w));
  const stems = (ws: string[]) => [...new Set(an.contentStems(ws.join(' ')))];
  const kept = stems(subject);
  return kept.length ? kept : stems(all);
}

/**
 * A local keyword ("kosmetyczka toruń", "emergency plumber reading"): the place says where the
 * searcher wants the service, as an intent modifier says what they want. A page names its city in
 * the title, the address and the areas it serves, in its own grammar ("w Toruniu"), not beside the
 * service in every sentence, so the central entity is the service and a sentence naming the
 * service is a natural use of the keyphrase (density.ts).
 */
const localKeyword = (kw: KeywordInfo, placeStems: Set<string>, an: Analyzer): KeywordInfo => {
  const entity = tokenize(kw.entity)
    .filter((w) => !placeStems.has(an.stem(w)))
    .join(' ');
  const entityStems = [...new Set(an.contentStems(entity))];
  // The keyphrase stays whole for the over-use gate: "maler leipzig" said in every line is stuffing.
  if (!entityStems.length) return { ...kw, intent: 'local' };
  return { ...kw, intent: 'local', entity, entityStems, wholeUse: entityStems };
};

/**
 * A report's keyword ("perth bus strike", "wawel podwyżka cen"): the place is where the event
 * happened, stated in the lead and the dateline; the report then names the event by its head ("the
 * strike", "podwyżka"), and such a sentence is a natural use of the keyphrase (density.ts). The
 * keyword, its entity and intent stay as they are.
 */
const newsKeyword = (kw: KeywordInfo, placeStems: Set<string>, an: Analyzer): KeywordInfo => {
  const event = tokenize(kw.entity).filter((w) => !an.stop.has(w) && !placeStems.has(an.stem(w)));
  const head = phraseHead(event, an.lang);
  return head ? { ...kw, wholeUse: [an.stem(head)] } : kw;
};

/**
 * The page writes the word as a name: capitalised inside its sentences, twice or more, never in
 * lower case. Not in German, which capitalises every noun.
 */
const namedInText = (word: string, text: string, an: Analyzer): boolean => {
  if (an.lang === 'de') return false;
  const stem = an.stem(word);
  if (!stem || an.stop.has(word)) return false;
  let upper = 0;
  // Counted after a lower-case word ("plumber Reading"); after a capitalised one it may end a longer
  // name ("Acme Roadster", a product's or a firm's) or a title-case heading: not counted.
  for (const m of text.matchAll(/(?<=(\p{L}+),? )(\p{L}+)/gu)) {
    const [, before = '', w = ''] = m;
    if (an.stem(w.toLowerCase()) !== stem) continue;
    if (w.charAt(0) === w.charAt(0).toLowerCase()) return false;
    if (before.charAt(0) === before.charAt(0).toLowerCase()) upper++;
  }
  return upper >= 2;
};

/**
 * The keyword ends in a name after a common noun ("kosmetyczka toruń", "plumber reading"): a
 * service followed by a name is how a local search is typed.
 */
const namedAtEnd = (words: string[], text: string, an: Analyzer): boolean =>
  words.length >= 2 && namedInText(words[words.length - 1] ?? '', text, an);

/**
 * Intent the words alone cannot show, read from the page: a keyword word used as a place ("in
 * Leipzig", "w Gdańsku", twice or more, capitalised after a locative preposition) makes the intent
 * local; a German keyword whose last word is an infinitive the text never capitalises ("mutter
 * lösen") is instructional.
 */
export const refineIntent = (
  kw: KeywordInfo,
  text: string,
  an: Analyzer,
  /** The page reports an event: a place in its keyword is where it happened, not where to find a service. */
  reportsNews = false,
): KeywordInfo => {
  if (kw.intent !== 'informational' && kw.intent !== 'instructional' && kw.intent !== 'commercial') return kw;
  const lex = lexiconFor(an.lang);
  const words = tokenize(kw.text.toLowerCase());
  // A service's place follows it; an event's may lead ("perth bus strike").
  const stems = new Set((reportsNews ? words : words.slice(1)).map(an.stem));
  const preps = new Set(lex.intent.locative);
  const places = new Map<string, number>();
  // The lookbehind starts a match only at a word's start: without it a long run of letters is
  // retried from every one of its positions (quadratic).
  const re = /(?<!\p{L})(\p{L}+)\s+(\p{Lu}[\p{L}-]+)/gu;
  for (const m of text.matchAll(re)) {
    if (!preps.has((m[1] ?? '').toLowerCase())) continue;
    const st = an.stem((m[2] ?? '').toLowerCase());
    if (stems.has(st)) places.set(st, (places.get(st) ?? 0) + 1);
  }
  const placeStems = new Set([...places].filter(([, n]) => n >= 2).map(([st]) => st));
  const last = words[words.length - 1] ?? '';
  if (!placeStems.size && namedAtEnd(words, text, an)) placeStems.add(an.stem(last));
  // A report names where it happened wherever the keyword puts it ("perth bus strike").
  if (reportsNews) for (const w of words) if (namedInText(w, text, an)) placeStems.add(an.stem(w));
  if (placeStems.size) return reportsNews ? newsKeyword(kw, placeStems, an) : localKeyword(kw, placeStems, an);
  if (kw.intent === 'informational' && an.lang === 'de' && words.length >= 2 && /(?:en|ern|eln)$/.test(last)) {
    const cap = last.charAt(0).toLocaleUpperCase('de') + last.slice(1);
    if (
      new RegExp(`(^|[^\\p{L}])${last}([^\\p{L}]|$)`, 'u').test(text) &&
      !new RegExp(`[\\p{Ll},] ${cap}([^\\p{L}]|$)`, 'u').test(text)
    )
      return { ...kw, intent: 'instructional' };
  }
  return kw;
};

const SEGMENT = /[:;,.!?()[\]{}|–—"„”“«»]+|\s-\s/;
const LENGTH_FACTOR = [0, 0.5, 1, 0.95, 0.8];

interface Candidate {
  key: string;
  stems: string[];
  n: number;
  zones: Map<string, number>;
  surfaces: Map<string, number>;
  complete: boolean;
  /** Holds a function word inside ("zakwas na chleb"): a phrase only where a title or H1 writes it. */
  inner: boolean;
  /** Found in the title's opening clause, which names the topic (later clauses name details). */
  lead: boolean;
  /**
   * The stems as first written, function words too, when a preposition of purpose stands inside
   * ("grinder for home"); else null. Such a phrase is a name ("rośliny do cienia") only where the
   * body writes it so: otherwise it is a subject and whom it serves, cut where the title cut it.
   */
  served: string[] | null;
  firstPos: number;
}

/**
 * Auto-detects the keyword (spec 4.2): the most prominent 2-4-word noun phrase of the title, H1,
 * first paragraph and subheadings, falling back to one word only when no phrase has support.
 *
 * Candidates are the phrases of those zones, cut at punctuation, with at most two function words
 * inside ("zakwas na chleb", "heat pump vs gas boiler") and none at the edges; intent modifiers
 * (how/best/jak/najlepszy …), lexicon verbs, Polish infinitives and bare numbers are trimmed off
 * the edges, so "How to Descale an Espresso Machine" offers "espresso machine". Inflected forms
 * are grouped by stems. Each candidate scores
 *   zone weight (title 3, H1 3 when it differs from the title, first paragraph 2, subheadings
 *   0.75 each up to 2.25) × log2(2 + body sentences holding all its stems) × length factor
 *   (1 word .5, 2 words 1, 3 words .95, 4 words .8) × 1.3 when it is a whole title segment.
 * A candidate needs two body sentences holding all its stems (a title/H1 phrase, one). The head words are
 * the two best single words; the keyword is the best phrase holding one of them, else the best
 * phrase scoring at least half the best word, else that word; a longer phrase holding the chosen
 * one's words replaces it when it scores at least half as much. The surface form
 * is the most used one, a title occurrence counting as three body uses.
 */
/** Titles that name a task: "How to clean an oven", "Jak wyczyścić piekarnik", "Wie man …", "So …". */
const TASK_OPENER: Record<'pl' | 'en' | 'de', RegExp> = {
  en: /^how to\s/i,
  pl: /^jak\s/i,
  de: /^(wie|so)\s/i,
};

/**
 * A title opening on an imperative names a task too ("Clean Your Oven in 10 Minutes", "Wymień
 * baterię w kuchni", "Wechseln Sie den Wasserhahn"). Without a tagger the page shows the verb:
 * English, its first word said after "to" in the body, in lower case (the imperative is the bare
 * infinitive; "to Leeds" is a place);
 * Polish, an infinitive in the body that it shortens ("wymień" → "wymienić", "pomaluj" →
 * "pomalować"); German, "Sie" after it, or the word written lower case in the body (a noun never is).
 */
const imperativeVerb = (ws: string[], lang: 'pl' | 'en' | 'de', sentences: string[], an: Analyzer): string | null => {
  const first = ws[0] ?? '';
  if (ws.length < 2 || first.length < 3 || an.stop.has(first)) return null;
  const lit = first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (lang === 'de') {
    if (ws[1] === 'sie') return first;
    const lower = new RegExp(`(?<!\\p{L})${lit}(?!\\p{L})`, 'u');
    return sentences.some((t) => lower.test(t)) ? first : null;
  }
  // English: said after "to" and in lower case ("to clean"; "trains to Leeds" names a place).
  if (lang === 'en') {
    const afterTo = new RegExp(`(?<!\\p{L})to ${lit}(?!\\p{L})`, 'u');
    return sentences.some((t) => afterTo.test(t)) ? first : null;
  }
  const words = sentences.map((t) => tokenize(t));
  // Polish: an infinitive (-ć) that begins with the imperative's root, ó/ś/ń/ź/ż/ć folded; the
  // infinitive is what searchers type ("wymienić baterię").
  const fold = (w: string) =>
    w.replace(/ó/g, 'o').replace(/ś/g, 's').replace(/ń/g, 'n').replace(/[źż]/g, 'z').replace(/ć/g, 'c');
  if (/[aeiouyąę]$/.test(first)) return null;
  const root = fold(first)
    .replace(/uj$/, 'ow')
    .replace(/[iy]j$/, '');
  if (root.length < 3) return null;
  for (const s of words)
    for (const x of s) if (/ć$/.test(x) && x.length > first.length && fold(x).startsWith(root)) return x;
  return null;
};

/**
 * The task a how-to title names, as its searchers type it: the title's opening clause (up to the
 * first colon, dash or bracket) when it holds the head noun. The verb stays in the keyword ("clean
 * an oven", not "oven" or a phrase like "keep the oven"); what follows the head is kept while the
 * body repeats the run ("zakwas na chleb") or, in German, while it is a lower-case word (the verb
 * closing the clause: "einen Wasserhahn wechselt"), and cut before anything else ("in 15 minutes").
 */
const taskClause = (
  title: string,
  kwLang: 'pl' | 'en' | 'de',
  isContent: (w: string) => boolean,
  head: Head | null,
  body: BodyStems,
  an: Analyzer,
  sentences: string[],
): string | null => {
  const clause = (title.split(SEGMENT)[0] ?? '').trim();
  const ws = tokenize(clause);
  // A German clause closing on a lower-case infinitive names a task too ("Berliner selber machen").
  const last = ws[ws.length - 1] ?? '';
  const deTask = kwLang === 'de' && /(?:en|ern|eln)$/.test(last) && clause.split(/[^\p{L}\p{N}-]+/u).includes(last);
  if (!head) return null;
  const imperative = TASK_OPENER[kwLang].test(clause) || deTask ? null : imperativeVerb(ws, kwLang, sentences, an);
  if (!(TASK_OPENER[kwLang].test(clause) || deTask || imperative)) return null;
  const h = ws.findIndex((w) => w === head.word || an.stem(w) === head.stem || w.split('-').includes(head.word));
  if (ws.length < 3 || h < 0) return null;
  // German capitalises nouns: a lower-case content word of the title is a verb or an adverb.
  const lowerInTitle = (w: string) => clause.split(/[^\p{L}\p{N}-]+/u).includes(w) && /\p{L}/u.test(w);
  let end = h;
  for (let j = h + 1; j < ws.length; j++) {
    const w = ws[j] ?? '';
    // Stop lists hold common verbs ("machen"): the clause's last word counts even so.
    const verbEnd = kwLang === 'de' && lowerInTitle(w) && (!an.stop.has(w) || j === ws.length - 1);
    if (verbEnd) end = j;
    else if (!isContent(w)) continue;
    else if (runCount(body, ws.slice(h, j + 1).map(an.stem)) >= 2) end = j;
    else break;
  }
  // A German imperative ("Wechseln Sie den Wasserhahn") is typed as the task: object, then verb.
  if (imperative && kwLang === 'de') {
    const object = ws.slice(1, end + 1).filter((w) => !an.stop.has(w) && w !== 'sie');
    return object.length ? [...object, ws[0]].join(' ') : null;
  }
  return [imperative ?? ws[0], ...ws.slice(1, end + 1)].join(' ');
};

/** Two-letter words, not stop words, that the page's sentences use three times or more. */
const repeatedShortWords = (sentences: string[], an: Analyzer): Set<string> => {
  const counts = new Map<string, number>();
  for (const s of sentences)
    for (const w of tokenize(s))
      if (w.length === 2 && /^\p{L}+$/u.test(w) && !an.stop.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  return new Set([...counts].filter(([, n]) => n >= 3).map(([w]) => w));
};

export const detectKeyword = (
  title: string,
  blocks: Block[],
  sentences: string[],
  kwLang: 'pl' | 'en' | 'de',
): string => {
  const an = createAnalyzer(kwLang);
  const lex = lexiconFor(kwLang);
  const modifiers = intentModifiers(lex, ['informational', 'commercial', 'transactional']);
  const purpose = new Set(lex.purpose);
  // A two-letter word is a subject only when the page keeps using it (German "Öl", "Ei"): most are
  // function words or abbreviations.
  const shortNouns = repeatedShortWords(sentences, an);
  const edgeOk = (w: string): boolean =>
    !an.stop.has(w) &&
    !modifiers.has(w) &&
    !lex.verbs.includes(w) &&
    !(kwLang === 'pl' && /ć$/.test(w)) &&
    /\p{L}/u.test(w) &&
    (w.length >= 3 || w.includes('-') || shortNouns.has(w));
  const innerOk = (w: string): boolean => edgeOk(w) || an.stop.has(w) || CONNECTORS.has(w);

  const cands = new Map<string, Candidate>();
  let pos = 0;
  const addZone = (text: string, zone: string, isTitle: boolean) => {
    const segs = text.split(SEGMENT);
    const leadSeg = zone === 'title' ? segs.findIndex((x) => tokenize(x).some(edgeOk)) : -1;
    for (const [k, seg] of segs.entries()) {
      const ws = tokenize(seg);
      // The segment trimmed of edge words that cannot start or end a noun phrase.
      let a = 0;
      let b = ws.length - 1;
      while (a <= b && !edgeOk(ws[a] ?? '')) a++;
      while (b >= a && !edgeOk(ws[b] ?? '')) b--;
      for (let i = a; i <= b; i++) {
        if (!edgeOk(ws[i] ?? '')) continue;
        let stops = 0;
        for (let j = i; j <= b; j++) {
          const w = ws[j] ?? '';
          if (!innerOk(w)) break;
          if (!edgeOk(w)) {
            if (++stops > 2) break;
            continue;
          }
          const slice = ws.slice(i, j + 1);
          const content = slice.filter(edgeOk);
          if (content.length > 4) break;
          const stems = content.map(an.stem);
          // A phrase naming one word twice ("filter in the filter test") is two phrases, not a name.
          if (new Set(stems).size < stems.length) break;
          const key = stems.join(' ');
          let c = cands.get(key);
          if (!c) {
            c = {
              key,
              stems: [...new Set(stems)],
              n: content.length,
              zones: new Map(),
              surfaces: new Map(),
              complete: false,
              inner: slice.length > content.length,
              lead: false,
              served: slice.slice(1, -1).some((w) => purpose.has(w)) ? slice.map(an.stem) : null,
              firstPos: pos++,
            };
            cands.set(key, c);
          }
          c.zones.set(zone, 1);
          if (k === leadSeg) c.lead = true;
          c.surfaces.set(slice.join(' '), (c.surfaces.get(slice.join(' ')) ?? 0) + (isTitle ? 3 : 1));
          if (isTitle && i === a && j === b) c.complete = true;
        }
      }
    }
  };
  const norm = (x: string) => tokenize(x).join(' ');
  addZone(title, 'title', true);
  const h1 = blocks.find((x) => x.kind === 'heading' && x.level === 1);
  if (h1 && norm(h1.text) !== norm(title)) addZone(h1.text, 'h1', true);
  const intro = blocks.find((x) => x.kind === 'paragraph');
  if (intro) addZone(intro.text, 'intro', false);
  blocks.filter((x) => x.kind === 'heading' && x.level >= 2).forEach((x, i) => addZone(x.text, `h${i}`, false));

  // Body support: sentences holding every stem of the candidate (the density "match").
  const body = bodyStemsOf(sentences, an);
  const bodyStems = body.map((s) => new Set(s));
  const head = titleHead(title, h1?.text ?? '', body, an, edgeOk);
  const bodySurface = (c: Candidate) => {
    for (const t of sentences) {
      const ws = tokenize(t);
      for (let i = 0; i < ws.length; i++) {
        if (an.stem(ws[i] ?? '') !== c.stems[0]) continue;
        for (let j = i; j < Math.min(ws.length, i + c.n + 2); j++) {
          const slice = ws.slice(i, j + 1);
          if (edgeOk(ws[j] ?? '') && slice.filter(edgeOk).map(an.stem).join(' ') === c.key)
            c.surfaces.set(slice.join(' '), (c.surfaces.get(slice.join(' ')) ?? 0) + 1);
        }
      }
    }
  };
  const task = taskClause(title, kwLang, edgeOk, head, body, an, sentences);
  if (task && describeKeyword(task, an).entity) return task;
  // A phrase of the title or H1 outranks one the title never names: a disclosure or a side topic
  // repeated in the body ("contains affiliate links") is not what the page is about.
  const titleStems = new Set(
    [title, h1?.text ?? '']
      .flatMap((t) => tokenize(t))
      .filter(edgeOk)
      .map(an.stem),
  );
  const ranked: { c: Candidate; score: number; freq: number }[] = [];
  for (const c of cands.values()) {
    const freq = bodyStems.filter((set) => c.stems.every((st) => set.has(st))).length;
    // Support: two body sentences, or one for a phrase of the title/H1.
    const titled = c.zones.has('title') || c.zones.has('h1');
    if (freq < 2 && !(freq === 1 && c.n > 1 && titled)) continue;
    // Off the title, a phrase counts only when the page repeats it as written ("rekuperator
    // odzyskuje" once in the intro is a clause, not a name).
    if (!titled && c.n > 1 && runCount(body, c.stems) < 2) continue;
    if (c.inner && !titled) continue;
    if (c.served && runCount(body, c.served) === 0) continue;
    let zone = 0;
    let sub = 0;
    for (const z of c.zones.keys()) {
      if (z === 'title' || z === 'h1') zone += 3;
      else if (z === 'intro') zone += 2;
      else sub += 0.75;
    }
    zone += Math.min(2.25, sub);
    const score = zone * Math.log2(2 + freq) * (LENGTH_FACTOR[c.n] ?? 0.8) * (c.complete && c.n > 1 ? 1.3 : 1);
    ranked.push({ c, score, freq });
  }
  ranked.sort((x, y) => y.score - x.score || x.c.firstPos - y.c.firstPos || (x.c.key < y.c.key ? -1 : 1));
  // The keyword holds the title's head noun: only candidates holding it compete, when any does.
  const pool = head ? ranked.filter((x) => x.c.stems.includes(head.stem)) : [];
  if (head && !pool.length && describeKeyword(head.word, an).entity) return head.word;
  const usable = pool.length ? pool : ranked;
  const words = usable.filter((x) => x.c.n === 1);
  const titledWord = words.find((x) => titleStems.has(x.c.key));
  const heads = new Set(words.slice(0, 2).map((x) => x.c.key));
  const allPhrases = usable.filter((x) => x.c.n > 1);
  const titled = allPhrases.filter((x) => x.c.stems.some((st) => titleStems.has(st)));
  // No phrase of the title has body support, but a word of it has: that word, not a phrase of the body.
  const phrases = titled.length ? titled : titledWord ? [] : allPhrases;
  const word = titled.length ? words[0] : (titledWord ?? words[0]);
  // With a head noun every candidate holds it: a phrase of the title's opening clause needs half
  // the head word's score, any other phrase as much as the head word alone.
  let pick = pool.length
    ? (phrases.find((x) => x.c.lead && (!word || x.score >= word.score * 0.5)) ??
      phrases.find((x) => !word || x.score >= word.score) ??
      word)
    : (phrases.find((x) => x.c.stems.some((st) => heads.has(st))) ??
      phrases.find((x) => !word || x.score >= word.score * 0.5) ??
      word);
  // A longer phrase holding the pick's words wins at half its score ("ekspres ciśnieniowy barista pro" over "barista pro").
  const chosen = pick;
  const longer =
    chosen &&
    phrases.find(
      (x) =>
        x.c.n > chosen.c.n && chosen.c.stems.every((st) => x.c.stems.includes(st)) && x.score >= chosen.score * 0.5,
    );
  if (longer) pick = longer;
  for (const choice of pick ? [pick, ...ranked.filter((x) => x !== pick)] : []) {
    bodySurface(choice.c);
    const surfaces = [...choice.c.surfaces.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const surface = surfaces[0]?.[0] ?? choice.c.key;
    if (describeKeyword(surface, an).entity) return surface;
  }
  throw new AppError(
    'keyword_required',
    'No keyword was given and none could be detected in the content; supply a keyword.',
  );
};
