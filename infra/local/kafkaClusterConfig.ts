/**
 * server.properties for one node of a local three-node KRaft cluster (each node broker and
 * controller). Replication factor 3 and min.insync.replicas=2: a write acknowledged with acks=all
 * survives the loss of any one broker, and writes go on while one is down.
 */
export interface ClusterNodeConfig {
  nodeId: number;
  port: number;
  controllerPort: number;
  /** Every node's controller port, by node id: the static quorum. */
  voters: { nodeId: number; controllerPort: number }[];
  logDir: string;
  /**
   * A second client listener whose advertised address is a proxy's port, for clients that must
   * reach the brokers through a link a test can cut (Kafka hands each client the addresses of the
   * listener it connected to, so such a client never bypasses the proxy).
   */
  proxied?: { port: number; advertisedPort: number };
}

export function clusterBrokerProperties(c: ClusterNodeConfig): string {
  const listeners = [`PLAINTEXT://127.0.0.1:${c.port}`, `CONTROLLER://127.0.0.1:${c.controllerPort}`];
  const advertised = [`PLAINTEXT://127.0.0.1:${c.port}`];
  if (c.proxied) {
    listeners.push(`PROXIED://127.0.0.1:${c.proxied.port}`);
    advertised.push(`PROXIED://127.0.0.1:${c.proxied.advertisedPort}`);
  }
  return `process.roles=broker,controller
node.id=${c.nodeId}
controller.quorum.voters=${c.voters.map((v) => `${v.nodeId}@127.0.0.1:${v.controllerPort}`).join(',')}
listeners=${listeners.join(',')}
advertised.listeners=${advertised.join(',')}
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,PROXIED:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
log.dirs=${c.logDir}
num.partitions=1
default.replication.factor=3
min.insync.replicas=2
offsets.topic.replication.factor=3
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=3
transaction.state.log.min.isr=2
transaction.state.log.num.partitions=3
# Never elect a replica that missed acknowledged writes.
unclean.leader.election.enable=false
# A killed broker is fenced (and leaves the ISR) within seconds, so acks=all writes stall briefly.
broker.heartbeat.interval.ms=1000
broker.session.timeout.ms=6000
replica.lag.time.max.ms=10000
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=2
log.cleaner.dedupe.buffer.size=16777216
`;
}
