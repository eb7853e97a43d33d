import { escapeXml } from './escape.js';
import type { MatrixPlot } from './model.js';

const CHAR_W = 7.4; // generous average width of a 12px sans-serif character (DejaVu Sans is wide); labels are sized from it
const MAX_LABEL_CHARS = 34;

/** Colour of a cell: blue when the row wins, orange when it loses (colour-blind safe pair); pale unless `strong`. */
function fill(value: number, strong: boolean): string {
  const [r, g, b] = value >= 0 ? [37, 99, 171] : [214, 110, 24];
  if (!strong) return value >= 0 ? '#e6eef8' : '#f9ece1';
  const a = 0.55 + 0.45 * Math.min(1, Math.abs(value));
  // Blend with white instead of using opacity, so the stripes behind never show through.
  const mix = (c: number): number => Math.round(255 - a * (255 - c));
  return `rgb(${mix(r)},${mix(g)},${mix(b)})`;
}

/**
 * A heat-map of a square matrix: rows labelled "rank. name", columns by rank number only
 * (long names would not fit above narrow columns; the tooltip names both).
 */
export function renderMatrixPlot(plot: MatrixPlot): string {
  const n = plot.labels.length;
  const cell = Math.max(14, Math.min(36, Math.floor(740 / Math.max(1, n))));
  const rankOf = (i: number): number => plot.ranks?.[i] ?? i + 1;
  const labels = plot.labels.map((l, i) => `${rankOf(i)}. ${l.length > MAX_LABEL_CHARS ? `${l.slice(0, MAX_LABEL_CHARS - 1)}…` : l}`);
  const left = Math.ceil(Math.max(90, ...labels.map((l) => l.length * CHAR_W))) + 12;
  const top = 28;
  const legendH = 52;
  // Wide enough for the legend row even when there are only a few systems.
  const width = Math.max(left + n * cell + 10, left + 660);
  const height = top + n * cell + legendH;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="plot matrix-plot" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(plot.title ?? 'matrix')}">`,
  ];
  for (let j = 0; j < n; j++) {
    parts.push(`<text class="col-label" x="${left + j * cell + cell / 2}" y="${top - 8}" text-anchor="middle">${rankOf(j)}</text>`);
  }
  for (let i = 0; i < n; i++) {
    const y = top + i * cell;
    parts.push(`<text class="label" x="${left - 8}" y="${y + cell / 2 + 4}" text-anchor="end">${escapeXml(labels[i]!)}</text>`);
    for (let j = 0; j < n; j++) {
      const c = plot.cells[i]?.[j] ?? null;
      const x = left + j * cell;
      if (!c) {
        parts.push(`<rect class="cell empty" x="${x}" y="${y}" width="${cell}" height="${cell}"/>`);
        continue;
      }
      const tip = c.title ?? `${plot.labels[i]} vs ${plot.labels[j]}`;
      parts.push(
        `<g class="cell${c.strong ? ' strong' : ''}"><title>${escapeXml(tip)}</title><rect x="${x}" y="${y}" width="${cell}" height="${cell}" fill="${fill(c.value, c.strong)}"/>`,
      );
      if (c.text && cell >= 22) {
        parts.push(`<text x="${x + cell / 2}" y="${y + cell / 2 + 3.5}" text-anchor="middle" class="cell-text${c.strong ? ' on-strong' : ''}">${escapeXml(c.text)}</text>`);
      }
      parts.push('</g>');
    }
  }
  const ly = top + n * cell + 16;
  // The last swatch is split: pale blue and pale orange both mean "not distinguishable".
  const swatches: [string, string, string][] = [
    [fill(1, true), fill(1, true), 'row significantly better'],
    [fill(-1, true), fill(-1, true), 'row significantly worse'],
    [fill(1, false), fill(-1, false), 'not distinguishable (pale: row ahead / behind)'],
  ];
  let lx = left;
  for (const [a, b, text] of swatches) {
    parts.push(`<rect class="swatch" x="${lx}" y="${ly}" width="6" height="12" fill="${a}"/>`);
    parts.push(`<rect class="swatch" x="${lx + 6}" y="${ly}" width="6" height="12" fill="${b}"/>`);
    parts.push(`<text class="legend" x="${lx + 17}" y="${ly + 10}">${text}</text>`);
    lx += 17 + text.length * 6.2 + 18;
  }
  parts.push(`<text class="legend muted" x="${left}" y="${ly + 28}">${escapeXml(plot.legend)}</text>`);
  parts.push('</svg>');
  return parts.join('\n');
}
