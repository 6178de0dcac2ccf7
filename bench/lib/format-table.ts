import type { Summary } from './summarize.ts';

/** One row of a summary table. */
export interface TableRow {
  label: string;
  summary: Summary | undefined;
}

const COLUMNS = ['p50', 'p95', 'p99', 'max', 'mean'] as const;

/** A fixed-width table of summaries in ms with three decimals; a row without a summary shows dashes. */
export function formatTable(rows: readonly TableRow[]): string {
  const width = Math.max(...rows.map((r) => r.label.length), 'segment (ms)'.length);
  const cell = (s: string) => s.padStart(9);
  const lines = [`${'segment (ms)'.padEnd(width)}${COLUMNS.map(cell).join('')}`];
  for (const r of rows) {
    const values = COLUMNS.map((c) => cell(r.summary ? r.summary[c].toFixed(3) : '—'));
    lines.push(`${r.label.padEnd(width)}${values.join('')}`);
  }
  return lines.join('\n');
}
