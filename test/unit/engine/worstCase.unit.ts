import t, { type Test } from 'tap';
import type { SerpBenchmarkInput } from '../../../services/engine/types.ts';
import {
  engineCpuMs,
  normalHtmlInput,
  normalInput,
  pathologicalInput,
  PATHOLOGICAL_KINDS,
} from '../../helpers/pathologicalInputs.ts';

/**
 * The worst valid request costs a bounded multiple of an ordinary one: each hostile input of the
 * spec's largest size (200,000 characters), with its keyword detected, then with the longest
 * keyword, then beside a SERP of ten competitor pages of that size, against an ordinary 2,000-word
 * article audited in the same run. A fixed bound would fail on a slow machine; this one fails on a
 * quadratic step (a flood of `[` took minutes before the engine read it in one pass). Pages of
 * HTML are measured against a 2,000-word page, as Readability reads them.
 */
const CHARS = 200_000;
const WORDS_2000 = 13_500; // characters of the fixture article per 2,000 words
/**
 * The inputs are 15 times as long as the yardstick: a linear engine costs about 15 times as much,
 * a quadratic step some 225 times (and the ones found cost thousands).
 */
const MAX_RATIO = 50;
/** Milliseconds of slack: a garbage collection, a timer. */
const SLACK_MS = 250;
const LONG_KEYWORD = 'descale espresso machine '.repeat(9).slice(0, 200).trim();

const within = (t: Test, label: string, run: { ms: number; outcome: string }, yardstick: number) => {
  t.match(run.outcome, /^cqs/, `${label}: audited (${run.outcome})`);
  t.ok(
    run.ms <= MAX_RATIO * yardstick + SLACK_MS,
    `${label}: ${Math.round(run.ms)} ms against ${Math.round(yardstick)} ms for 2,000 words`,
  );
};

t.test('hostile inputs cost a bounded multiple of an ordinary 2,000-word audit', async (t) => {
  engineCpuMs(normalInput(20_000)); // warm the JIT and the word lists
  const text = engineCpuMs({ ...normalInput(WORDS_2000), keyword: null }).ms;
  const html = engineCpuMs({ ...normalHtmlInput(WORDS_2000), keyword: null }).ms;
  within(t, 'normal article', engineCpuMs({ ...normalInput(CHARS), keyword: null }), text);
  for (const kind of PATHOLOGICAL_KINDS) {
    const input = pathologicalInput(kind, CHARS);
    within(t, `${kind}, keyword detected`, engineCpuMs({ ...input, keyword: null }), input.format ? html : text);
  }
  for (const kind of ['open brackets', 'unclosed quotation']) {
    const input = { ...pathologicalInput(kind, CHARS), keyword: LONG_KEYWORD };
    within(t, `${kind}, a 200-character keyword`, engineCpuMs(input), text);
  }
});

/** Ten competitor pages of `chars` characters each: the hostile kinds, as a SERP could return them. */
const hostileSerp = (chars: number): SerpBenchmarkInput => ({
  searchVolume: 1000,
  serpOrganicCount: 100_000,
  paa: ['How often should you descale an espresso machine?'],
  related: ['espresso descaler'],
  competitors: ['normal', 'open brackets', 'one run of digits', 'html headings', 'unclosed quotation']
    .flatMap((kind) => [kind, kind])
    .map((kind, i) => {
      const page = kind === 'normal' ? normalInput(chars) : pathologicalInput(kind, chars);
      const body = page.format === 'html' ? { html: page.content } : { text: page.content };
      return { url: `https://c${i}.example.com/descale`, title: `Descale ${i}`, ...body };
    }),
});

t.test('a SERP of ten hostile pages costs a bounded multiple of an audit with ten ordinary ones', async (t) => {
  const small = hostileSerp(WORDS_2000);
  const big = hostileSerp(CHARS);
  const yardstick = engineCpuMs({ ...normalInput(WORDS_2000), benchmark: small }).ms;
  within(t, 'normal article', engineCpuMs({ ...normalInput(WORDS_2000), benchmark: big }), yardstick);
  for (const kind of ['open brackets', 'one run of digits'])
    within(t, kind, engineCpuMs({ ...pathologicalInput(kind, CHARS), benchmark: big }), yardstick);
});
