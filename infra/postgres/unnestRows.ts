/**
 * Many rows in one statement: each column travels as one typed array parameter and the SQL reads
 * them back with `unnest(…)`, so the statement's text (and a prepared plan) is the same for any
 * number of rows, unlike a multi-row VALUES list.
 */
export interface UnnestRows {
  /** The column names, comma-separated, in the order given. */
  names: string;
  /** `unnest($1::text[], $2::int[], …)`: the parameters start at $1. */
  unnest: string;
  /** The parameters for these rows: one array per column. */
  values(rows: readonly (readonly unknown[])[]): unknown[][];
}

export const unnestRows = (columns: readonly (readonly [name: string, type: string])[]): UnnestRows => ({
  names: columns.map(([name]) => name).join(', '),
  unnest: `unnest(${columns.map(([, type], k) => `$${k + 1}::${type}[]`).join(', ')})`,
  values: (rows) => columns.map((_, k) => rows.map((row) => row[k])),
});
