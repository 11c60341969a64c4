import t from 'tap';
import { leansBack } from '../../../services/apply/answerFit.ts';
import { engineView, norm } from '../../../services/apply/engineView.ts';
import { planItems, type PlannedItem } from '../../../services/apply/items.ts';
import { rewrite } from '../../../services/apply/rewrite.ts';
import { addsNothing, isProtected } from '../../../services/engine/grounding.ts';
import { stripInline } from '../../../services/engine/text/markdown.ts';
import { splitSentences } from '../../../services/engine/text/segment.ts';
import { applySources, auditForApply } from '../../eval/applyArticles.ts';

/**
 * Keyword stuffing cut as its named sentences (struct:stuffing:<k>) and the answer answer-first
 * may move (answerFit.ts), on made-up texts and over every article of the engine fixtures and
 * corpus-a (weak and strong; no held-out article is read).
 */

const plan = (markdown: string, keyword: string, language = 'en'): PlannedItem[] =>
  planItems({ markdown, language, keyword, recommendations: [], paa: [], title: null });
const stuffing = (items: PlannedItem[]) => items.filter((p) => p.item.id.startsWith('struct:stuffing:'));

const STUFFED = 'When you think of bond yield, remember that bond yield is bond yield.';
const FACTS = [
  'A bond yield is the return an investor earns on a bond, stated as a yearly percentage of its price.',
  'The yield moves opposite to the price: when the price falls, the yield rises.',
  'A 10-year government bond paid 4.2% in March 2025, against 3.9% a year before.',
  'Investors compare yields to decide which bonds pay enough for their risk.',
];

t.test('a stuffed sentence is cut in every copy of its paragraph, the rest kept word for word', async (t) => {
  const repeated = `Bond yield is an important topic. ${STUFFED}`;
  const markdown = [
    '# Bond yield explained',
    FACTS.slice(0, 2).join(' '),
    repeated,
    '## Yields in practice',
    FACTS.slice(2).join(' '),
    repeated,
  ].join('\n\n');
  const items = stuffing(plan(markdown, 'bond yield'));
  t.equal(items.length, 1, 'one item for the paragraph and its copy');
  const p = items[0]!;
  t.ok(p.item.selectable, 'selectable');
  t.equal(p.item.before, repeated, 'BEFORE is the paragraph verbatim');
  t.equal(p.item.after, 'Bond yield is an important topic.', 'AFTER is the paragraph without the stuffing');
  t.match(p.item.label, /all 2 copies/);
  const r = rewrite(markdown, [p], [p.item.id]);
  t.same(r.appliedIds, [p.item.id]);
  t.notOk(r.markdown.includes(STUFFED), 'gone from both copies');
  for (const f of FACTS) t.ok(r.markdown.includes(f), `kept: ${f.slice(0, 30)}`);
  t.equal(r.markdown.split('Bond yield is an important topic.').length - 1, 2, 'the kept sentence stays in both');
});

t.test(
  'never cut: a figure, a question that ends its paragraph, a sentence the next one leans on, a reply',
  async (t) => {
    const markdown = [
      '# Bond yield explained',
      FACTS.join(' '),
      // The question ends its paragraph: the next paragraph answers it.
      'Why does bond yield matter for bond yield?',
      FACTS[1]!,
      // "This" leans on the question before it.
      `What is bond yield, bond yield? This is what every investor asks first about ${'bonds'}.`,
      // A figure: a fact, whatever the repetition.
      'Bond yield of 4% is bond yield.',
      // The reply to a question that stays, stays too.
      'Which bond yield pays 4% a year? Hard to say with bond yield and bond yield. Investors compare them every year.',
    ].join('\n\n');
    const cut = stuffing(plan(markdown, 'bond yield')).flatMap((p) => (p.edit?.kind === 'cut' ? p.edit.sentences : []));
    t.notOk(cut.includes('Why does bond yield matter for bond yield?'), 'the pseudo-heading stays');
    t.notOk(cut.includes('What is bond yield, bond yield?'), 'the question "This" points at stays');
    t.notOk(cut.includes('Bond yield of 4% is bond yield.'), 'the figure stays');
    t.notOk(cut.includes('Hard to say with bond yield and bond yield.'), 'the reply stays with its question');
  },
);

t.test('answer-first: no answer under a question heading, no pronoun opener, no empty claim', async (t) => {
  const view = engineView(
    '# Maler Leipzig\n\nHerzlich willkommen bei Ihrem Malerbetrieb in Leipzig und Umgebung.\n\n## Warum uns?\n\nWeil wir der Maler Leipzig sind, dem Sie vertrauen können.',
    'maler leipzig',
    'de',
  );
  t.ok(view, 'the engine reads the text');
  t.ok(leansBack('Diese Frage stellen viele.', view!), 'a pronoun opener leans back');
  const markdown = [
    '# Golf or Polo',
    'Many people compare cars before they buy one, and they read a lot of reviews.',
    '## Why choose the Golf?',
    'The Golf or Polo choice is simple for families: the Golf has the bigger boot and the longer wheelbase.',
    'It is the Golf or Polo buyer who decides in the end, comparing the boot and the price.',
  ].join('\n\n');
  const af = plan(markdown, 'golf or polo').find((p) => p.item.id === 'struct:answer-first')!;
  t.not(
    af.edit?.kind === 'move' && af.edit.sentence.startsWith('The Golf or Polo choice'),
    true,
    'the answer to "Why choose the Golf?" stays under it',
  );
  t.not(af.edit?.kind === 'move' && af.edit.sentence.startsWith('It is'), true, 'no sentence opening on "It"');
  const figures = [
    '# Fixed or variable rate mortgage',
    'A fixed rate mortgage cost 0.5 points more than a variable one in 2025, for the first 5 years.',
    'Fixed or variable rate mortgage is an important topic.',
  ].join('\n\n');
  const af2 = plan(figures, 'fixed or variable rate mortgage').find((p) => p.item.id === 'struct:answer-first')!;
  t.notOk(af2.item.selectable, 'an opening with its figures is not pushed down by an empty claim');
});

const articles = applySources().map(auditForApply);

t.test('corpus-wide: every stuffing cut is a sentence the engine scores as stuffing and may cut', async (t) => {
  let offered = 0;
  for (const a of articles) {
    const view = engineView(a.markdown, a.keyword, a.language);
    const stuffed = new Set(view?.stuffed.map((s) => norm(s.text)) ?? []);
    for (const p of stuffing(a.items)) {
      offered++;
      if (p.edit?.kind !== 'cut' || !view) {
        t.fail(`${a.name} ${p.item.id}: not a cut`);
        continue;
      }
      const cut = p.edit.sentences;
      t.same(
        splitSentences(p.item.after),
        splitSentences(p.item.before).filter((s) => !cut.includes(s)),
        `${a.name} ${p.item.id}: AFTER is BEFORE less the cut sentences, nothing else changed`,
      );
      for (const s of p.edit.sentences) {
        const plain = norm(stripInline(s));
        t.ok(stuffed.has(plain), `${a.name}: "${plain.slice(0, 50)}" is stuffing to the engine`);
        t.notOk(isProtected(plain, view.ctx), `${a.name}: "${plain.slice(0, 50)}" has no figure, source or definition`);
        t.ok(addsNothing(plain, view.ctx), `${a.name}: "${plain.slice(0, 50)}" adds nothing`);
      }
      const r = rewrite(a.markdown, a.items, [p.item.id]);
      t.same(r.appliedIds, [p.item.id], `${a.name} ${p.item.id}: placed`);
      for (const s of p.edit.sentences) t.notOk(r.markdown.includes(s), `${a.name}: cut in every copy`);
    }
  }
  t.ok(offered > 0, `${offered} stuffing cuts offered`);
});

t.test(
  'corpus-wide: answer-first never moves a sentence that leans back, says nothing or answers a question',
  async (t) => {
    for (const a of articles) {
      const af = a.items.find((p) => p.item.id === 'struct:answer-first');
      if (af?.edit?.kind !== 'move' || !af.item.selectable) continue;
      const view = engineView(a.markdown, a.keyword, a.language);
      if (!view) continue;
      const plain = norm(stripInline(af.edit.sentence));
      t.notOk(leansBack(plain, view), `${a.name}: "${plain.slice(0, 50)}" does not lean back`);
      t.notOk(view.empty.has(plain), `${a.name}: not filler`);
      const from = splitSentences(af.edit.from);
      const i = from.indexOf(af.edit.sentence);
      t.notOk(i > 0 && /[?？]$/u.test(from[i - 1]!), `${a.name}: not the answer to the question before it`);
    }
  },
);

t.test('answer-first: no sign-off, no sentence that presupposes another, none from the closing section', async (t) => {
  const moved = (markdown: string, keyword: string) => {
    const af = plan(markdown, keyword).find((p) => p.item.id === 'struct:answer-first')!;
    return af.edit?.kind === 'move' && af.item.selectable ? af.edit.sentence : null;
  };
  const intro = 'Many homes need heating in winter, and owners look at what the market offers them each year.';
  t.equal(moved(`# Heat pumps\n\n${intro}\n\nNow you know what a heat pump is!`, 'heat pump'), null, 'an exclamation');
  t.equal(
    moved(
      `# Heat pumps\n\n${intro}\n\nAnother heat pump is the ground source kind that draws heat from the soil.`,
      'heat pump',
    ),
    null,
    '"Another" presupposes the one before',
  );
  t.equal(
    moved(
      `# Heat pumps\n\n${intro}\n\n## Types\n\nAir and ground units differ in cost and output.\n\n## Conclusion\n\nA heat pump is a good choice for a well insulated home.`,
      'heat pump',
    ),
    null,
    'the summary keeps its lines',
  );
  t.equal(
    moved(
      `# Heat pumps\n\n${intro}\n\nA heat pump is a device that moves heat from the outside air into the house.`,
      'heat pump',
    ),
    'A heat pump is a device that moves heat from the outside air into the house.',
    'a plain answer is still moved',
  );
  t.equal(
    moved(
      `# Kraków cycle lanes\n\n${intro}\n\nKraków cycle lanes will grow by 42 km by 2027, the mayor said.`,
      'kraków cycle lanes',
    ),
    'Kraków cycle lanes will grow by 42 km by 2027, the mayor said.',
    'without an answer verb, a sentence with a figure',
  );
  t.equal(
    moved(
      `# Kraków cycle lanes\n\n${intro}\n\nKraków cycle lanes will grow, the mayor said on Tuesday.`,
      'kraków cycle lanes',
    ),
    null,
    'without an answer verb and without a figure, none',
  );
});

t.test('answer-first: no sentence that points back inside it, no hedge without a figure', async (t) => {
  const moved = (markdown: string, keyword: string, lang: string) => {
    const af = plan(markdown, keyword, lang).find((p) => p.item.id === 'struct:answer-first')!;
    return af.edit?.kind === 'move' && af.item.selectable ? af.edit.sentence : null;
  };
  const intro: Record<string, string> = {
    en: 'Many homes need heating in winter, and owners look at what the market offers them each year.',
    pl: 'Wiele domów potrzebuje zimą ogrzewania, a właściciele co roku sprawdzają, co oferuje rynek.',
  };
  const cases: [string, string, string | null, string, string][] = [
    [
      'If you see any of these, a heat pump is probably worth a look.',
      'heat pump',
      null,
      '"any of these," stands for what came before',
      'en',
    ],
    ['You should perhaps service a heat pump now and then.', 'heat pump', null, 'a hedge and no figure', 'en'],
    [
      'A heat pump probably saves 30% of the heating bill in a well insulated house.',
      'heat pump',
      'A heat pump probably saves 30% of the heating bill in a well insulated house.',
      'a hedged figure is still the news',
      'en',
    ],
    [
      'Pompa ciepła to urządzenie, a jej działanie polega na tym, że przenosi ciepło z powietrza do domu.',
      'pompa ciepła',
      'Pompa ciepła to urządzenie, a jej działanie polega na tym, że przenosi ciepło z powietrza do domu.',
      '"na tym, że" announces the clause after it',
      'pl',
    ],
  ];
  for (const [sentence, keyword, want, why, lang] of cases)
    t.equal(moved(`# Heat pumps\n\n${intro[lang]}\n\n${sentence}`, keyword, lang), want, why);
});
