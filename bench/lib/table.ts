/** One line of the bench table. */
export interface Row {
  part: string;
  figure: string;
  value: string;
  /** The target of the issue, when the figure has one. */
  target?: string;
  /** Whether the target is met; absent when there is no target. */
  met?: boolean;
}

/** The rows as one Markdown table (readable in a terminal and pasteable into docs/performance.md). */
export function renderTable(rows: readonly Row[]): string {
  const cells = rows.map((row) => [
    row.part,
    row.figure,
    row.value,
    row.target ?? '',
    row.met === undefined ? '' : row.met ? 'met' : '**missed**',
  ]);
  const header = ['part', 'figure', 'value', 'target', ''];
  const widths = header.map((title, i) =>
    Math.max(title.length, ...cells.map((line) => (line[i] ?? '').length)),
  );
  const line = (values: string[]) =>
    `| ${values.map((value, i) => value.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n');
}
