/** `npm run bench`: every benchmark of the service, printed as Markdown tables for the README. */
import { cpus, loadavg } from 'node:os';
import { benchApi } from './api.ts';
import { benchBackbone } from './backbone.ts';
import { benchLedger } from './ledger.ts';
import { printRows, type BenchRow } from './report.ts';
import { benchStartup } from './startup.ts';

const only = process.argv.slice(2);
const want = (name: string) => only.length === 0 || only.includes(name);

console.log(
  `# Benchmarks (${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)})`,
);
if (want('backbone')) printRows('Event backbone', await benchBackbone());
if (want('api')) printRows('API and pipeline', await benchApi());
// Only the pipeline's single-audit and 100-URL batch times (both are also in `api`).
else if (want('bulk')) printRows('Pipeline and bulk', await benchApi({ throughput: false }));
// Only the single-audit time and apply's two times beside it (also in `api` and `bulk`).
else if (want('apply')) printRows('Pipeline and apply', await benchApi({ throughput: false, bulk: false }));
// Only the request throughput beside the bare route (issue 14's ratios), without the pipeline.
if (!want('api') && want('requests')) printRows('API requests', await benchApi({ pipeline: false }));
if (want('startup')) printRows('Start-up (compiled)', await benchStartup());
if (want('ledger')) printRows('Auditor tools (ledger replay and verify)', await benchLedger());
if (want('engine')) {
  // The engine's bench arrives with the engine; until then there is nothing to run.
  const path = './engine.ts';
  const mod = (await import(path).catch(() => undefined)) as { benchEngine?: () => Promise<BenchRow[]> } | undefined;
  if (mod?.benchEngine) printRows('Audit engine', await mod.benchEngine());
}
process.exit(0);
