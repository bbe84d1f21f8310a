/** Prints a Markdown table with right-aligned columns where asked (also pasted into docs). */
export function printTable(header: string[], rows: string[][], rightAlign: boolean[]): void {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)))
  const line = (cells: string[]) =>
    `| ${cells
      .map((cell, c) =>
        rightAlign[c] ? cell.padStart(widths[c] ?? 0) : cell.padEnd(widths[c] ?? 0),
      )
      .join(' | ')} |`
  console.log(line(header))
  console.log(
    `|${widths.map((w, c) => (rightAlign[c] ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`,
  )
  for (const row of rows) console.log(line(row))
}
