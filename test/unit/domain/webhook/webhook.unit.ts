import t from 'tap';
import type { AttemptError, WebhookEvent } from '../../../../events/webhook/events.ts';
import { nextAttempt, webhookDecider, type WebhookCommand } from '../../../../services/domain/webhook/decider.ts';
import { fold } from '../../../../core/decider.ts';
import { spec } from '../../../helpers/deciderSpec.ts';

const s = spec(webhookDecider);
const delivery = {
  jobId: 'job_1',
  auditId: 'aud_1',
  event: 'audit.completed' as const,
  url: 'https://hooks.example.com/in',
  body: '{"event":"audit.completed"}',
};
const scheduled: WebhookEvent = { type: 'WebhookScheduled', data: delivery };
const schedule: WebhookCommand = { type: 'ScheduleWebhook', data: delivery };

const answer = (attempt: number, status: number | null, error: AttemptError | null = null): WebhookCommand => ({
  type: 'RecordAttempt',
  data: { attempt, status, error, detail: error ? `detail of ${error}` : null, durationMs: 12 },
});
const attempted = (
  attempt: number,
  status: number | null,
  retryInMs: number | null,
  error: AttemptError | null = null,
): WebhookEvent => ({
  type: 'WebhookAttempted',
  data: { attempt, status, error, detail: error ? `detail of ${error}` : null, durationMs: 12, retryInMs },
});
const delivered = (attempt: number, status: number): WebhookEvent => ({
  type: 'WebhookDelivered',
  data: { attempt, status },
});
const abandoned = (
  reason: Extract<WebhookEvent, { type: 'WebhookAbandoned' }>['data']['reason'],
  attempts: number,
): WebhookEvent => ({
  type: 'WebhookAbandoned',
  data: { reason, attempts },
});

t.test('when nothing is scheduled', async (t) => {
  t.test('a finished audit schedules its webhook', s.given([]).when(schedule).then([scheduled]));
  t.test('an attempt is refused as not found', s.given([]).when(answer(1, 200)).thenThrows('not_found'));
});

t.test('when scheduled', async (t) => {
  t.test('the same outcome replayed schedules nothing new', s.given([scheduled]).when(schedule).then([]));
  t.test(
    '2xx on the first attempt: delivered',
    s
      .given([scheduled])
      .when(answer(1, 200))
      .then([attempted(1, 200, null), delivered(1, 200)]),
  );
  t.test(
    'any 2xx counts (204)',
    s
      .given([scheduled])
      .when(answer(1, 204))
      .then([attempted(1, 204, null), delivered(1, 204)]),
  );
  t.test('an attempt out of order is a bug', s.given([scheduled]).when(answer(2, 200)).thenThrows('internal_error'));
  t.test(
    'a worker that cannot sign abandons before any attempt',
    s
      .given([scheduled])
      .when({ type: 'AbandonWebhook', data: { reason: 'no_signing_secret' } })
      .then([abandoned('no_signing_secret', 0)]),
  );
});

t.test('stop rules per answer (spec 6.2, 6.4)', async (t) => {
  for (const status of [301, 302, 307, 308]) {
    t.test(
      `${status} ends the attempts: redirects are never followed`,
      s
        .given([scheduled])
        .when(answer(1, status))
        .then([attempted(1, status, null), abandoned('redirect', 1)]),
    );
  }
  for (const status of [400, 401, 403, 404, 410, 422]) {
    t.test(
      `${status} ends the attempts`,
      s
        .given([scheduled])
        .when(answer(1, status))
        .then([attempted(1, status, null), abandoned('client_error', 1)]),
    );
  }
  for (const status of [408, 429, 500, 502, 503]) {
    t.test(
      `${status} is retried after 1 s`,
      s
        .given([scheduled])
        .when(answer(1, status))
        .then([attempted(1, status, 1000)]),
    );
  }
  for (const error of ['timeout', 'network', 'dns_failed'] as const) {
    t.test(
      `no answer (${error}) is retried after 1 s`,
      s
        .given([scheduled])
        .when(answer(1, null, error))
        .then([attempted(1, null, 1000, error)]),
    );
  }
  for (const error of ['scheme', 'blocked_address', 'invalid_url', 'credentials', 'port'] as const) {
    t.test(
      `a refused address (${error}) ends the attempts`,
      s
        .given([scheduled])
        .when(answer(1, null, error))
        .then([attempted(1, null, null, error), abandoned('refused_address', 1)]),
    );
  }
  t.test(
    'a stop rule on a later attempt ends it there',
    s
      .given([scheduled, attempted(1, 500, 1000)])
      .when(answer(2, 404))
      .then([attempted(2, 404, null), abandoned('client_error', 2)]),
  );
});

t.test('pause schedule and at most 3 attempts (spec 6.3)', async (t) => {
  t.test(
    'the second failure asks for 4 s',
    s
      .given([scheduled, attempted(1, 500, 1000)])
      .when(answer(2, 503))
      .then([attempted(2, 503, 4000)]),
  );
  t.test(
    'the third failure ends the attempts',
    s
      .given([scheduled, attempted(1, 500, 1000), attempted(2, 429, 4000)])
      .when(answer(3, 408))
      .then([attempted(3, 408, null), abandoned('attempts_exhausted', 3)]),
  );
  t.test(
    'the third attempt may still deliver',
    s
      .given([scheduled, attempted(1, 500, 1000), attempted(2, null, 4000, 'timeout')])
      .when(answer(3, 200))
      .then([attempted(3, 200, null), delivered(3, 200)]),
  );
  t.test(
    'a fourth attempt is refused',
    s
      .given([scheduled, attempted(1, 500, 1000), attempted(2, 500, 4000)])
      .when(answer(4, 200))
      .thenThrows('internal_error'),
  );
  t.test(
    'an attempt recorded twice (two workers) is recorded once',
    s
      .given([scheduled, attempted(1, 500, 1000)])
      .when(answer(1, 200))
      .then([]),
  );

  t.test('nextAttempt: at once, then 1 s and 4 s after the recorded attempt, then nothing', async (t) => {
    const at = new Date('2026-01-01T00:00:00.000Z');
    const state = (events: WebhookEvent[]) => fold(webhookDecider, events);
    t.same(nextAttempt(state([]), null), null, 'nothing scheduled');
    t.same(nextAttempt(state([scheduled]), null), { attempt: 1, notBefore: null });
    t.same(nextAttempt(state([scheduled, attempted(1, 500, 1000)]), at), {
      attempt: 2,
      notBefore: new Date('2026-01-01T00:00:01.000Z'),
    });
    t.same(nextAttempt(state([scheduled, attempted(1, 500, 1000), attempted(2, 500, 4000)]), at), {
      attempt: 3,
      notBefore: new Date('2026-01-01T00:00:04.000Z'),
    });
    t.same(
      nextAttempt(
        state([
          scheduled,
          attempted(1, 500, 1000),
          attempted(2, 500, 4000),
          attempted(3, 500, null),
          abandoned('attempts_exhausted', 3),
        ]),
        at,
      ),
      null,
    );
    t.same(nextAttempt(state([scheduled, attempted(1, 200, null), delivered(1, 200)]), at), null);
  });
});

t.test('nothing after delivered or abandoned', async (t) => {
  const done = [scheduled, attempted(1, 200, null), delivered(1, 200)];
  const gaveUp = [scheduled, attempted(1, 404, null), abandoned('client_error', 1)];
  t.test('no attempt after delivered', s.given(done).when(answer(2, 500)).then([]));
  t.test(
    'no abandonment after delivered',
    s
      .given(done)
      .when({ type: 'AbandonWebhook', data: { reason: 'worker_failed' } })
      .then([]),
  );
  t.test('no attempt after abandoned', s.given(gaveUp).when(answer(2, 200)).then([]));
  t.test('no second schedule after delivered', s.given(done).when(schedule).then([]));
  t.test(
    'a dying worker abandons a delivery in progress',
    s
      .given([scheduled, attempted(1, 500, 1000)])
      .when({ type: 'AbandonWebhook', data: { reason: 'worker_failed' } })
      .then([abandoned('worker_failed', 1)]),
  );
});
