import t from 'tap';
import { RevisionRequested } from '../../../events/revision/events.ts';
import { withResultIds, type StoredResult } from '../../../services/apply/revisionView.ts';
import { planRequest, selectionKeyOf } from '../../../services/domain/revision/decider.ts';
import { evolve, initialState } from '../../../services/domain/revision/state.ts';

/**
 * Issue 23: before it, apply items numbered recommendations from rec:0 while the result numbers them
 * from rec:1. A revision requested then is read with the ids it meant, so the same choice made now
 * (by the result's id) finds it, and another choice does not.
 */
t.test('a revision requested under the old numbering is read with the result’s ids', async (t) => {
  const v1 = {
    revisionId: 'rev_1',
    auditId: 'aud_1',
    jobId: null,
    selectedIds: ['rec:9', 'meta:title', 'rec:0'],
    selectionKey: selectionKeyOf(['rec:9', 'meta:title', 'rec:0']),
    force: false,
  };
  t.equal(RevisionRequested.latest, 2);
  const now = RevisionRequested.upcast(1, v1);
  t.same(now.selectedIds, ['rec:10', 'meta:title', 'rec:1']);
  t.equal(now.selectionKey, selectionKeyOf(['rec:10', 'meta:title', 'rec:1']), 'the key in its sorted form');
  t.same(RevisionRequested.upcast(2, now), now, 'v2 is read as written');
  let state = evolve(initialState(), { type: 'RevisionRequested', data: now });
  state = evolve(state, {
    type: 'RevisionGenerated',
    data: { revisionId: 'rev_1', resultRef: 'r', appliedCount: 1, cqsBefore: 50 },
  });
  t.match(planRequest(state, 'aud_1', selectionKeyOf(['rec:1', 'rec:10', 'meta:title']), false), {
    kind: 'cached',
    revision: { revisionId: 'rev_1' },
  });
  t.equal(planRequest(state, 'aud_1', selectionKeyOf(['rec:0', 'rec:9', 'meta:title']), false).kind, 'new');
});

t.test('a generation stored under the old numbering shows the result’s ids', async (t) => {
  const old: StoredResult = {
    markdown: 'x',
    title: null,
    description: null,
    appliedIds: ['rec:0', 'struct:toc'],
    skipped: [{ id: 'rec:3', reason: 'not_found', message: 'm' }],
    previewHtml: '',
  };
  t.match(withResultIds(old), { appliedIds: ['rec:1', 'struct:toc'], skipped: [{ id: 'rec:4' }] });
  const fresh = withResultIds({ ...old, recIds: 'result' });
  t.same(fresh.appliedIds, ['rec:0', 'struct:toc'], 'a new generation is read as written');
  t.notOk('recIds' in fresh, 'the marker is not part of the 2.6 result');
});
