// Preloaded into a program a test starts (`node --import ./test/helpers/recordLoads.mjs ...`): at
// exit it writes to LOADS_FILE the file of every module the program loaded, one a line, so a test
// can say what a command did not need to load. ES modules are seen by a loader hook, CommonJS ones
// in require's cache (Node 20 does not pass a require inside CommonJS through the hooks).
import { appendFileSync } from 'node:fs';
import process from 'node:process';
import { createRequire, register } from 'node:module';
import { URL } from 'node:url';

const out = process.env.LOADS_FILE;
if (out) {
  register(new URL('./recordLoadsHooks.mjs', import.meta.url));
  const { cache } = createRequire(import.meta.url);
  process.on('exit', () => appendFileSync(out, Object.keys(cache).join('\n') + '\n'));
}
