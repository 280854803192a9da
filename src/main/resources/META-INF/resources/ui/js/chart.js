// A bar chart of per-minute values drawn as SVG by hand: a few dozen lines instead of a chart
// library, and nothing for the Content-Security-Policy to allow. Colours come from style.css, so
// dark mode needs nothing here.
import { h } from './dom.js';

/**
 * values: numbers or null (not measured, drawn as a gap). label: what the chart shows, for
 * screen readers and as the tooltip.
 */
export function bars(values, { width = 240, height = 40, label }) {
  const max = Math.max(1, ...values.map((v) => v ?? 0));
  const step = width / values.length;
  const svg = h('svg:svg', {
    viewBox: `0 0 ${width} ${height}`, width, height, class: 'chart', role: 'img', 'aria-label': label,
    preserveAspectRatio: 'none',
  }, h('svg:title', null, label));
  svg.append(h('svg:line', { x1: 0, y1: height - 0.5, x2: width, y2: height - 0.5, class: 'axis' }));
  values.forEach((value, i) => {
    if (value === null) return;
    const barHeight = value === 0 ? 0 : Math.max(1, (value / max) * (height - 2));
    svg.append(h('svg:rect', {
      x: (i * step + 0.5).toFixed(1), y: (height - 1 - barHeight).toFixed(1),
      width: Math.max(1, step - 1).toFixed(1), height: barHeight.toFixed(1), class: 'bar',
    }, h('svg:title', null, `${60 - i} min ago: ${value}`)));
  });
  return svg;
}
