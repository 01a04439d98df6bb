import { html, type Html } from '../platform/html.js';

/**
 * A bar chart as inline SVG, drawn on the server: no script, no inline style (the CSP allows neither), colours from
 * the stylesheet's classes. It is an image with a title and a description for screen readers; the numbers are also
 * in the table the caller puts beside it, for anyone who would rather read than look.
 */
export function barChart(
  bars: readonly { label: string; value: number }[],
  text: { id: string; title: string; description: string },
): Html {
  const width = 720;
  const height = 200;
  const left = 40;
  const bottom = 28;
  const top = 12;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const plotWidth = width - left - 8;
  const plotHeight = height - top - bottom;
  const step = bars.length ? plotWidth / bars.length : plotWidth;
  const barWidth = Math.max(2, Math.min(40, step * 0.7));
  // Every nth label only, so dates never overlap: about ten along the axis.
  const every = Math.max(1, Math.ceil(bars.length / 10));
  return html`<figure class="chart">
    <svg
      role="img"
      aria-labelledby="${text.id}-title ${text.id}-desc"
      viewBox="0 0 ${width} ${height}"
      preserveAspectRatio="xMinYMin meet"
      class="chart-svg"
    >
      <title id="${text.id}-title">${text.title}</title>
      <desc id="${text.id}-desc">${text.description}</desc>
      <line
        class="chart-axis"
        x1="${left}"
        y1="${top + plotHeight}"
        x2="${width - 8}"
        y2="${top + plotHeight}"
      />
      <text class="chart-label" x="${left - 6}" y="${top + 4}" text-anchor="end">${max}</text>
      <text class="chart-label" x="${left - 6}" y="${top + plotHeight}" text-anchor="end">0</text>
      ${bars.map((bar, i) => {
        const h = Math.round((bar.value / max) * plotHeight);
        const x = Math.round(left + i * step + (step - barWidth) / 2);
        return html`<rect
            class="chart-bar"
            x="${x}"
            y="${top + plotHeight - h}"
            width="${Math.round(barWidth)}"
            height="${h}"
          >
            <title>${bar.label}: ${bar.value}</title>
          </rect>
          ${
            i % every === 0
              ? html`<text
                  class="chart-label"
                  x="${x + Math.round(barWidth / 2)}"
                  y="${height - 8}"
                  text-anchor="middle"
                >
                  ${bar.label.slice(5)}
                </text>`
              : ''
          }`;
      })}
    </svg>
    <figcaption>${text.title}</figcaption>
  </figure>`;
}
