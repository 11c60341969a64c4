/**
 * The soak's checker, Jepsen's way: the whole history is gathered after the run, then checked
 * against the service's promises. Pure: the soak (or a test) hands it the history.
 */
export interface LogRecord {
  id: string;
  streamId: string;
  streamVersion: number;
  /** Commit-order position, `txId:seq` (events/envelope.ts). */
  position: string;
}

export interface TopicRecord extends LogRecord {
  partition: number;
}

export interface Interval {
  from: number;
  to: number;
}

export interface History {
  /** Job ids the API accepted (202/200). */
  accepted: string[];
  /** Job ids whose stream holds a terminal event. */
  terminal: string[];
  /**
   * Apply generations (revision ids): accepted by the API or requested in the store, and the
   * store's outcome of each (RevisionGenerated / RevisionFailed).
   */
  generations: { accepted: string[]; completed: string[]; failed: string[] };
  /** Every CreditCharged event's subject (an audit or a generation). */
  charges: string[];
  /** Every CreditRefunded event's subject. */
  refunds: string[];
  /** Per account: the ledger replayed from its stream, the projection's figure, `ledger verify`. */
  ledgers: { accountId: string; replay: number; projected: number; verifyOk: boolean }[];
  /** The event store, the source of truth. */
  stored: LogRecord[];
  /** The events topic, each partition in offset order. */
  topic: TopicRecord[];
  /** POSTs the webhook receiver got, by delivery id. */
  webhookPosts: Record<string, number>;
  maxWebhookAttempts: number;
  /** Consumer-group lag at the end, by group. */
  lags: Record<string, number>;
  faults: (Interval & { kind: string })[];
  submissions: Submission[];
}

/** How long one request took to be accepted, and what it asked for (an audit, a batch, a generation). */
export interface Submission extends Interval {
  what: string;
}

export interface Verdict {
  figures: {
    accepted: number;
    terminal: number;
    notTerminal: number;
    doubleCharges: number;
    generationsAccepted: number;
    generationsCompleted: number;
    generationsFailed: number;
    generationsNotTerminal: number;
    generationsChargedTwice: number;
    generationsCreditWrong: number;
    ledgersTrue: number;
    ledgers: number;
    topicRecords: number;
    duplicatesDroppedByConsumers: number;
    orderViolations: number;
    gaps: number;
    duplicatesPastDedup: number;
    missingFromTopic: number;
    webhookDeliveries: number;
    webhooksOverLimit: number;
    maxLag: number;
    faultsByKind: Record<string, number>;
    worstWaitDuringFaultMs: number;
    worstWaitDuringFaultMsByWhat: Record<string, number>;
  };
  violations: string[];
}

const compare = (a: string, b: string): number => {
  const [at, as] = a.split(':').map(BigInt) as [bigint, bigint];
  const [bt, bs] = b.split(':').map(BigInt) as [bigint, bigint];
  return at !== bt ? (at < bt ? -1 : 1) : as === bs ? 0 : as < bs ? -1 : 1;
};

/**
 * What a consumer applies: per partition, a record at or before the last applied position is a
 * copy a restarted relay sent again, and is dropped (infra/kafka/kafkaSubscriber.ts).
 */
export function afterDedup(topic: TopicRecord[]): { applied: TopicRecord[]; dropped: number } {
  const last = new Map<number, string>();
  const applied: TopicRecord[] = [];
  for (const r of topic) {
    const prev = last.get(r.partition);
    if (prev !== undefined && compare(r.position, prev) <= 0) continue;
    last.set(r.partition, r.position);
    applied.push(r);
  }
  return { applied, dropped: topic.length - applied.length };
}

/** Per stream, in the order a consumer applies them: versions 1, 2, 3… with no gap and no repeat. */
function streamOrder(applied: TopicRecord[], violations: string[]) {
  const next = new Map<string, number>();
  let order = 0;
  let gaps = 0;
  let dups = 0;
  for (const r of applied) {
    const expected = next.get(r.streamId) ?? 1;
    if (r.streamVersion === expected) next.set(r.streamId, expected + 1);
    else if (r.streamVersion < expected) {
      dups++;
      violations.push(`topic: ${r.streamId} v${r.streamVersion} again after v${expected - 1} (duplicate)`);
    } else {
      gaps++;
      order++;
      violations.push(`topic: ${r.streamId} v${r.streamVersion} where v${expected} was due (gap or reorder)`);
      next.set(r.streamId, r.streamVersion + 1);
    }
  }
  return { gaps, dups, order };
}

const overlaps = (a: Interval, b: Interval) => a.from < b.to && b.from < a.to;

/**
 * Every accepted generation ended, and its credit is right: a completed one charged exactly once
 * (none twice, none given away), a failed one charged and refunded (3.4: none lost). The soak's
 * accounts are limited ones, so every generation is charged.
 */
function checkGenerations(h: History, charged: Map<string, number>, net: Map<string, number>, violations: string[]) {
  const completed = new Set(h.generations.completed);
  const failed = new Set(h.generations.failed);
  const notTerminal = h.generations.accepted.filter((r) => !completed.has(r) && !failed.has(r));
  for (const r of notTerminal.slice(0, 20)) violations.push(`generation ${r} accepted but never terminal`);
  const twice = h.generations.accepted.filter((r) => (charged.get(r) ?? 0) > 1);
  let wrong = 0;
  for (const r of h.generations.accepted) {
    const due = completed.has(r) ? 1 : failed.has(r) ? 0 : undefined;
    const n = net.get(r) ?? 0;
    if (due === undefined || n === due) continue;
    wrong++;
    violations.push(`generation ${r} ${completed.has(r) ? 'completed' : 'failed'} with ${n} credits net (${due} due)`);
  }
  return {
    generationsAccepted: h.generations.accepted.length,
    generationsCompleted: completed.size,
    generationsFailed: failed.size,
    generationsNotTerminal: notTerminal.length,
    generationsChargedTwice: twice.length,
    generationsCreditWrong: wrong,
  };
}

export function checkHistory(h: History): Verdict {
  const violations: string[] = [];
  const terminal = new Set(h.terminal);
  const notTerminal = h.accepted.filter((j) => !terminal.has(j));
  for (const j of notTerminal.slice(0, 20)) violations.push(`job ${j} accepted but never terminal`);

  const charged = new Map<string, number>();
  for (const s of h.charges) charged.set(s, (charged.get(s) ?? 0) + 1);
  const chargedTwice = [...charged].filter(([, n]) => n > 1).map(([s]) => s);
  for (const s of chargedTwice) violations.push(`subject ${s} charged ${charged.get(s)} times`);
  const net = new Map(charged);
  for (const s of h.refunds) net.set(s, (net.get(s) ?? 0) - 1);
  for (const [s, n] of net) if (n < 0) violations.push(`subject ${s} refunded more than charged`);
  const generations = checkGenerations(h, charged, net, violations);

  const badLedgers = h.ledgers.filter((l) => l.replay !== l.projected || !l.verifyOk);
  for (const l of badLedgers)
    violations.push(`ledger ${l.accountId}: replay ${l.replay}, projection ${l.projected}, verify ${l.verifyOk}`);

  const { applied, dropped } = afterDedup(h.topic);
  const order = streamOrder(applied, violations);
  const onTopic = new Set(applied.map((r) => r.id));
  const missing = h.stored.filter((e) => !onTopic.has(e.id));
  for (const e of missing.slice(0, 20))
    violations.push(`event ${e.id} (${e.streamId} v${e.streamVersion}) never on the topic`);

  const over = Object.entries(h.webhookPosts).filter(([, n]) => n > h.maxWebhookAttempts);
  for (const [d, n] of over) violations.push(`webhook ${d} POSTed ${n} times (at most ${h.maxWebhookAttempts})`);
  const lagging = Object.entries(h.lags).filter(([, l]) => l !== 0);
  for (const [g, l] of lagging) violations.push(`group ${g} lags ${l}`);
  if (Object.keys(h.lags).length === 0) violations.push('no consumer group reported its lag');

  const faultsByKind: Record<string, number> = {};
  for (const f of h.faults) faultsByKind[f.kind] = (faultsByKind[f.kind] ?? 0) + 1;
  const duringFault = h.submissions.filter((s) => h.faults.some((f) => overlaps(s, f)));
  const worstByWhat: Record<string, number> = {};
  for (const s of duringFault) worstByWhat[s.what] = Math.max(worstByWhat[s.what] ?? 0, s.to - s.from);
  return {
    figures: {
      accepted: h.accepted.length,
      terminal: h.accepted.length - notTerminal.length,
      notTerminal: notTerminal.length,
      doubleCharges: chargedTwice.length,
      ...generations,
      ledgersTrue: h.ledgers.length - badLedgers.length,
      ledgers: h.ledgers.length,
      topicRecords: h.topic.length,
      duplicatesDroppedByConsumers: dropped,
      orderViolations: order.order,
      gaps: order.gaps,
      duplicatesPastDedup: order.dups,
      missingFromTopic: missing.length,
      webhookDeliveries: Object.keys(h.webhookPosts).length,
      webhooksOverLimit: over.length,
      maxLag: Math.max(0, ...Object.values(h.lags)),
      faultsByKind,
      worstWaitDuringFaultMs: Math.max(0, ...duringFault.map((s) => s.to - s.from)),
      worstWaitDuringFaultMsByWhat: worstByWhat,
    },
    violations,
  };
}
