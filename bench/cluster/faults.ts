import type { LocalKafkaCluster } from '../../infra/local/kafkaCluster.ts';
import type { CrashablePostgres } from './crashablePostgres.ts';
import type { FaultKind } from './nemesis.ts';
import type { ServiceProcess } from './processes.ts';
import type { CuttableProxy } from './proxy.ts';

export interface FaultTargets {
  cluster: LocalKafkaCluster;
  /** The events topic: its partition 0's leader is the first broker killed. */
  topic: string;
  postgres: CrashablePostgres;
  service: { processes: ServiceProcess[] };
  /** The proxies the cut-off process (worker-b) reaches the brokers and PostgreSQL through. */
  proxies: CuttableProxy[];
  leaseSeconds: number;
}

const between = (lo: number, hi: number) => (d: number) => lo + d * (hi - lo);

/** The four kinds of fault of issue 28, each with its own heal. */
export function faultKinds(t: FaultTargets): FaultKind[] {
  let killed: LocalKafkaCluster['nodes'][number] | undefined;
  let paused: ServiceProcess | undefined;
  const workers = t.service.processes.filter((p) => p.roles.includes('auditor'));
  return [
    {
      kind: 'broker-kill',
      holdMs: between(5_000, 15_000),
      async inject(index, d) {
        // Every other kill (the first included) takes the events partition's leader.
        const leader = index % 2 === 0 ? await t.cluster.leaderOf(t.topic, 0) : -1;
        killed =
          t.cluster.nodes.find((n) => n.id === leader) ?? t.cluster.nodes[Math.floor(d * t.cluster.nodes.length)]!;
        await killed.kill();
        return `broker ${killed.id}${killed.id === leader ? ' (leader of events partition 0)' : ''}`;
      },
      heal: () => killed!.restart(),
    },
    {
      kind: 'postgres-stop',
      holdMs: between(3_000, 8_000),
      async inject() {
        await t.postgres.crash();
        return 'postgresql (immediate stop)';
      },
      heal: () => t.postgres.start(),
    },
    {
      kind: 'worker-pause',
      // Longer than the lease, so that the task is claimed again while its holder sleeps.
      holdMs: between(t.leaseSeconds * 1000 + 5_000, t.leaseSeconds * 1000 + 15_000),
      async inject(_i, d) {
        paused = workers[Math.floor(d * workers.length)]!;
        paused.child().kill('SIGSTOP');
        return `${paused.name} (SIGSTOP)`;
      },
      async heal() {
        paused!.child().kill('SIGCONT');
      },
    },
    {
      kind: 'cut-off',
      holdMs: between(10_000, 25_000),
      async inject() {
        for (const p of t.proxies) p.cut();
        return 'worker-b (from the brokers and PostgreSQL)';
      },
      async heal() {
        for (const p of t.proxies) p.heal();
      },
    },
  ];
}
