import t from 'tap';
import { hasEventDefinition } from '../../events/registry.ts';
import { ALL_ROLES } from '../../infra/config.ts';
import { REACTIONS } from '../../services/reactions.ts';
import { registerService } from '../../services/registration.ts';

registerService();

// services/reactions.ts is where a newcomer lists what follows an event: every entry must name
// real events and roles, or its subscription would wait for something that never comes.
t.test('every reaction reacts to catalogued events and runs in a known role', async (t) => {
  for (const r of REACTIONS) {
    t.ok(r.on.length > 0 && r.on.every(hasEventDefinition), `${r.name}: ${r.on.join(', ')}`);
    t.ok(r.roles.length > 0 && r.roles.every((role) => ALL_ROLES.includes(role)), `${r.name}: ${r.roles.join(', ')}`);
  }
});

t.test('what follows an ended audit, read from the list', async (t) => {
  const after = (type: string) => REACTIONS.filter((r) => r.on.includes(type)).map((r) => r.group);
  t.same(after('AuditRequested'), ['pipeline.tasks']);
  t.same(after('ContentFetched'), ['pipeline.tasks']);
  t.same(after('AuditCompleted'), ['audit.outcome', 'audit.outcome', 'webhooks.schedule']);
  t.same(after('AuditFailed'), ['audit.outcome', 'webhooks.schedule']);
});
