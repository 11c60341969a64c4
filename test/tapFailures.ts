/**
 * The failed tests of a TAP stream, by name with their parents ("test/int/x.int.ts > a subtest >
 * an assertion") and the first lines of each one's diagnostics, so that the end of a long run says
 * what failed: CI keeps only the tail of the output.
 */
export class TapFailures {
  private partial = '';
  /** Open subtests by indentation depth (4 spaces a level). */
  private readonly path: string[] = [];
  private readonly failures: { name: string; diag: string[] }[] = [];
  private diagOf: string[] | null = null;

  write(chunk: string): void {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.line(line);
  }

  private line(line: string): void {
    const depth = Math.floor((/^ */.exec(line)?.[0].length ?? 0) / 4);
    const text = line.trim();
    const subtest = /^# Subtest: (.*)$/.exec(text);
    if (subtest) {
      this.path.length = depth;
      this.path[depth] = subtest[1]!;
      this.diagOf = null;
      return;
    }
    const result = /^(not )?ok \d+ - (.*?)(?: # (?:time=|SKIP|TODO).*)?$/.exec(text);
    if (result) {
      this.diagOf = null;
      if (!result[1]) return;
      // A failed subtest repeats the failure of what is inside it: keep the innermost only.
      const name = [...this.path.slice(0, depth), result[2]!].join(' > ');
      if (this.failures.some((f) => f.name.startsWith(`${name} > `))) return;
      const failure = { name, diag: [] };
      this.failures.push(failure);
      this.diagOf = failure.diag;
      return;
    }
    // The YAML block under a failure ends with "..."; a plan line ends it too when there is none.
    if (text === '...' || /^\d+\.\.\d+/.test(text)) this.diagOf = null;
    else if (this.diagOf && this.diagOf.length < 12 && text !== '---') this.diagOf.push(text);
  }

  /** What failed, a few lines each; empty when nothing did. */
  report(): string[] {
    return this.failures.flatMap((f) => [`not ok: ${f.name}`, ...f.diag.map((d) => `    ${d}`)]);
  }
}
