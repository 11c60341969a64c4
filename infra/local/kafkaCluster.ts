import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { sleep } from '../../core/sleep.ts';
import { createLogger, type Logger } from '../logger.ts';
import { freePorts } from './freePort.ts';
import { accepts, brokerJvmFlags, CLUSTER_ID, javaBin, runJava } from './kafka.ts';
import { log4jProperties } from './kafkaConfig.ts';
import { clusterBrokerProperties } from './kafkaClusterConfig.ts';
import { kafkaLibs } from './kafkaJars.ts';
import { exited, hasExited, tail, terminate } from './process.ts';
import { watchdog, type Watchdog } from './watchdog.ts';

/**
 * A real three-node Kafka cluster (KRaft, the same jars as the single broker) on 127.0.0.1 and free
 * ports, for fault tests: a node can be SIGKILLed and started again on its own data. See
 * kafkaClusterConfig.ts for the replication settings.
 */
export interface ClusterNode {
  id: number;
  /** Client port (PLAINTEXT). */
  port: number;
  /** The PROXIED listener's own port, which a proxy forwards to (when `proxyPorts` were given). */
  proxiedPort?: number;
  running(): boolean;
  pid(): number | undefined;
  /** SIGKILL: no controlled shutdown, as in a crash. */
  kill(): Promise<void>;
  /** Starts the node again on its data (after kill); resolves once every node is registered again. */
  restart(): Promise<void>;
}

export interface LocalKafkaCluster {
  /** `127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3`, for KAFKA_BROKERS. */
  brokers: string;
  nodes: ClusterNode[];
  /** The node id leading a partition now (-1 when none). */
  leaderOf(topic: string, partition: number): Promise<number>;
  stop(): Promise<void>;
}

const NODES = 3;
const READY_TIMEOUT_MS = 120_000;

export async function startKafkaCluster(
  opts: { log?: Logger; proxyPorts?: number[] } = {},
): Promise<LocalKafkaCluster> {
  const log = opts.log ?? createLogger('local-kafka-cluster');
  const libs = await kafkaLibs(log);
  const root = await mkdtemp(join(tmpdir(), 'audit-kafka-cluster-'));
  const ports = await freePorts(NODES * 3);
  const ids = Array.from({ length: NODES }, (_, i) => i + 1);
  const voters = ids.map((nodeId, i) => ({ nodeId, controllerPort: ports[NODES + i]! }));
  const nodes: NodeProcess[] = [];
  for (const [i, nodeId] of ids.entries()) {
    const dir = join(root, `node${nodeId}`);
    await mkdir(dir, { recursive: true });
    const proxyPort = opts.proxyPorts?.[i];
    const config = clusterBrokerProperties({
      nodeId,
      port: ports[i]!,
      controllerPort: voters[i]!.controllerPort,
      voters,
      logDir: join(dir, 'kraft'),
      ...(proxyPort ? { proxied: { port: ports[2 * NODES + i]!, advertisedPort: proxyPort } } : {}),
    });
    await writeFile(join(dir, 'server.properties'), config);
    await writeFile(join(dir, 'log4j.properties'), log4jProperties());
    const node = new NodeProcess(nodeId, ports[i]!, proxyPort ? ports[2 * NODES + i] : undefined, dir, libs);
    const code = await runJava(
      [
        '-Xmx256m',
        '-XX:+UseSerialGC',
        '-XX:TieredStopAtLevel=1',
        ...node.javaArgs('kafka.tools.StorageTool'),
        'format',
        '-t',
        CLUSTER_ID,
        '-c',
        node.config,
      ],
      node.logFile,
    );
    if (code !== 0) {
      await rm(root, { recursive: true, force: true });
      throw new Error(`Kafka node ${nodeId}: storage format failed (exit ${code})\n${await tail(node.logFile)}`);
    }
    nodes.push(node);
  }
  const brokers = nodes.map((n) => `127.0.0.1:${n.port}`).join(',');
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await rm(root, { recursive: true, force: true });
  };
  try {
    // All at once: a controller quorum of three elects a leader only when two are up.
    await Promise.all(nodes.map((n) => n.start()));
    await waitForBrokers(brokers, NODES);
  } catch (error) {
    const logs = await Promise.all(nodes.map(async (n) => `--- node ${n.id} ---\n${await tail(n.logFile, 15)}`));
    await stop();
    throw new Error(`Kafka cluster did not start: ${(error as Error).message}\n${logs.join('\n')}`);
  }
  log.info({ brokers, root }, 'kafka cluster ready');
  return {
    brokers,
    nodes: nodes.map((n) => n.handle(() => waitForBrokers(brokers, NODES))),
    leaderOf: (topic, partition) => leaderOf(brokers, topic, partition),
    stop,
  };
}

/** One node's JVM: started, killed and started again on the same data dir. */
class NodeProcess {
  private child: ChildProcess | undefined;
  private guard: Watchdog | undefined;
  readonly config: string;
  readonly logFile: string;
  constructor(
    readonly id: number,
    readonly port: number,
    readonly proxiedPort: number | undefined,
    private readonly dir: string,
    private readonly libs: string,
  ) {
    this.config = join(dir, 'server.properties');
    this.logFile = join(dir, 'broker.log');
  }

  javaArgs(main: string): string[] {
    return [`-Dlog4j.configuration=file:${join(this.dir, 'log4j.properties')}`, '-cp', `${this.libs}/*`, main];
  }

  async start(): Promise<void> {
    const out = await open(this.logFile, 'a');
    const child = spawn(javaBin(), [...brokerJvmFlags('128m', '384m'), ...this.javaArgs('kafka.Kafka'), this.config], {
      stdio: ['ignore', out.fd, out.fd],
      detached: true,
    });
    await out.close();
    if (!child.pid) throw new Error(`Kafka node ${this.id} did not start`);
    this.child = child;
    this.guard = watchdog(child.pid, { signal: 'TERM', graceSeconds: 15 });
    for (const until = Date.now() + READY_TIMEOUT_MS; !(await accepts(this.port)); await sleep(250)) {
      if (hasExited(child)) throw new Error(`node ${this.id} exited during start-up`);
      if (Date.now() > until) throw new Error(`node ${this.id} not accepting after ${READY_TIMEOUT_MS / 1000} s`);
    }
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || hasExited(child)) return;
    this.guard?.disarm();
    child.kill('SIGKILL');
    await exited(child);
  }

  async stop(): Promise<void> {
    this.guard?.disarm();
    if (this.child) await terminate(this.child, 'SIGTERM', 15_000);
  }

  handle(registered: () => Promise<void>): ClusterNode {
    return {
      id: this.id,
      port: this.port,
      ...(this.proxiedPort ? { proxiedPort: this.proxiedPort } : {}),
      running: () => !!this.child && !hasExited(this.child),
      pid: () => this.child?.pid,
      kill: () => this.kill(),
      restart: async () => {
        await this.start();
        // Until the controller unfences it, the node leads nothing and a topic of three replicas
        // (the consumer offsets) cannot be created.
        await registered();
      },
    };
  }
}

const probe = (brokers: string) =>
  new Kafka({
    clientId: 'local-cluster-probe',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
    connectionTimeout: 2_000,
    retry: { retries: 0 },
  }).admin();

/** Ready = a client can see every node registered with the controller quorum. */
async function waitForBrokers(brokers: string, count: number): Promise<void> {
  let last = 0;
  for (const until = Date.now() + READY_TIMEOUT_MS; Date.now() < until; await sleep(500)) {
    const admin = probe(brokers);
    try {
      await admin.connect();
      last = (await admin.describeCluster()).brokers.length;
      if (last === count) return;
    } catch {
      // the quorum is still electing
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }
  throw new Error(`${last} of ${count} brokers registered after ${READY_TIMEOUT_MS / 1000} s`);
}

async function leaderOf(brokers: string, topic: string, partition: number): Promise<number> {
  const admin = probe(brokers);
  try {
    await admin.connect();
    const meta = await admin.fetchTopicMetadata({ topics: [topic] });
    return meta.topics[0]?.partitions.find((p) => p.partitionId === partition)?.leader ?? -1;
  } catch {
    return -1;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
