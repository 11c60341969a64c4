import { buildBench } from '../../services/engine/benchmark.ts';
import type { Scored } from '../../services/engine/context.ts';
import { scoreDoc } from '../../services/engine/cqs.ts';
import { prepareDocument } from '../../services/engine/prepare.ts';
import type { EngineInput, SerpBenchmarkInput } from '../../services/engine/types.ts';
import { articles, read } from '../fixtures/engine/corpus.ts';
import { loadCorpusA, loadHalf } from './corpus.ts';

/**
 * GEO variants (issue 24, after Aggarwal et al., KDD 2024): one change to a strong article at a
 * time. Stuffing and filler must never raise CQS; quotations, statistics and citations should raise
 * it. The variants are built by fixed templates that know nothing of the article but its keyword
 * and language, so they test the engine's mechanism, not one article.
 */

export type Lang = 'en' | 'pl' | 'de';
export const GAMING = ['stuffing', 'stuffedHeadings', 'filler'] as const;
export const EVIDENCE = ['quotation', 'statistic', 'citation'] as const;
export type Variant = (typeof GAMING)[number] | (typeof EVIDENCE)[number];
export const VARIANTS: Variant[] = [...GAMING, ...EVIDENCE];

export interface GeoArticle {
  id: string;
  language: Lang;
  keyword: string;
  content: string;
  format: 'markdown' | 'html';
  serp: SerpBenchmarkInput | null;
}

const T = {
  en: {
    stuff: ['{K} matters.', 'This is why {k} is key.', 'Think about {k} here.', '{K} is the point.'],
    filler: [
      'In today’s fast-paced world, many people are looking for answers to all kinds of questions. It is important to take the time to think things through and consider the different options that are available. Everyone is different, so what works for one person may not work for another.',
      'There are many factors to consider, and it is always a good idea to do your research. At the end of the day, the right choice depends on your individual needs and preferences. Taking a careful approach can help you make a decision that you will be happy with.',
      'Of course, things can change over time, and it is worth keeping an open mind. Many people find that a little patience goes a long way. It is also a good idea to ask others for their opinions and experiences before you decide.',
      'All in all, there is a lot to think about, but it does not have to be complicated. With the right mindset and a bit of planning, anyone can find a solution that suits them. The most important thing is to stay informed and make choices that feel right.',
    ],
    quotation:
      '“Most of the problems we see come from skipping one small step, and people only notice weeks later,” says Helen Carter, senior consultant at Which? and author of two consumer guides.',
    statistic:
      'A 2023 survey of 2,150 UK adults by YouGov found that 38% had made this mistake at least once, and that fixing it took 45 minutes on average.',
    citation:
      'The [Office for Product Safety and Standards guidance](https://www.gov.uk/government/organisations/office-for-product-safety-and-standards) (2022) sets out the same checks in more detail.',
  },
  pl: {
    stuff: ['{K} ma znaczenie.', 'Dlatego {k} jest kluczowe.', 'Pomyśl o tym: {k}.', '{K} to podstawa.'],
    filler: [
      'W dzisiejszych czasach wiele osób szuka odpowiedzi na różne pytania. Warto poświęcić chwilę, aby wszystko dokładnie przemyśleć i rozważyć dostępne możliwości. Każdy jest inny, więc to, co sprawdza się u jednej osoby, nie zawsze sprawdzi się u innej.',
      'Jest wiele czynników, które warto wziąć pod uwagę, i zawsze dobrze jest się najpierw zastanowić. Ostatecznie właściwy wybór zależy od indywidualnych potrzeb i oczekiwań. Rozważne podejście pomaga podjąć decyzję, z której będziemy zadowoleni.',
      'Oczywiście wiele rzeczy może się z czasem zmienić, dlatego warto zachować otwarty umysł. Wiele osób przekonuje się, że odrobina cierpliwości bardzo pomaga. Dobrze jest też zapytać innych o ich opinie i doświadczenia, zanim podejmie się decyzję.',
      'Podsumowując, jest wiele rzeczy do przemyślenia, ale nie musi to być skomplikowane. Przy odpowiednim nastawieniu i odrobinie planowania każdy może znaleźć rozwiązanie dla siebie. Najważniejsze jest to, aby być dobrze poinformowanym i podejmować dobre decyzje.',
    ],
    quotation:
      '„Większość problemów, które widzimy, bierze się z pominięcia jednego drobnego kroku, a ludzie zauważają to dopiero po kilku tygodniach” – mówi Anna Wiśniewska, ekspertka Federacji Konsumentów i autorka dwóch poradników.',
    statistic:
      'W badaniu CBOS z 2023 roku na próbie 1050 dorosłych 38% ankietowanych przyznało, że popełniło ten błąd co najmniej raz, a jego naprawa zajęła średnio 45 minut.',
    citation:
      'Te same zasady opisuje szczegółowo [poradnik Urzędu Ochrony Konkurencji i Konsumentów](https://uokik.gov.pl/poradniki) (2022).',
  },
  de: {
    stuff: ['{K} ist wichtig.', 'Deshalb ist {k} entscheidend.', 'Denken Sie an {k}.', '{K} ist der Kern.'],
    filler: [
      'In der heutigen schnelllebigen Welt suchen viele Menschen nach Antworten auf alle möglichen Fragen. Es ist wichtig, sich Zeit zu nehmen und die verschiedenen Möglichkeiten in Ruhe abzuwägen. Jeder Mensch ist anders, und was für den einen funktioniert, passt nicht unbedingt für den anderen.',
      'Es gibt viele Faktoren, die man berücksichtigen sollte, und es ist immer eine gute Idee, sich vorher zu informieren. Letztendlich hängt die richtige Wahl von den individuellen Bedürfnissen und Vorlieben ab. Ein sorgfältiges Vorgehen hilft dabei, eine Entscheidung zu treffen, mit der man zufrieden ist.',
      'Natürlich kann sich im Laufe der Zeit vieles ändern, deshalb lohnt es sich, offen zu bleiben. Viele Menschen stellen fest, dass ein wenig Geduld sehr hilfreich ist. Es ist auch sinnvoll, andere nach ihrer Meinung und ihren Erfahrungen zu fragen, bevor man sich entscheidet.',
      'Alles in allem gibt es viel zu bedenken, aber es muss nicht kompliziert sein. Mit der richtigen Einstellung und etwas Planung findet jeder eine Lösung, die zu ihm passt. Das Wichtigste ist, gut informiert zu bleiben und Entscheidungen zu treffen, die sich richtig anfühlen.',
    ],
    quotation:
      '„Die meisten Probleme, die wir sehen, entstehen, weil ein kleiner Schritt ausgelassen wird, und das merken die Leute erst Wochen später“, sagt Katrin Vogel, Referentin bei der Stiftung Warentest und Autorin zweier Ratgeber.',
    statistic:
      'Eine Umfrage von YouGov aus dem Jahr 2023 unter 2.150 Erwachsenen ergab, dass 38 % diesen Fehler mindestens einmal gemacht haben und die Behebung im Schnitt 45 Minuten dauerte.',
    citation:
      'Die gleichen Prüfschritte beschreibt der [Leitfaden der Verbraucherzentrale](https://www.verbraucherzentrale.de/wissen) (2022) ausführlicher.',
  },
} as const;

const cap = (s: string) => (s ? s[0]!.toLocaleUpperCase() + s.slice(1) : s);
const fillKw = (tpl: string, kw: string) => tpl.replace(/\{K\}/g, cap(kw)).replace(/\{k\}/g, kw);

/** A Markdown block is a running-text paragraph (not a heading, list, table, quote, code, image). */
const isParagraph = (b: string) => /^\s*[\p{L}\p{N}"„“*]/u.test(b) && !/^\s*(\d+\.|[-*+] )/.test(b);

/** Markdown: the body's paragraph blocks (index into blocks), the title paragraph left out. */
const mdParagraphs = (blocks: string[]) =>
  blocks.map((b, i) => (i > 0 && isParagraph(b) && !b.startsWith('**') ? i : -1)).filter((i) => i >= 0);

/** HTML: the `<p>` elements of the page, as [start, end] offsets of their closing tag. */
const htmlParagraphEnds = (html: string): number[] => {
  const out: number[] = [];
  const re = /<\/p>/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(html))) out.push(m.index);
  return out;
};

/** Adds text to the n-th paragraph (as a new sentence) or as a new paragraph after it. */
const addAt = (a: GeoArticle, picks: (count: number) => number[], text: (k: number) => string, asBlock: boolean) => {
  if (a.format === 'html') {
    const ends = htmlParagraphEnds(a.content);
    const at = picks(ends.length).map((i) => ends[i]!);
    let out = a.content;
    at.map((pos, k) => [pos, k] as const)
      .sort((x, y) => y[0] - x[0])
      .forEach(([pos, k]) => {
        const ins = asBlock ? `</p>\n<p>${mdInline(text(k))}` : ` ${mdInline(text(k))}`;
        out = out.slice(0, pos) + ins + out.slice(pos);
      });
    return out;
  }
  const blocks = a.content.split(/\n\s*\n/);
  const paras = mdParagraphs(blocks);
  const at = picks(paras.length).map((i) => paras[i]!);
  at.forEach((bi, k) => {
    // A sentence joins a paragraph that ends as a sentence does; else it stands as its own paragraph.
    const joins = !asBlock && /[.!?]["”’)]?$/u.test(blocks[bi]!.trimEnd());
    blocks[bi] = joins ? `${blocks[bi]!.trimEnd()} ${text(k)}` : `${blocks[bi]}\n\n${text(k)}`;
  });
  return blocks.join('\n\n');
};

/** Markdown links and emphasis as HTML, for variants inserted into pages. */
const mdInline = (s: string) =>
  s.replace(/\[([^\]]+)\]\(([^)]+)\)/g, '<a href="$2">$1</a>').replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');

/** n positions spread evenly over count paragraphs (cycling when there are fewer). */
const spread = (n: number) => (count: number) =>
  Array.from({ length: n }, (_, k) => Math.min(count - 1, Math.floor(((k + 0.5) * count) / n)));
const middle = (count: number) => [Math.min(count - 1, Math.max(1, Math.floor(count / 3)))];

export const makeVariant = (a: GeoArticle, v: Variant): string => {
  const t = T[a.language];
  switch (v) {
    case 'stuffing':
      // 12 more uses of the exact keyword, one short sentence in each of 12 paragraphs.
      return addAt(a, spread(12), (k) => fillKw(t.stuff[k % t.stuff.length]!, a.keyword), false);
    case 'stuffedHeadings': {
      // 12 more uses as keyword-filled subheadings and bold lines (6 blocks, 2 uses each).
      const line = (k: number) =>
        k % 2 ? `**${cap(a.keyword)}: ${a.keyword}**` : `## ${cap(a.keyword)} – ${a.keyword}`;
      if (a.format === 'html') {
        const ends = htmlParagraphEnds(a.content);
        let out = a.content;
        spread(6)(ends.length)
          .map((i, k) => [ends[i]! + 4, k] as const)
          .sort((x, y) => y[0] - x[0])
          .forEach(([pos, k]) => {
            const html =
              k % 2
                ? `\n<p><strong>${cap(a.keyword)}: ${a.keyword}</strong></p>`
                : `\n<h2>${cap(a.keyword)} – ${a.keyword}</h2>`;
            out = out.slice(0, pos) + html + out.slice(pos);
          });
        return out;
      }
      return addAt(a, spread(6), line, true);
    }
    case 'filler':
      return addAt(
        a,
        (c) => [Math.max(0, c - 2)],
        () => t.filler.join('\n\n'),
        true,
      );
    case 'quotation':
      return addAt(a, middle, () => t.quotation, true);
    case 'statistic':
      return addAt(a, middle, () => t.statistic, false);
    case 'citation':
      return addAt(a, middle, () => t.citation, false);
  }
};

/** CQS and the scored document, without recommendations (fast enough for a corpus-wide test). */
export const scoreOnly = (a: GeoArticle, content: string): Scored => {
  const input: EngineInput = { content, url: null, keyword: a.keyword, format: a.format };
  const p = prepareDocument(input);
  const bench = a.serp ? buildBench(a.serp, p.doc, p.kw, p.an, p.lex) : null;
  return scoreDoc(p.doc, { an: p.an, lex: p.lex, lang: p.language, kw: p.kw, bench, selfShingles: null });
};

/** Every strong article of the tuning corpora and corpus-a (never the held-out half). */
export const strongArticles = (): GeoArticle[] => [
  ...loadHalf('tuning').map((t) => ({
    id: `tuning/${t.id}`,
    language: t.language,
    keyword: t.keyword,
    content: t.strong,
    format: 'markdown' as const,
    serp: t.serp,
  })),
  ...articles.map((x) => ({
    id: `engine/${x.id}`,
    language: x.language,
    keyword: x.keyword,
    content: read('strong', x),
    format: x.file.endsWith('.html') ? ('html' as const) : ('markdown' as const),
    serp: null,
  })),
  ...loadCorpusA().map((t) => ({
    id: `corpus-a/${t.id}`,
    language: t.language,
    keyword: t.keyword,
    content: t.strong,
    format: 'markdown' as const,
    serp: t.serp,
  })),
];

export interface GeoRow {
  id: string;
  base: number;
  deltas: Record<Variant, number>;
  dims: Record<Variant, string>;
}

/** Each variant's CQS change (unrounded) and the dimensions that moved, per strong article. */
export const geoRows = (list = strongArticles()): GeoRow[] =>
  list.map((a) => {
    const base = scoreOnly(a, a.content);
    const deltas = {} as Record<Variant, number>;
    const dims = {} as Record<Variant, string>;
    for (const v of VARIANTS) {
      const s = scoreOnly(a, makeVariant(a, v));
      deltas[v] = Math.round((s.cqsRaw - base.cqsRaw) * 100) / 100;
      const moved = s.outcomes
        .map((o, i) => [o.id, Math.round((o.score - base.outcomes[i]!.score) * 10) / 10] as const)
        .filter(([, d]) => d !== 0)
        .map(([id, d]) => `${id}${d > 0 ? '+' : ''}${d}`);
      const e = Math.round((s.eeat.average - base.eeat.average) * 10) / 10;
      if (e) moved.push(`eeat${e > 0 ? '+' : ''}${e}`);
      dims[v] = moved.join(' ');
    }
    return { id: a.id, base: base.cqsRaw, deltas, dims };
  });
