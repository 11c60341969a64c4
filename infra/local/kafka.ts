import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { createLogger, type Logger } from '../logger.ts';
import { freePorts } from './freePort.ts';
import { kafkaLibs } from './kafkaJars.ts';
import { sleep } from '../../core/sleep.ts';
import { hasExited, tail, terminate } from './process.ts';
import { brokerProperties, log4jProperties } from './kafkaConfig.ts';
import { watchdog } from './watchdog.ts';

/**
 * A real Apache Kafka broker (KRaft, one node that is broker and controller) on 127.0.0.1, on free
 * ports, with its data in a fresh folder that stop() removes. See shared/KAFKA_LOCAL.md.
 */
export interface LocalKafka {
  /** `127.0.0.1:PORT`, for KAFKA_BROKERS and kafkajs `brokers`. */
  brokers: string;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 15_000;
// Any valid base64 uuid; a fixed one spares parsing `random-uuid` output. Brokers never meet.
export const CLUSTER_ID = '5L6g3nShT-eMCtK--X86sw';

/**
 * The broker's folder, always fresh: formatting refuses a formatted dir, and old topics would leak
 * into this run. A dir given by the caller is wiped only if empty or an earlier broker's
 * (server.properties).
 */
async function freshDataDir(given: string | undefined): Promise<string> {
  const dataDir = given ? resolve(given) : await mkdtemp(join(tmpdir(), 'audit-kafka-'));
  if (
    given &&
    existsSync(dataDir) &&
    (await readdir(dataDir)).length &&
    !existsSync(join(dataDir, 'server.properties'))
  ) {
    throw new Error(`startKafka: ${dataDir} holds files that are not a local broker's; give an empty or new folder`);
  }
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  return dataDir;
}

/** Where one broker keeps its configuration and log, and how its JVMs are started. */
interface BrokerFiles {
  config: string;
  log4j: string;
  brokerLog: string;
  classpath: string;
}

/** Writes the broker's configuration on two free ports. */
async function writeBrokerFiles(dataDir: string, libs: string): Promise<BrokerFiles & { port: number }> {
  const [port, controllerPort] = (await freePorts(2)) as [number, number];
  const files = {
    config: join(dataDir, 'server.properties'),
    log4j: join(dataDir, 'log4j.properties'),
    brokerLog: join(dataDir, 'broker.log'),
    classpath: `${libs}/*`, // the JVM expands the wildcard, not a shell (there is none)
  };
  await writeFile(files.config, brokerProperties({ port, controllerPort, logDir: join(dataDir, 'kraft') }));
  await writeFile(files.log4j, log4jProperties());
  return { ...files, port };
}

/** Formats the KRaft storage; resolves the tool's exit code. */
const formatStorage = (f: BrokerFiles): Promise<number> =>
  // The storage tool is short-lived: C1 only starts faster.
  runJava(
    [
      '-Xmx256m',
      '-XX:+UseSerialGC',
      '-XX:TieredStopAtLevel=1',
      `-Dlog4j.configuration=file:${f.log4j}`,
      '-cp',
      f.classpath,
      'kafka.tools.StorageTool',
      'format',
      '-t',
      CLUSTER_ID,
      '-c',
      f.config,
    ],
    f.brokerLog,
  );

/** Starts the broker's JVM, its output appended to the broker log. */
async function spawnBroker(f: BrokerFiles): Promise<ChildProcess> {
  const out = await open(f.brokerLog, 'a');
  const broker = spawn(
    javaBin(),
    [
      ...brokerJvmFlags('256m', '512m'),
      `-Dlog4j.configuration=file:${f.log4j}`,
      '-cp',
      f.classpath,
      'kafka.Kafka',
      f.config,
    ],
    // Its own process group: a Ctrl-C in the terminal reaches us, and we stop the broker in order.
    { stdio: ['ignore', out.fd, out.fd], detached: true },
  );
  await out.close(); // the child has its own copy of the descriptor
  return broker;
}

export async function startKafka(opts: { dataDir?: string; log?: Logger } = {}): Promise<LocalKafka> {
  const log = opts.log ?? createLogger('local-kafka');
  const libs = await kafkaLibs(log);
  const dataDir = await freshDataDir(opts.dataDir);
  const started = Date.now();
  const files = await writeBrokerFiles(dataDir, libs);

  const fail = async (what: string, cause?: unknown): Promise<never> => {
    const lastLines = await tail(files.brokerLog, 40);
    await rm(dataDir, { recursive: true, force: true });
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    throw new Error(`Kafka ${what}${detail}\n--- last lines of the broker log ---\n${lastLines}`);
  };

  const format = await formatStorage(files);
  if (format !== 0) return fail(`storage format failed (exit ${format})`);

  const broker = await spawnBroker(files);
  const spawnError = new Promise<Error>((resolveError) => broker.once('error', resolveError));
  if (!broker.pid) return fail('did not start', await spawnError);
  const guard = watchdog(broker.pid, { signal: 'TERM', graceSeconds: STOP_GRACE_MS / 1000, removeDir: dataDir });
  const brokers = `127.0.0.1:${files.port}`;

  try {
    await waitUntilReady(brokers, files.port, () => hasExited(broker));
  } catch (error) {
    guard.disarm();
    await terminate(broker, 'SIGKILL', 5_000);
    return fail(
      hasExited(broker)
        ? `broker exited during start-up (exit ${broker.exitCode ?? broker.signalCode})`
        : 'did not become ready',
      error,
    );
  }
  log.info({ brokers, dataDir, ms: Date.now() - started }, 'kafka ready');

  let stopping: Promise<void> | undefined;
  return {
    brokers,
    stop: () =>
      (stopping ??= (async () => {
        guard.disarm();
        const t0 = Date.now();
        await terminate(broker, 'SIGTERM', STOP_GRACE_MS); // SIGTERM = controlled shutdown
        await rm(dataDir, { recursive: true, force: true });
        log.info({ brokers, ms: Date.now() - t0 }, 'kafka stopped');
      })()),
  };
}

/**
 * Ready = the client port accepts connections (the broker opens it last) and a kafkajs admin can
 * describe the cluster, i.e. the controller has registered the broker.
 */
async function waitUntilReady(brokers: string, port: number, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (exited()) throw new Error('the broker process exited');
    if (await accepts(port)) {
      const kafka = new Kafka({
        clientId: 'local-stack-probe',
        brokers: [brokers],
        logLevel: logLevel.NOTHING,
        connectionTimeout: 2_000,
        retry: { retries: 0 },
      });
      const admin = kafka.admin();
      try {
        await admin.connect();
        const cluster = await admin.describeCluster();
        if (cluster.brokers.length > 0) return;
      } catch (error) {
        lastError = error;
      } finally {
        await admin.disconnect().catch(() => undefined);
      }
    }
    await sleep(250);
  }
  throw new Error(
    `not ready after ${READY_TIMEOUT_MS / 1000} s${lastError instanceof Error ? ` (last error: ${lastError.message})` : ''}`,
  );
}

export function accepts(port: number): Promise<boolean> {
  return new Promise((resolveAccepts) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolveAccepts(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** A broker JVM's flags: its heap, a small single-threaded collector, and an exit on running out. */
export const brokerJvmFlags = (minHeap: string, maxHeap: string): string[] => [
  `-Xms${minHeap}`,
  `-Xmx${maxHeap}`,
  '-XX:+UseSerialGC',
  '-XX:+ExitOnOutOfMemoryError',
  '-Djava.awt.headless=true',
];

export const javaBin = (): string => (process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java');

/** Runs a short java command with its output appended to `logFile`; resolves its exit code. */
export async function runJava(args: string[], logFile: string): Promise<number> {
  const out = await open(logFile, 'a');
  try {
    const child = spawn(javaBin(), args, { stdio: ['ignore', out.fd, out.fd] });
    return await new Promise<number>((resolveCode) => {
      child.once('error', async (error) => {
        await writeFile(logFile, `could not run java: ${error.message}\n`, { flag: 'a' });
        resolveCode(-1);
      });
      child.once('exit', (code) => resolveCode(code ?? -1));
    });
  } finally {
    await out.close();
  }
}
