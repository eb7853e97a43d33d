import { escapeXml } from './escape.js';
import { formatPercent } from './format.js';
import type { IntervalPlot } from './model.js';
import { niceTicks } from './ticks.js';

const ROW = 22;
const TOP = 34;
const BOTTOM = 46;
const PLOT_W = 640;
const VALUE_W = 64;
const CHAR_W = 7.4; // generous average width of a 12px sans-serif character (DejaVu Sans is wide); labels are sized from it
const MAX_LABEL_CHARS = 40;

/** A hollow diamond path centred on (x, y). */
function diamond(x: number, y: number, r = 5): string {
  return `M${x},${y - r}L${x + r},${y}L${x},${y + r}L${x - r},${y}Z`;
}

function shorten(label: string): string {
  return label.length > MAX_LABEL_CHARS ? `${label.slice(0, MAX_LABEL_CHARS - 1)}…` : label;
}

/**
 * A forest plot: one row per point (rank order, top to bottom), the estimate as a dot with its
 * CI bar, and the optional band shaded behind. Dots inside the band are drawn in the band's
 * colour so "within the noise bound of #1" reads at a glance. Every dot is
 * `<circle class="mark" data-label="…">` (the browser test counts them).
 */
export function renderIntervalPlot(plot: IntervalPlot): string {
  const fmt = (v: number): string => (plot.percent ? formatPercent(v) : String(Number(v.toPrecision(4))));
  const tickFmt = (v: number): string => (plot.percent ? `${Number((v * 100).toFixed(2))}%` : String(v));
  const labels = plot.points.map((p, i) => `${p.rank ?? i + 1}. ${shorten(p.label)}`);
  const labelW = Math.ceil(Math.max(90, ...labels.map((l) => l.length * CHAR_W))) + 12;
  const hasSecondary = plot.points.some((p) => p.secondary !== undefined && Number.isFinite(p.secondary));
  const legend = [plot.valueLabel ? 'value' : '', hasSecondary ? 'secondary' : '', plot.band ? 'band' : ''].filter(Boolean);
  const height = TOP + plot.points.length * ROW + BOTTOM + (legend.length ? 22 : 0);
  // The value column lists both numbers when diamonds are drawn.
  const valueW = hasSecondary ? VALUE_W + 64 : VALUE_W;
  const width = labelW + PLOT_W + valueW;

  const values = plot.points.flatMap((p) => [p.value, p.low ?? p.value, p.high ?? p.value, p.secondary ?? p.value]);
  if (plot.band) values.push(plot.band.low, plot.band.high);
  const finite = values.filter(Number.isFinite);
  const axis = niceTicks(Math.min(...finite), Math.max(...finite));
  const x = (v: number): number => labelW + ((v - axis.lo) / (axis.hi - axis.lo || 1)) * PLOT_W;
  const y = (i: number): number => TOP + i * ROW + ROW / 2;
  const plotBottom = TOP + plot.points.length * ROW;

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="plot interval-plot" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(plot.title ?? plot.axisLabel)}">`,
  );
  plot.points.forEach((_, i) => {
    if (i % 2 === 0) parts.push(`<rect class="stripe" x="0" y="${TOP + i * ROW}" width="${width}" height="${ROW}"/>`);
  });
  for (const t of axis.ticks) {
    parts.push(`<line class="grid" x1="${x(t)}" x2="${x(t)}" y1="${TOP}" y2="${plotBottom}"/>`);
    parts.push(`<text class="tick" x="${x(t)}" y="${plotBottom + 16}" text-anchor="middle">${tickFmt(t)}</text>`);
  }
  if (plot.band) {
    const bx = x(plot.band.low);
    const bw = Math.max(1, x(plot.band.high) - bx);
    parts.push(
      `<rect class="band" x="${bx}" y="${TOP}" width="${bw}" height="${plotBottom - TOP}"><title>${escapeXml(plot.band.label)}</title></rect>`,
    );
    parts.push(`<text class="band-label" x="${bx + bw}" y="${TOP - 10}" text-anchor="end">${escapeXml(plot.band.label)}</text>`);
  }
  parts.push(`<text class="axis-label" x="${labelW + PLOT_W / 2}" y="${plotBottom + 36}" text-anchor="middle">${escapeXml(plot.axisLabel)}</text>`);
  if (legend.length) {
    const ly = height - 10;
    let lx = labelW;
    // The legend's dot is grey like the points; a band adds a dot in the band's colour for the points inside it.
    if (plot.valueLabel) {
      parts.push(`<circle class="legend-mark" cx="${lx + 5}" cy="${ly - 4}" r="4.5"/>`);
      parts.push(`<text class="legend" x="${lx + 14}" y="${ly}">${escapeXml(plot.valueLabel)}</text>`);
      lx += 14 + plot.valueLabel.length * CHAR_W + 20;
    }
    if (plot.band) {
      const text = 'inside the band';
      parts.push(`<circle class="legend-mark in-band-mark" cx="${lx + 5}" cy="${ly - 4}" r="4.5"/>`);
      parts.push(`<text class="legend" x="${lx + 14}" y="${ly}">${text}</text>`);
      lx += 14 + text.length * CHAR_W + 20;
    }
    if (hasSecondary) {
      parts.push(`<path class="secondary" d="${diamond(lx + 5, ly - 4)}"/>`);
      parts.push(`<text class="legend" x="${lx + 14}" y="${ly}">${escapeXml(plot.secondaryLabel ?? 'second value')}</text>`);
    }
  }

  plot.points.forEach((p, i) => {
    const cy = y(i);
    const inBand = plot.band !== undefined && p.value >= plot.band.low - 1e-12;
    const tip = `${p.label}: ${fmt(p.value)}${p.low !== undefined && p.high !== undefined ? ` [${fmt(p.low)}, ${fmt(p.high)}]` : ''}${p.detail ? ` — ${p.detail}` : ''}`;
    parts.push(`<g class="row${inBand ? ' in-band' : ''}">`);
    parts.push(`<title>${escapeXml(tip)}</title>`);
    parts.push(`<text class="label" x="${labelW - 10}" y="${cy + 4}" text-anchor="end">${escapeXml(labels[i]!)}</text>`);
    if (p.low !== undefined && p.high !== undefined && Number.isFinite(p.low) && Number.isFinite(p.high)) {
      const [l, h] = [x(p.low), x(p.high)];
      parts.push(`<line class="ci" x1="${l}" x2="${h}" y1="${cy}" y2="${cy}"/>`);
      parts.push(`<line class="ci" x1="${l}" x2="${l}" y1="${cy - 4}" y2="${cy + 4}"/>`);
      parts.push(`<line class="ci" x1="${h}" x2="${h}" y1="${cy - 4}" y2="${cy + 4}"/>`);
    }
    const hasSec = p.secondary !== undefined && Number.isFinite(p.secondary);
    // Diamond first, so the dot (the row's main mark) is drawn on top where they overlap.
    if (hasSec) parts.push(`<path class="secondary" data-label="${escapeXml(p.label)}" d="${diamond(x(p.secondary!), cy)}"/>`);
    parts.push(`<circle class="mark" data-label="${escapeXml(p.label)}" cx="${x(p.value)}" cy="${cy}" r="4.5"/>`);
    parts.push(`<text class="value" x="${labelW + PLOT_W + 8}" y="${cy + 4}">${fmt(p.value)}</text>`);
    if (hasSec) parts.push(`<text class="value secondary-value" x="${labelW + PLOT_W + 8 + VALUE_W}" y="${cy + 4}">◇ ${fmt(p.secondary!)}</text>`);
    parts.push('</g>');
  });
  parts.push(`<line class="axis" x1="${labelW}" x2="${labelW + PLOT_W}" y1="${plotBottom}" y2="${plotBottom}"/>`);
  parts.push('</svg>');
  return parts.join('\n');
}
