import { join } from 'node:path';
import { installOnce, pathExists } from './installLock.ts';
import { repoRoot } from './kafkaJars.ts';
import { runToEnd } from './run.ts';

/**
 * Debian's Chromium, the browser the page tests drive through playwright-core. No browser build can
 * be downloaded from elsewhere here, so it comes from the distribution's package, installed with
 * apt-get the first time a browser test runs on a machine without it (CI runs as root).
 * CHROMIUM_PATH points at another build. poppler-utils comes with it: the print tests read the
 * PDFs that Chromium writes (pdfinfo, pdftotext) and turn pages into pictures (pdftoppm).
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PDFTOTEXT = '/usr/bin/pdftotext';

export async function ensureChromium(): Promise<string> {
  await installOnce(
    join(repoRoot, '.cache', 'chromium.lock'),
    async () => (await pathExists(chromiumPath)) && (await pathExists(PDFTOTEXT)),
    async () => {
      const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
      const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
      const apt = (args: string[]) =>
        sudo.length ? runToEnd(sudo[0]!, [...sudo.slice(1), 'apt-get', ...args], env) : runToEnd('apt-get', args, env);
      await apt(['update', '-qq']);
      await apt(['install', '-y', '-qq', '--no-install-recommends', 'chromium', 'fonts-dejavu-core', 'poppler-utils']);
    },
  );
  return chromiumPath;
}
