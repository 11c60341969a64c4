import t from 'tap';
import { nextLeansBack } from '../../../services/engine/grounding.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';

/**
 * Blind review r9's harmful rejects (issue 23): a sentence cut as stuffing left the next one pointing
 * at nothing ("To pytanie …", "Genau deshalb …"). A cut is refused when the following sentence, in
 * document order and across blocks, refers back. Texts written for the test.
 */
const ctxOf = (content: string, keyword: string) => {
  const p = prepareDocument({ content, url: null, keyword, format: 'markdown' });
  return { doc: p.doc, ctx: { an: p.an, lex: p.lex, lang: p.doc.language, kw: p.kw, bench: null, selfShingles: null } };
};

t.test('a removal whose next sentence refers back is refused, in en, pl and de', async (t) => {
  const cases: [string, string, string, string, boolean][] = [
    ['en', 'garden hose', 'What is a garden hose for?', 'This is why the tape matters.', true],
    ['en', 'garden hose', 'What is a garden hose for?', 'Most hoses last ten years.', false],
    ['pl', 'wąż ogrodowy', 'Wąż ogrodowy to wąż ogrodowy.', 'To pytanie zadaje sobie każdy działkowiec.', true],
    ['pl', 'wąż ogrodowy', 'Wąż ogrodowy to wąż ogrodowy.', 'Węże z PCV pękają po trzech latach.', false],
    ['de', 'Gartenschlauch', 'Der Gartenschlauch ist ein Gartenschlauch.', 'Genau deshalb hält er so lange.', true],
    [
      'de',
      'Gartenschlauch',
      'Der Gartenschlauch ist ein Gartenschlauch.',
      'Schläuche aus PVC reißen nach drei Jahren.',
      false,
    ],
  ];
  for (const [lang, keyword, cut, next, refused] of cases) {
    const body =
      lang === 'en'
        ? 'The hose carries water from the tap to the beds.'
        : lang === 'pl'
          ? 'Wąż doprowadza wodę z kranu do grządek.'
          : 'Der Schlauch bringt Wasser vom Hahn zu den Beeten.';
    const { doc, ctx } = ctxOf(`# ${keyword}\n\n${body} ${cut}\n\n${next} ${body}`, keyword);
    t.equal(nextLeansBack(cut, doc, ctx), refused, `${lang}: "${next}"`);
  }
});

t.test("a page's apparatus heading (Sources, Źródła, Quellen) is not an off-topic section", async (t) => {
  const { scoreContent } = await import('../../../services/engine/audit.ts');
  const page = (sources: string) =>
    `# What is a garden hose\n\nA garden hose is a flexible tube that carries water from a tap to the garden.\n\n## Garden hose materials\n\nA garden hose is made of rubber or PVC; rubber lasts longer.\n\n## ${sources}\n\n- Hose makers' catalogues, 2024.`;
  const off = (heading: string) =>
    scoreContent({ content: page(heading), url: null, keyword: 'what is a garden hose', format: 'markdown' })
      .outcomes.find((o) => o.id === 'csiAlignment')!
      .findings.some((f) => f.title.includes(heading));
  t.notOk(off('Sources'), 'a Sources section needs no topic words');
  t.ok(off('Watering the lawn'), 'an ordinary heading without a topic word is still flagged');
});
