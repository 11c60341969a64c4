import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyEventDefinition } from './define.ts';
import { catalogue } from './catalogue.ts';

const eventsDir = dirname(fileURLToPath(import.meta.url));

/** Every published schema: one file per event type and version, `events/<stream>/avro/<Type>.v<N>.avsc`. */
export function avscFiles(defs: readonly AnyEventDefinition[] = catalogue): { path: string; content: string }[] {
  return defs.flatMap((d) =>
    Array.from({ length: d.latest }, (_, i) => ({
      path: join(eventsDir, d.stream, 'avro', `${d.type}.v${i + 1}.avsc`),
      content: `${JSON.stringify(d.avroSchema(i + 1), null, 2)}\n`,
    })),
  );
}

// `npm run events:avsc` writes them; a unit test checks the checked-in files are current.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const f of avscFiles()) {
    mkdirSync(dirname(f.path), { recursive: true });
    writeFileSync(f.path, f.content);
    console.log(f.path);
  }
}
