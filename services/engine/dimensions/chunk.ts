import type { DimensionOutcome, Finding, ScoringContext } from '../context.ts';
import { coverage, entityStemsOf } from '../keyword.ts';
import { looseCoverage } from '../questionMatch.ts';
import { count, t } from '../labels.ts';
import type { Doc } from '../types.ts';
import {
  capitalise,
  clamp,
  finding,
  headed,
  insertChange,
  lowerFirst,
  replaceChange,
  round1,
  sectionName,
  unique,
  overSubsections,
  hasSubsections,
} from './helpers.ts';

/**
 * chunk: can each passage stand alone? Mean pass rate of six checks × 10: sections ≤350 words
 * (300–350 half), paragraphs ≤150 words (150–200 half), section openings that name a subject
 *  instead of a pronoun, heading terms echoed in the body, no empty sections, at least one list
 * or table on pages over 400 words, and about one subheading per 250 words.
 */

const countWords = (s: string) => (s.match(/[\p{L}\p{N}]+/gu) ?? []).length;

export const scoreChunk = (doc: Doc, ctx: ScoringContext): DimensionOutcome => {
  const { lang, lex, an } = ctx;
  const findings: Finding[] = [];
  const strengths: string[] = [];
  const sections = doc.sections.filter((s) => s.words > 0 || s.heading);

  const lenPass = sections.map((s) => (s.words <= 300 ? 1 : s.words <= 350 ? 0.5 : 0));
  const paragraphs = doc.sections.flatMap((s) =>
    s.blocks.filter((b) => b.kind === 'paragraph').map((b) => ({ b, sec: s, words: countWords(b.text) })),
  );
  const paraPass = paragraphs.map((p) => (p.words <= 150 ? 1 : p.words <= 200 ? 0.5 : 0));
  const heads = headed(doc);
  const openers = heads.map((s) => {
    const first = (doc.bySection[s.index] ?? []).find((x) => x.kind === 'prose');
    return { s, first, pronoun: first ? lex.pronounOpeners.includes(first.words[0] ?? '') : false };
  });
  const openPass = openers.map((o) => (o.pronoun ? 0 : 1));
  const overlapPass = heads.map((s) => {
    // What the heading announces: its words, not the examples in brackets or model numbers
    // ("Kartridże z wbudowaną głowicą (np. HP 305, …)"), matched as inflected or compounded forms.
    const announced = (s.heading?.text ?? '').replace(/\([^)]*\)|\[[^\]]*\]/gu, ' ');
    const hs = an.contentStems(announced).filter((h) => !/\p{N}/u.test(h));
    // A heading over its subsections only is judged by theirs.
    if (!hs.length || overSubsections(doc, s)) return 1;
    const body = new Set((doc.bySection[s.index] ?? []).flatMap((x) => x.stems));
    const missing = hs.filter((h) => !body.has(h));
    // The exact words first; only those missing are looked for as inflected or compounded forms.
    const held = hs.length - missing.length + (missing.length ? looseCoverage(body, missing) * missing.length : 0);
    return held / hs.length >= 0.5 ? 1 : 0;
  });
  // A passage stands alone when it names its subject: a section that never names the entity and
  // leans on "they/these/it" openings reads as a continuation of something else.
  const ce = entityStemsOf(ctx.kw);
  // Its subject is the entity or what its own heading names.
  const namePass = sections
    .map((s) => ({ s, ss: (doc.bySection[s.index] ?? []).filter((x) => x.kind === 'prose') }))
    .filter(({ ss }) => ss.length >= 3)
    .map(({ s, ss }) => {
      const body = new Set(ss.flatMap((x) => x.stems));
      const hs = an.contentStems(s.heading?.text ?? '');
      const named = coverage(body, ce) > 0 || (hs.length > 0 && coverage(body, hs) >= 0.5);
      const leaning = ss.filter((x) => lex.pronounOpeners.includes(x.words[0] ?? '')).length / ss.length;
      return named || leaning < 0.3 ? 1 : 0;
    });
  // A short section with subsections under it is not empty: they are its text.
  const nonEmpty = heads.map((s) => (s.words >= 20 || hasSubsections(doc, s) ? 1 : 0));
  const hasStructure =
    doc.words <= 400 || doc.blocks.some((b) => (b.kind === 'list' && !b.navigation) || b.kind === 'table') ? 1 : 0;
  const mean = (xs: number[], empty = 1) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : empty);
  // About one subheading per 250 words: a page without them is one undivided passage.
  const subheadings = doc.words <= 250 ? 1 : Math.min(1, heads.length / (doc.words / 250));
  const checks = [
    mean(lenPass),
    mean(paraPass),
    mean(openPass),
    mean(overlapPass),
    mean(nonEmpty),
    hasStructure,
    subheadings,
  ];
  // Unnamed passages cost up to 4 points: the other checks cannot see a page of pronouns.
  const score = clamp(10 * mean(checks) - 4 * (1 - mean(namePass)));

  // Long sections: a subheading before the paragraph nearest the middle.
  for (const sec of sections.filter((s) => s.words > 350).slice(0, 2)) {
    const paras = sec.blocks.filter((b) => b.kind === 'paragraph' || b.kind === 'list');
    let acc = 0;
    const target =
      paras.find((b) => (acc += countWords(b.text)) >= sec.words / 2 && b !== paras[0]) ??
      paras[Math.floor(paras.length / 2)];
    let change = null;
    if (target && target !== paras[0] && unique(doc.content, target.raw)) {
      const freq = new Map<string, number>();
      const idx = sec.blocks.indexOf(target);
      for (const b of sec.blocks.slice(idx))
        for (const w of b.text.toLowerCase().match(/\p{L}{4,}/gu) ?? [])
          if (!an.stop.has(w)) freq.set(w, (freq.get(w) ?? 0) + 1);
      const topWords = [...freq.entries()]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, 2)
        .map(([w]) => w);
      const level = Math.min(6, Math.max(2, sec.level + (sec.heading ? 1 : 0)));
      const title = capitalise(topWords.join(t(lang, ' and ', ' i ', ' und ')));
      change = insertChange(doc, 'before', target.raw, `${'#'.repeat(level)} ${title}`);
    }
    findings.push(
      finding({
        kind: 'splitSection',
        title: t(lang, 'Split a long section', 'Podziel długą sekcję', 'Langen Abschnitt teilen'),
        problem: t(
          lang,
          `"${sectionName(doc, sec.index)}" runs ${count(lang, sec.words, ['word', 'words'], ['słowo', 'słowa', 'słów'])} without a subheading (limit 300–350).`,
          `Sekcja „${sectionName(doc, sec.index)}” ma ${count('pl', sec.words, ['word', 'words'], ['słowo', 'słowa', 'słów'])} bez śródtytułu (limit 300–350).`,
          `Der Abschnitt „${sectionName(doc, sec.index)}“ hat ${count('de', sec.words, ['word', 'words'], ['słowo', 'słowa', 'słów'], ['Wort', 'Wörter'])} ohne Zwischenüberschrift (Grenze 300–350).`,
        ),
        suggestion: t(
          lang,
          'Add a subheading where the topic shifts.',
          'Dodaj śródtytuł tam, gdzie zmienia się wątek.',
          'Setzen Sie eine Zwischenüberschrift dort, wo das Thema wechselt.',
        ),
        section: sectionName(doc, sec.index),
        sectionIndex: sec.index,
        actionType: 'restructure',
        severity: 0.3,
        change,
      }),
    );
  }
  // Long paragraphs: break before the sentence that passes the middle.
  for (const p of paragraphs.filter((x) => x.words > 150).slice(0, 2)) {
    const sents = (doc.bySection[p.sec.index] ?? []).filter((s) => s.block === p.sec.blocks.indexOf(p.b));
    let acc = 0;
    const mid =
      sents.find((s, i) => i > 0 && (acc += s.words.length) >= p.words / 2) ?? sents[Math.floor(sents.length / 2)];
    const prev = mid ? sents[sents.indexOf(mid) - 1] : undefined;
    let change = null;
    if (mid && prev && unique(doc.content, `${prev.text} ${mid.text}`)) {
      const sep = doc.format === 'html' ? '</p>\n<p>' : '\n\n';
      change = replaceChange(doc, `${prev.text} ${mid.text}`, `${prev.text}${sep}${mid.text}`);
    }
    findings.push(
      finding({
        kind: 'splitParagraph',
        title: t(lang, 'Break up a long paragraph', 'Podziel długi akapit', 'Langen Absatz teilen'),
        problem: t(
          lang,
          `A paragraph in "${sectionName(doc, p.sec.index)}" has ${count(lang, p.words, ['word', 'words'], ['słowo', 'słowa', 'słów'])} (limit 150).`,
          `Akapit w „${sectionName(doc, p.sec.index)}” ma ${count('pl', p.words, ['word', 'words'], ['słowo', 'słowa', 'słów'])} (limit 150).`,
          `Ein Absatz in „${sectionName(doc, p.sec.index)}“ hat ${count('de', p.words, ['word', 'words'], ['słowo', 'słowa', 'słów'], ['Wort', 'Wörter'])} (Grenze 150).`,
        ),
        suggestion: t(
          lang,
          'Start a new paragraph where the thought changes.',
          'Zacznij nowy akapit tam, gdzie zmienia się myśl.',
          'Beginnen Sie einen neuen Absatz dort, wo der Gedanke wechselt.',
        ),
        section: sectionName(doc, p.sec.index),
        sectionIndex: p.sec.index,
        actionType: 'restructure',
        severity: 0.15,
        change,
      }),
    );
  }
  for (const o of openers.filter((x) => x.pronoun).slice(0, 3)) {
    const subject = (o.s.heading?.text ?? '').replace(/[?:.!]+$/, '');
    const change = o.first ? replaceChange(doc, o.first.text, `${subject}: ${lowerFirst(o.first.text)}`) : null;
    findings.push(
      finding({
        kind: 'pronounOpener',
        title: t(
          lang,
          'Name the subject at the start of the section',
          'Nazwij podmiot na początku sekcji',
          'Das Thema am Anfang des Abschnitts nennen',
        ),
        problem: t(
          lang,
          `The section "${subject}" opens with a pronoun ("${o.first?.words[0]}"), so the passage cannot stand alone.`,
          `Sekcja „${subject}” zaczyna się od zaimka („${o.first?.words[0]}”), więc fragment nie jest samodzielny.`,
          `Der Abschnitt „${subject}“ beginnt mit einem Pronomen („${o.first?.words[0]}“), daher ist er nicht für sich allein verständlich.`,
        ),
        suggestion: t(
          lang,
          'Replace the pronoun with the entity it refers to.',
          'Zastąp zaimek encją, do której się odnosi.',
          'Ersetzen Sie das Pronomen durch die Entität, auf die es sich bezieht.',
        ),
        section: subject,
        sectionIndex: o.s.index,
        actionType: 'replace',
        severity: 0.1,
        change,
      }),
    );
  }
  if (!hasStructure) {
    findings.push(
      finding({
        title: t(lang, 'Add a list or a table', 'Dodaj listę lub tabelę', 'Liste oder Tabelle ergänzen'),
        problem: t(
          lang,
          'The page has no list or table, so steps and comparisons are buried in prose.',
          'Strona nie ma listy ani tabeli, więc kroki i porównania giną w tekście.',
          'Die Seite hat weder Liste noch Tabelle, daher gehen Schritte und Vergleiche im Fließtext unter.',
        ),
        suggestion: t(
          lang,
          'Turn steps, criteria or specs into a list or table.',
          'Zamień kroki, kryteria lub parametry na listę albo tabelę.',
          'Stellen Sie Schritte, Kriterien oder technische Daten als Liste oder Tabelle dar.',
        ),
        section: '',
        sectionIndex: 0,
        actionType: 'restructure',
        severity: 0.15,
      }),
    );
  }
  if (mean(lenPass) === 1 && mean(paraPass) === 1)
    strengths.push(
      t(
        lang,
        'Sections and paragraphs are short enough to be read as passages.',
        'Sekcje i akapity są na tyle krótkie, że działają jako samodzielne fragmenty.',
        'Abschnitte und Absätze sind kurz genug, um für sich allein zu stehen.',
      ),
    );
  if (heads.length && mean(openPass) === 1)
    strengths.push(
      t(
        lang,
        'Sections open with a named subject, not a pronoun.',
        'Sekcje zaczynają się od nazwanego podmiotu, nie zaimka.',
        'Die Abschnitte beginnen mit dem benannten Thema, nicht mit einem Pronomen.',
      ),
    );
  return {
    id: 'chunk',
    score: round1(score),
    summary: t(
      lang,
      `${count(lang, sections.length, ['passage', 'passages'], ['fragment', 'fragmenty', 'fragmentów'])}; checks passed ${Math.round(mean(checks) * 100)}%.`,
      `${count('pl', sections.length, ['passage', 'passages'], ['fragment', 'fragmenty', 'fragmentów'])}; zaliczone testy ${Math.round(mean(checks) * 100)}%.`,
      `${count('de', sections.length, ['passage', 'passages'], ['fragment', 'fragmenty', 'fragmentów'], ['Abschnitt', 'Abschnitte'])}; bestandene Prüfungen ${Math.round(mean(checks) * 100)} %.`,
    ),
    strengths,
    findings,
    cap: null,
  };
};
