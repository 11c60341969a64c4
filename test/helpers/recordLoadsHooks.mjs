// The loader hook of recordLoads.mjs: the file of each ES module as it loads.
import { appendFileSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export async function load(url, context, nextLoad) {
  if (process.env.LOADS_FILE && url.startsWith('file:'))
    appendFileSync(process.env.LOADS_FILE, `${fileURLToPath(url)}\n`);
  return nextLoad(url, context);
}
