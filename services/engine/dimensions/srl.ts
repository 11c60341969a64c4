import { evidenceOf } from '../evidence.ts';
import { creditless, gamingOf } from './gaming.ts';
import type { DimensionOutcome, Finding, ScoringContext } from '../context.ts';
import { count, num, t } from '../labels.ts';
import { syllables } from '../text/syllables.ts';
import type { Doc, Sentence } from '../types.ts';
import {
  capitalise,
  clamp,
  containsPhrase,
  finding,
  proseOf,
  removePhrase,
  replaceChange,
  round1,
  sectionName,
  excerpt,
} from './helpers.ts';

/**
 * srl: who does what to whom. 10 minus capped penalties: passive voice (>10% −1, >15% −2, >25% −3),
 * long sentences over 20 words (EN/DE more than 25% of sentences, PL more than 15%: −1, ×1.6 −2,
 * ×2.4 −3), hedges (>5% −1, >10% −2), nominalisations (>4% of words −1, >7% −2), readability
 * (EN Flesch <50 −1, <30 −2; PL FOG-PL >12 −1, >16 −2; DE Amstad <50 −1, <30 −2) and the central
 * entity rarely acting as the subject (−1).
 */

const isPassive = (s: Sentence, ctx: ScoringContext): boolean => {
  const { passiveAux, participle } = ctx.lex;
  for (let i = 0; i < s.words.length; i++) {
    if (!passiveAux.includes(s.words[i] ?? '')) continue;
    for (let j = i + 1; j <= Math.min(s.words.length - 1, i + 3); j++)
      if (participle.test(s.words[j] ?? '')) return true;
    if (ctx.lang === 'de')
      for (let j = i + 1; j < s.words.length; j++) if (participle.test(s.words[j] ?? '')) return true;
  }
  return false;
};

export const readability = (sents: Sentence[], lang: string): { name: string; value: number; penalty: number } => {
  const words = sents.flatMap((s) => s.words.filter((w) => /\p{L}/u.test(w)));
  if (!words.length || !sents.length) return { name: '', value: 0, penalty: 0 };
  const asl = words.length / sents.length;
  if (lang === 'pl') {
    const hard = words.filter((w) => syllables(w, 'pl') >= 4).length;
    const fog = 0.4 * (asl + (100 * hard) / words.length);
    return { name: 'FOG-PL', value: fog, penalty: fog > 16 ? 2 : fog > 12 ? 1 : 0 };
  }
  const asw = words.reduce((a, w) => a + syllables(w, lang), 0) / words.length;
  if (lang === 'de') {
    const amstad = 180 - asl - 58.5 * asw;
    return { name: 'Amstad', value: amstad, penalty: amstad < 30 ? 2 : amstad < 50 ? 1 : 0 };
  }
  const flesch = 206.835 - 1.015 * asl - 84.6 * asw;
  return { name: 'Flesch', value: flesch, penalty: flesch < 30 ? 2 : flesch < 50 ? 1 : 0 };
};

/**
 * Points off for the share of filler sentences: a ramp, not steps, from 2 % (one in fifty is chance)
 * to 2 points at about 15 %, so one sentence more or less (a stuffed one cut elsewhere) moves the
 * score a little, not by a point.
 */
export const fillerPenalty = (share: number): number => Math.min(2, Math.max(0, (share - 0.02) * 15));

export const scoreSrl = (doc: Doc, ctx: ScoringContext): DimensionOutcome => {
  const { lang, lex, kw } = ctx;
  const findings: Finding[] = [];
  const strengths: string[] = [];
  const g = gamingOf(doc, kw, ctx.an);
  const allProse = proseOf(doc);
  // Rates over the sentences that say something: filler must not dilute long or passive sentences,
  // and keyphrase-only sentences must not pass as the entity acting.
  // Support is not the writer's syntax: quoted speech is the speaker's, and a figure or rule given
  // with its source needs the clause (and often the passive) that names it.
  const ev = evidenceOf(doc);
  const prose = allProse.filter((s) => !g.filler.has(s) && !g.stuffedSentences.has(s) && !ev.sentences.has(s));
  const fillerShare = allProse.length ? allProse.filter((s) => g.filler.has(s)).length / allProse.length : 0;
  const n = Math.max(1, prose.length);
  const passive = prose.filter((s) => isPassive(s, ctx)).length / n;
  const limit = lang === 'pl' ? 0.15 : 0.25;
  const long = prose.filter((s) => s.words.length > 20).length / n;
  const hedged = prose.filter(
    (s) =>
      containsPhrase(
        ` ${s.text.toLowerCase()}`,
        lex.hedges.map((h) => ` ${h}`),
      ) !== null,
  );
  const hedgeShare = hedged.length / n;
  const totalWords = prose.reduce((a, s) => a + s.words.length, 0) || 1;
  const nominal = prose.reduce((a, s) => a + s.words.filter((w) => lex.nominalisation.test(w)).length, 0) / totalWords;
  // Generic prose is mostly short function words: read over it, the index rises whatever the
  // page's own sentences are like (filler that names a page word would lift Amstad over 50).
  const none = creditless(g);
  const read = readability(
    prose.filter((s) => !none.has(s)),
    lang,
  );
  const ce = kw.entityStems;
  const ceSents = prose.filter((s) => ce.length && ce.every((c) => s.stems.includes(c)));
  const asSubject =
    ceSents.filter((s) => s.stems.slice(0, 4).some((x) => ce.includes(x))).length / Math.max(1, ceSents.length);

  const pPassive = passive > 0.25 ? 3 : passive > 0.15 ? 2 : passive > 0.1 ? 1 : 0;
  const pLong = long > limit * 2.4 ? 3 : long > limit * 1.6 ? 2 : long > limit ? 1 : 0;
  const pHedge = hedgeShare > 0.1 ? 2 : hedgeShare > 0.05 ? 1 : 0;
  const pNominal = nominal > 0.07 ? 2 : nominal > 0.04 ? 1 : 0;
  const pSubject = ceSents.length >= 3 && asSubject < 0.3 ? 1 : 0;
  // Sentences that name no actor and no fact (generic filler) are the opposite of who-does-what.
  const pFiller = fillerPenalty(fillerShare);
  const score = clamp(10 - pPassive - pLong - pHedge - pNominal - read.penalty - pSubject - pFiller);
  const pct = (x: number) => `${Math.round(x * 100)}%`;

  for (const s of hedged.slice(0, 3)) {
    const phrase = lex.removableHedges.find((h) => s.text.toLowerCase().includes(h));
    const after = phrase ? removePhrase(s.text, phrase) : null;
    findings.push(
      finding({
        kind: 'hedge',
        subject: phrase ?? undefined,
        title: t(lang, 'State it without hedging', 'Napisz to bez asekuracji', 'Ohne Absicherungsfloskel formulieren'),
        problem: t(
          lang,
          `"${excerpt(s.text)}" hedges instead of stating who does what.`,
          `„${excerpt(s.text)}” asekuruje się zamiast powiedzieć, kto co robi.`,
          `„${excerpt(s.text)}“ sichert sich ab, statt zu sagen, wer was tut.`,
        ),
        suggestion: t(
          lang,
          'Drop the hedge, or give the source and the number.',
          'Usuń asekurację albo podaj źródło i liczbę.',
          'Streichen Sie die Absicherung, oder nennen Sie Quelle und Zahl.',
        ),
        section: sectionName(doc, s.section),
        sectionIndex: s.section,
        actionType: 'replace',
        severity: 0.1,
        change: after ? replaceChange(doc, s.text, after) : null,
      }),
    );
  }
  if (pLong) {
    const longest = [...prose]
      .sort((a, b) => b.words.length - a.words.length || a.section - b.section)
      .filter((s) => s.words.length > 30)
      .slice(0, 2);
    for (const s of longest) {
      const commas = [...s.text.matchAll(/, /g)]
        .map((m) => m.index ?? 0)
        .filter((i) => i > s.text.length * 0.3 && i < s.text.length * 0.7);
      const mid = commas.sort((a, b) => Math.abs(a - s.text.length / 2) - Math.abs(b - s.text.length / 2))[0];
      let change = null;
      if (mid !== undefined) {
        const second = s.text.slice(mid + 2).replace(/^(and|but|which|so|a|i|ale|oraz|lecz|und|aber)\s+/i, '');
        change = replaceChange(doc, s.text, `${s.text.slice(0, mid)}. ${capitalise(second)}`);
      }
      findings.push(
        finding({
          kind: 'splitSentence',
          title: t(lang, 'Split a long sentence', 'Podziel długie zdanie', 'Langen Satz teilen'),
          problem: t(
            lang,
            `A sentence of ${count(lang, s.words.length, ['word', 'words'], ['słowo', 'słowa', 'słów'])}; ${pct(long)} of sentences exceed 20 words (limit ${pct(limit)}).`,
            `Zdanie ma ${count('pl', s.words.length, ['word', 'words'], ['słowo', 'słowa', 'słów'])}; ${pct(long)} zdań przekracza 20 słów (limit ${pct(limit)}).`,
            `Ein Satz mit ${count('de', s.words.length, ['word', 'words'], ['słowo', 'słowa', 'słów'], ['Wort', 'Wörtern'])}; ${pct(long)} der Sätze haben mehr als 20 Wörter (Grenze ${pct(limit)}).`,
          ),
          suggestion: t(
            lang,
            'Make it two sentences, one action each.',
            'Zrób z niego dwa zdania, każde z jedną czynnością.',
            'Machen Sie daraus zwei Sätze mit je einer Handlung.',
          ),
          section: sectionName(doc, s.section),
          sectionIndex: s.section,
          actionType: 'replace',
          severity: 0.1,
          change,
        }),
      );
    }
  }
  if (pPassive)
    findings.push(
      finding({
        title: t(lang, 'Use the active voice', 'Używaj strony czynnej', 'Aktiv statt Passiv schreiben'),
        problem: t(
          lang,
          `${pct(passive)} of sentences are passive (aim for at most 10%).`,
          `${pct(passive)} zdań jest w stronie biernej (cel: najwyżej 10%).`,
          `${pct(passive)} der Sätze stehen im Passiv (Ziel: höchstens 10 %).`,
        ),
        suggestion: t(
          lang,
          'Name who acts: "the filter removes chlorine", not "chlorine is removed".',
          'Nazwij wykonawcę: „filtr usuwa chlor”, a nie „chlor jest usuwany”.',
          'Nennen Sie, wer handelt: „Der Filter entfernt Chlor“, nicht „Chlor wird entfernt“.',
        ),
        section: '',
        sectionIndex: 0,
        actionType: 'replace',
        severity: 0.1 * pPassive,
      }),
    );
  if (read.penalty)
    findings.push(
      finding({
        title: t(lang, 'Make the text easier to read', 'Ułatw czytanie tekstu', 'Den Text leichter lesbar machen'),
        problem: t(
          lang,
          `${read.name} readability is ${round1(read.value)}.`,
          `Czytelność ${read.name} wynosi ${num('pl', round1(read.value))}.`,
          `Der Lesbarkeitsindex nach ${read.name} beträgt ${num('de', round1(read.value))}.`,
        ),
        suggestion: t(
          lang,
          'Shorter sentences and everyday words.',
          'Krótsze zdania i prostsze słowa.',
          'Kürzere Sätze und Wörter aus der Alltagssprache.',
        ),
        section: '',
        sectionIndex: 0,
        actionType: 'replace',
        severity: 0.1,
      }),
    );
  if (pNominal)
    findings.push(
      finding({
        title: t(
          lang,
          'Use verbs instead of nouns made from verbs',
          'Używaj czasowników zamiast rzeczowników odczasownikowych',
          'Verben statt Substantivierungen verwenden',
        ),
        problem: t(
          lang,
          `${pct(nominal)} of words are nominalisations.`,
          `${pct(nominal)} słów to rzeczowniki odczasownikowe.`,
          `${pct(nominal)} der Wörter sind Substantivierungen.`,
        ),
        suggestion: t(
          lang,
          '"We tested" instead of "the testing was performed".',
          '„Przetestowaliśmy” zamiast „dokonano przetestowania”.',
          '„Wir haben getestet“ statt „die Durchführung des Tests erfolgte“.',
        ),
        section: '',
        sectionIndex: 0,
        actionType: 'replace',
        severity: 0.05,
      }),
    );
  // Filler counts against who-does-what but is not offered as a cut of whole paragraphs: the blind
  // review of 2026-11-25 (r3) rejected all three such cuts as harmful (a procedure's steps, a
  // review's only downsides read as generic by their share of function words).
  if (!pPassive) strengths.push(t(lang, 'Mostly active voice.', 'Przeważa strona czynna.', 'Überwiegend Aktiv.'));
  if (!pLong) strengths.push(t(lang, 'Sentences are short.', 'Zdania są krótkie.', 'Die Sätze sind kurz.'));
  if (!pHedge)
    strengths.push(
      t(
        lang,
        'Claims are stated without hedging.',
        'Twierdzenia są podane bez asekuracji.',
        'Aussagen werden ohne Absicherungsfloskeln getroffen.',
      ),
    );
  return {
    id: 'srl',
    score: round1(score),
    summary: t(
      lang,
      `Passive ${pct(passive)}, sentences over 20 words ${pct(long)}, hedged ${pct(hedgeShare)}, ${read.name} ${round1(read.value)}.`,
      `Strona bierna ${pct(passive)}, zdania ponad 20 słów ${pct(long)}, asekuracja ${pct(hedgeShare)}, ${read.name} ${num('pl', round1(read.value))}.`,
      `Passiv ${pct(passive)}, Sätze über 20 Wörter ${pct(long)}, Absicherungen ${pct(hedgeShare)}, ${read.name} ${num('de', round1(read.value))}.`,
    ),
    strengths,
    findings,
    cap: null,
  };
};
