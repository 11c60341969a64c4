import { spawn } from 'node:child_process';
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

export async function startKafka(opts: { dataDir?: string; log?: Logger } = {}): Promise<LocalKafka> {
  const log = opts.log ?? createLogger('local-kafka');
  const libs = await kafkaLibs(log);
  const dataDir = opts.dataDir ? resolve(opts.dataDir) : await mkdtemp(join(tmpdir(), 'audit-kafka-'));
  // Formatting refuses a formatted dir, and old topics would leak into this run: always fresh.
  // A dir given by the caller is wiped only if empty or an earlier broker's (server.properties).
  if (
    opts.dataDir &&
    existsSync(dataDir) &&
    (await readdir(dataDir)).length &&
    !existsSync(join(dataDir, 'server.properties'))
  ) {
    throw new Error(`startKafka: ${dataDir} holds files that are not a local broker's; give an empty or new folder`);
  }
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const started = Date.now();
  const [port, controllerPort] = (await freePorts(2)) as [number, number];
  const config = join(dataDir, 'server.properties');
  const log4j = join(dataDir, 'log4j.properties');
  const brokerLog = join(dataDir, 'broker.log');
  await writeFile(config, brokerProperties({ port, controllerPort, logDir: join(dataDir, 'kraft') }));
  await writeFile(log4j, log4jProperties());
  const classpath = `${libs}/*`; // the JVM expands the wildcard, not a shell (there is none)

  const fail = async (what: string, cause?: unknown): Promise<never> => {
    const lastLines = await tail(brokerLog, 40);
    await rm(dataDir, { recursive: true, force: true });
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    throw new Error(`Kafka ${what}${detail}\n--- last lines of the broker log ---\n${lastLines}`);
  };

  // The storage tool is short-lived: C1 only starts faster.
  const format = await runJava(
    [
      '-Xmx256m',
      '-XX:+UseSerialGC',
      '-XX:TieredStopAtLevel=1',
      `-Dlog4j.configuration=file:${log4j}`,
      '-cp',
      classpath,
      'kafka.tools.StorageTool',
      'format',
      '-t',
      CLUSTER_ID,
      '-c',
      config,
    ],
    brokerLog,
  );
  if (format !== 0) return fail(`storage format failed (exit ${format})`);

  const out = await open(brokerLog, 'a');
  const broker = spawn(
    javaBin(),
    [
      '-Xms256m',
      '-Xmx512m',
      '-XX:+UseSerialGC',
      '-XX:+ExitOnOutOfMemoryError',
      '-Djava.awt.headless=true',
      `-Dlog4j.configuration=file:${log4j}`,
      '-cp',
      classpath,
      'kafka.Kafka',
      config,
    ],
    // Its own process group: a Ctrl-C in the terminal reaches us, and we stop the broker in order.
    { stdio: ['ignore', out.fd, out.fd], detached: true },
  );
  await out.close(); // the child has its own copy of the descriptor
  const spawnError = new Promise<Error>((resolveError) => broker.once('error', resolveError));
  if (!broker.pid) return fail('did not start', await spawnError);
  const guard = watchdog(broker.pid, { signal: 'TERM', graceSeconds: STOP_GRACE_MS / 1000, removeDir: dataDir });
  const brokers = `127.0.0.1:${port}`;

  try {
    await waitUntilReady(brokers, port, () => hasExited(broker));
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
