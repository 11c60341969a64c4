import { html, type Safe } from './html.ts';

/** Colours by summary status; each passes WCAG AA against white for text. */
export const STATUS_COLOURS: Record<string, string> = { ok: '#17703f', warn: '#a15300', critical: '#b42318' };

const scoreColour = (score10: number): string =>
  score10 >= 7.5 ? STATUS_COLOURS.ok! : score10 >= 5 ? STATUS_COLOURS.warn! : STATUS_COLOURS.critical!;

/** The CQS as a half-circle gauge (0-100), value in the middle. Pure SVG: no script, no inline style. */
export function gauge(cqs: number | null, status: string, label: string, formatted: string): Safe {
  const v = Math.max(0, Math.min(100, cqs ?? 0));
  const angle = Math.PI * (1 - v / 100);
  const x = (100 + 80 * Math.cos(angle)).toFixed(2);
  const y = (100 - 80 * Math.sin(angle)).toFixed(2);
  const colour = STATUS_COLOURS[status] ?? '#444';
  return html`<svg class="gauge" viewBox="0 0 200 118" role="img" aria-label="${label}: ${formatted}/100">
    <path d="M 20 100 A 80 80 0 0 1 180 100" fill="none" stroke="#e6e8ec" stroke-width="18" stroke-linecap="round" />
    ${v > 0 ? html`<path d="M 20 100 A 80 80 0 0 1 ${x} ${y}" fill="none" stroke="${colour}" stroke-width="18" stroke-linecap="round" />` : ''}
    <text x="100" y="92" text-anchor="middle" class="gauge-value" fill="#111827">${formatted}</text>
    <text x="100" y="114" text-anchor="middle" class="gauge-scale" fill="#4b5563">0–100</text>
  </svg>`;
}

export interface Bar {
  label: string;
  score: number;
  formatted: string;
}

/**
 * Horizontal bars on a 0-10 scale, one list item per row: the ten dimensions, or E-E-A-T. Label
 * and value are HTML text, so they keep the page's type size and wrap at any width (an SVG of
 * the whole chart scaled its labels down to 6 px on a phone); only the bar itself is a small SVG
 * stretched to its cell, with lines at 2.5, 5 and 7.5. The stylesheet lays a row out beside or,
 * on a phone, above its bar.
 */
export function barChart(bars: readonly Bar[], title: string): Safe {
  const ticks = [25, 50, 75].map(
    (x) =>
      html`<line
        x1="${x}"
        y1="0"
        x2="${x}"
        y2="10"
        stroke="#fff"
        stroke-width="2"
        vector-effect="non-scaling-stroke"
      />`,
  );
  const rows = bars.map((b) => {
    const w = (Math.max(0, Math.min(10, b.score)) * 10).toFixed(1);
    return html`<li class="bar-row">
      <span class="bar-label">${b.label}</span>
      <svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false">
        <rect width="100" height="10" fill="#e6e8ec" />
        <rect width="${w}" height="10" fill="${scoreColour(b.score)}" />
        ${ticks}
      </svg>
      <span class="bar-value">${b.formatted}</span>
    </li>`;
  });
  return html`<div class="chart">
    <ul class="bars" aria-label="${title}">
      ${rows}
    </ul>
    <div class="bar-row bar-axis" aria-hidden="true">
      <span class="axis"><span>0</span><span>5</span><span>10</span></span>
    </div>
  </div>`;
}
