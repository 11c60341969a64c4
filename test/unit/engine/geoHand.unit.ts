/**
 * The hand-written GEO variants (issue 24, item 6) apply to their held-out articles as written:
 * every anchor is in exactly one block, and each edit adds its text. Their CQS directions are
 * measured by `npm run eval`, never asserted (the held-out half must not steer the engine).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { loadTopic } from '../../eval/corpus.ts';
import { applyEdits, HAND_DIR, HAND_VARIANTS } from '../../eval/geoHand.ts';

t.test('applyEdits: after adds a block, append extends one; an anchor must be unique', async (t) => {
  const doc = 'Title\n\nFirst block here.\n\nSecond block.';
  t.equal(applyEdits(doc, [{ after: 'First', text: 'New.' }]), 'Title\n\nFirst block here.\n\nNew.\n\nSecond block.');
  t.equal(applyEdits(doc, [{ append: 'Second', text: 'More.' }]), 'Title\n\nFirst block here.\n\nSecond block. More.');
  t.throws(() => applyEdits(doc, [{ after: 'block', text: 'x' }]), /found 2 times/);
  t.throws(() => applyEdits(doc, [{ after: 'absent', text: 'x' }]), /found 0 times/);
});

for (const f of readdirSync(HAND_DIR).filter((x) => x.endsWith('.json'))) {
  t.test(f, async (t) => {
    const topic = loadTopic('heldout', f.replace(/\.json$/, ''));
    const variants = JSON.parse(readFileSync(join(HAND_DIR, f), 'utf8')) as Record<string, { text: string }[]>;
    t.same(Object.keys(variants).sort(), [...HAND_VARIANTS].sort(), 'every variant written');
    for (const v of HAND_VARIANTS) {
      const out = applyEdits(topic.strong, variants[v] as Parameters<typeof applyEdits>[1]);
      for (const e of variants[v]!) t.ok(out.includes(e.text), `${v}: "${e.text.slice(0, 30)}…" added`);
    }
  });
}
