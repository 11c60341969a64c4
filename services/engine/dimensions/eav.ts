import { evidenceOf } from '../evidence.ts';
import { creditless, gamingOf } from './gaming.ts';
import type { DimensionOutcome, Finding, ScoringContext } from '../context.ts';
import { count, t } from '../labels.ts';
import type { Doc, Sentence } from '../types.ts';
import {
  clamp,
  finding,
  hasValue,
  valueBaseWords,
  newSectionPlace,
  insertChange,
  replaceChange,
  round1,
  sectionName,
  excerpt,
} from './helpers.ts';

/**
 * eav: entity → attribute → value. Attributes are content words within three words before a number
 * (or two after it: "5000 mAh battery") and table labels. Values are numbers, prices, dates and
 * author-data slots. 10 × (.6 attribute coverage + .4 value density); with a SERP benchmark,
 * coverage is of the attributes ≥50% of competitors mention near the entity, and density is
 * relative to the competitors' median; without it, 10 attributes and 12 value sentences per 1,000
 * words count as full marks.
 */

export const valueSentences = (doc: Doc, slot: string): Sentence[] =>
  doc.sentences.filter((s) => hasValue(s.text, slot));

export const attributesOf = (doc: Doc, ctx: ScoringContext): Set<string> => {
  const ce = new Set(ctx.kw.entityStems);
  const attrs = new Set<string>();
  for (const s of doc.sentences) {
    if (!hasValue(s.text, ctx.lex.slot)) continue;
    for (let i = 0; i < s.words.length; i++) {
      if (!/^\p{N}/u.test(s.words[i] ?? '') && !(s.words[i] === 'fill' || s.words[i] === 'uzupełnij')) continue;
      for (let j = Math.max(0, i - 3); j <= Math.min(s.words.length - 1, i + 2); j++) {
        const w = s.words[j] ?? '';
        const st = s.stems[j] ?? '';
        if (j !== i && w.length > 2 && !/\p{N}/u.test(w) && !ctx.an.stop.has(w) && !ce.has(st)) attrs.add(st);
      }
    }
  }
  for (const b of doc.blocks)
    if (b.kind === 'table')
      for (const cell of b.items)
        if (!/\p{N}/u.test(cell)) for (const st of ctx.an.contentStems(cell)) if (!ce.has(st)) attrs.add(st);
  return attrs;
};

/** A sentence that opens with a quotation mark or a speech dash: another's words. */
const QUOTED_OPENING = /^\s*[“"„«‚‘–—]/u;

export const scoreEav = (doc: Doc, ctx: ScoringContext): DimensionOutcome => {
  const { lang, lex, kw, bench } = ctx;
  const findings: Finding[] = [];
  const strengths: string[] = [];
  const values = valueSentences(doc, lex.slot);
  const vd = doc.words ? (values.length / valueBaseWords(doc, lex.slot)) * 1000 : 0;
  const attrs = attributesOf(doc, ctx);
  let cov: number;
  let vdRatio: number;
  let missing: string[] = [];
  if (bench && bench.attributes.length) {
    // A word dropped in generic filler is not the attribute covered.
    const g = gamingOf(doc, kw, ctx.an);
    const none = creditless(g);
    const docStems = new Set(
      doc.sentences.filter((s) => !none.has(s) && !g.stuffedSentences.has(s)).flatMap((s) => s.stems),
    );
    const got = bench.attributes.filter((a) => attrs.has(a.stem));
    const mentioned = bench.attributes.filter((a) => !attrs.has(a.stem) && docStems.has(a.stem));
    cov = (got.length + 0.5 * mentioned.length) / bench.attributes.length;
    missing = bench.attributes.filter((a) => !attrs.has(a.stem)).map((a) => a.surface);
    vdRatio = bench.valueDensityMedian > 0 ? Math.min(1, vd / bench.valueDensityMedian) : 1;
  } else {
    cov = Math.min(1, attrs.size / 10);
    vdRatio = Math.min(1, vd / 12);
  }
  const score = clamp(10 * (0.6 * cov + 0.4 * vdRatio));

  // Vague sentences about the topic: a value would make them citable. Not someone else's words (a
  // customer's review, a quotation): the writer cannot put a number in them.
  const vagueSet = new Set(lex.vague);
  const support = evidenceOf(doc).sentences;
  const vague = doc.sentences
    .filter(
      (s) =>
        s.kind === 'prose' &&
        !support.has(s) &&
        !QUOTED_OPENING.test(s.text) &&
        !hasValue(s.text, lex.slot) &&
        s.words.some((w) => vagueSet.has(w)) &&
        s.words.length >= 6,
    )
    .slice(0, 40)
    .sort(
      (a, b) =>
        Number(b.content.some((c) => kw.entityStems.includes(c))) -
          Number(a.content.some((c) => kw.entityStems.includes(c))) || a.section - b.section,
    )
    .slice(0, 3);
  for (const s of vague) {
    const slotText = t(
      lang,
      ' [fill in: the exact value with its unit]',
      ' [uzupełnij: dokładna wartość z jednostką]',
      ' [ergänzen: der genaue Wert mit Einheit]',
    );
    const after = s.text.replace(/([.!?…]*)$/, `${slotText}$1`);
    findings.push(
      finding({
        kind: 'vague',
        title: t(
          lang,
          'Replace a vague claim with a value',
          'Zastąp ogólnik konkretną wartością',
          'Vage Angabe durch einen Wert ersetzen',
        ),
        problem: t(
          lang,
          `"${excerpt(s.text)}" states a quality without a number.`,
          `„${excerpt(s.text)}” opisuje cechę bez liczby.`,
          `„${excerpt(s.text)}“ beschreibt eine Eigenschaft ohne Zahl.`,
        ),
        suggestion: t(
          lang,
          'Give the measured value with its unit (e.g. 20 h, 5000 mAh, €120).',
          'Podaj zmierzoną wartość z jednostką (np. 20 h, 5000 mAh, 120 zł).',
          'Nennen Sie den gemessenen Wert mit Einheit (z. B. 20 h, 5000 mAh, 120 €).',
        ),
        section: sectionName(doc, s.section),
        sectionIndex: s.section,
        actionType: 'replace',
        severity: 0.2,
        change: replaceChange(doc, s.text, after),
      }),
    );
  }
  if (missing.length && cov < 0.8) {
    const place = newSectionPlace(doc, ctx);
    const [a, v] = lex.phrases.keyFacts;
    const rows = missing.slice(0, 5).map((m) => `| ${m} | ${lex.slot} ${t(lang, 'value', 'wartość', 'Wert')}] |`);
    const table = [`| ${a} | ${v} |`, '| --- | --- |', ...rows].join('\n');
    findings.push(
      finding({
        kind: 'factsTable',
        title: t(
          lang,
          'Add the attributes competitors cover',
          'Dodaj atrybuty, które opisują konkurenci',
          'Attribute ergänzen, die die Konkurrenz behandelt',
        ),
        problem: t(
          lang,
          `Missing attributes with values: ${missing.slice(0, 5).join(', ')}.`,
          `Brakuje atrybutów z wartościami: ${missing.slice(0, 5).join(', ')}.`,
          `Es fehlen Attribute mit Werten: ${missing.slice(0, 5).join(', ')}.`,
        ),
        suggestion: t(
          lang,
          'Add a key-facts table with a value for each.',
          'Dodaj tabelę kluczowych danych z wartością dla każdego.',
          'Ergänzen Sie eine Tabelle mit den wichtigsten Fakten und einem Wert für jedes Attribut.',
        ),
        section: sectionName(doc, Math.min(place.sectionIndex, doc.sections.length - 1)),
        sectionIndex: place.sectionIndex,
        actionType: 'add',
        severity: 0.5,
        change: insertChange(doc, place.placement, place.anchor, table),
        competitors: bench ? bench.comps.map((c, i) => (c.valueDensity > vd ? i : -1)).filter((i) => i >= 0) : [],
      }),
    );
  }
  if (attrs.size >= 8)
    strengths.push(
      `${count(lang, attrs.size, ['distinct attribute carries a value', 'distinct attributes carry values'], ['atrybut ma podaną wartość', 'różne atrybuty mają podane wartości', 'różnych atrybutów ma podane wartości'], ['Attribut hat einen Wert', 'verschiedene Attribute haben Werte'])}.`,
    );
  if (vdRatio >= 1)
    strengths.push(
      t(
        lang,
        'Values are dense enough to be quoted.',
        'Wartości są na tyle gęste, że tekst da się cytować.',
        'Die Werte stehen so dicht, dass sich der Text zitieren lässt.',
      ),
    );
  return {
    id: 'eav',
    score: round1(score),
    summary: t(
      lang,
      `${count(lang, attrs.size, ['attribute', 'attributes'], ['atrybut', 'atrybuty', 'atrybutów'])} with values; ${round1(vd)} value sentences per 1,000 words.`,
      `${count('pl', attrs.size, ['attribute', 'attributes'], ['atrybut', 'atrybuty', 'atrybutów'])} z wartościami; ${count('pl', round1(vd), ['', ''], ['zdanie', 'zdania', 'zdań'])} z wartością na 1000 słów.`,
      `${count('de', attrs.size, ['attribute', 'attributes'], ['atrybut', 'atrybuty', 'atrybutów'], ['Attribut', 'Attribute'])} mit Werten; ${count('de', round1(vd), ['', ''], ['', '', ''], ['Satz', 'Sätze'])} mit Wert pro 1000 Wörter.`,
    ),
    strengths,
    findings,
    cap: null,
  };
};
