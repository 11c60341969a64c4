/**
 * server.properties for one KRaft node that is broker and controller, sized for a laptop or a
 * 2-core CI box. Notes on each choice are in shared/KAFKA_LOCAL.md.
 */
export function brokerProperties(o: { port: number; controllerPort: number; logDir: string }): string {
  return `process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:${o.controllerPort}
# 127.0.0.1, never localhost: Node may resolve localhost to ::1.
listeners=PLAINTEXT://127.0.0.1:${o.port},CONTROLLER://127.0.0.1:${o.controllerPort}
advertised.listeners=PLAINTEXT://127.0.0.1:${o.port}
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
log.dirs=${o.logDir}
num.partitions=1
# One node: every internal topic must make do with one replica, or consumer groups and
# transactions wait forever for replicas that never come.
default.replication.factor=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
# Tests join and leave consumer groups constantly; no 3 s wait before the first rebalance.
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=2
# The cleaner's 128 MiB default buffer is allocated on the heap at start; we compact nothing big.
log.cleaner.dedupe.buffer.size=16777216
`;
}

/** reload4j config: everything to stdout (which is the broker log file), INFO and up. */
export function log4jProperties(): string {
  return `log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
`;
}
