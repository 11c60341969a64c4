import t from 'tap';
import { accountStreamId } from '../../../events/account/index.ts';
import { auditStreamId } from '../../../events/audit/events.ts';
import { revisionStreamId } from '../../../events/revision/events.ts';
import { shareStreamId } from '../../../events/share/events.ts';
import { idOf, parseStreamId, streamIdOf } from '../../../events/streamId.ts';

t.test('each stream builds its ids with streamIdOf, and idOf reads them back', async (t) => {
  t.equal(auditStreamId('aud_1'), streamIdOf('audit', 'aud_1'));
  t.equal(idOf('audit', auditStreamId('aud_1')), 'aud_1');
  t.equal(idOf('account', accountStreamId('acc_x-y')), 'acc_x-y', 'a dash inside the id stays in the id');
  t.equal(idOf('revision', revisionStreamId('aud_2')), 'aud_2');
  t.equal(idOf('share', shareStreamId('aud_3')), 'aud_3');
});

t.test('another stream, or no stream, is refused', async (t) => {
  t.throws(() => idOf('audit', shareStreamId('aud_1')), /not a stream id of audit/);
  t.equal(parseStreamId('nostream-x'), null);
  t.equal(parseStreamId('audit-'), null, 'no id');
  t.equal(parseStreamId('audit'), null);
  t.strictSame(parseStreamId('bulk-blk_1'), { stream: 'bulk', id: 'blk_1' });
});
