import t from 'tap';
import {
  engineCpuMs as cpuMs,
  normalHtmlInput,
  normalInput,
  pathologicalInput,
  PATHOLOGICAL_KINDS,
} from '../../helpers/pathologicalInputs.ts';

/**
 * The engine stays near-linear on any input (issue 22): each pathological input of the spec's
 * largest size costs at most a bounded multiple of an ordinary article of the same length. CPU
 * time, not wall time, so another process on the machine does not decide the outcome. Before the
 * fixes, a 32,000-letter token took 12 s, a 2,000-deep <div> chain 77 s, and 8,000 overflowed.
 */
const CHARS = 200_000;
/** Pages of HTML are read by Readability, the costliest step; their yardstick is an HTML page. */
const MAX_RATIO = 10;

t.test('pathological inputs cost a bounded multiple of a normal article of their length', async (t) => {
  cpuMs(normalInput(20_000)); // warm the JIT and the word lists
  const text = cpuMs(normalInput(CHARS));
  const html = cpuMs(normalHtmlInput(CHARS));
  t.match(text.outcome, /^cqs/, 'the yardstick is audited');
  t.match(html.outcome, /^cqs/, 'the HTML yardstick is audited');
  for (const kind of PATHOLOGICAL_KINDS) {
    const input = pathologicalInput(kind, CHARS);
    const yardstick = input.format === 'html' ? html : text;
    const run = cpuMs(input);
    t.ok(
      run.ms <= MAX_RATIO * yardstick.ms + 250,
      `${kind}: ${Math.round(run.ms)} ms against ${Math.round(yardstick.ms)} ms (${run.outcome})`,
    );
  }
});
