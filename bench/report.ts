/** One measured figure, printed by bench/run.ts. `ceiling` is the same work done raw in the same run. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  ceiling?: { name: string; value: number };
  target?: string;
  note?: string;
}

const fmt = (n: number): string => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n >= 10 ? 1 : 2));

export function printRows(title: string, rows: BenchRow[]): void {
  console.log(`\n### ${title}\n`);
  console.log('| measure | value | ceiling (same run) | ratio | target | note |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    const ceiling = r.ceiling ? `${r.ceiling.name}: ${fmt(r.ceiling.value)} ${r.unit}` : '';
    const ratio = r.ceiling ? `${((r.value / r.ceiling.value) * 100).toFixed(0)}%` : '';
    console.log(
      `| ${r.name} | ${fmt(r.value)} ${r.unit} | ${ceiling} | ${ratio} | ${r.target ?? ''} | ${r.note ?? ''} |`,
    );
  }
}
