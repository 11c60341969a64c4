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
 * Horizontal bars on a 0-10 scale with grid lines at 0, 5 and 10, one row per item: the ten
 * dimensions, or E-E-A-T. Labels are SVG text (escaped like everything else).
 */
export function barChart(bars: readonly Bar[], title: string, labelWidth = 330): Safe {
  const row = 34;
  const width = 760;
  const barX = labelWidth + 10;
  const barW = width - barX - 60;
  const height = bars.length * row + 24;
  const grid = [0, 2.5, 5, 7.5, 10].map((g) => {
    const gx = (barX + (barW * g) / 10).toFixed(1);
    return html`<line
        x1="${gx}"
        y1="0"
        x2="${gx}"
        y2="${bars.length * row}"
        stroke="#d1d5db"
        stroke-width="1"
        ${g % 5 === 0 ? '' : html` stroke-dasharray="3 3"`}
      />
      <text x="${gx}" y="${bars.length * row + 16}" text-anchor="middle" class="axis" fill="#4b5563">${g}</text>`;
  });
  const rows = bars.map((b, i) => {
    const y = i * row;
    const w = ((barW * Math.max(0, Math.min(10, b.score))) / 10).toFixed(1);
    return html`<g>
      <text x="${labelWidth}" y="${y + 21}" text-anchor="end" class="bar-label" fill="#111827">${b.label}</text>
      <rect x="${barX}" y="${y + 7}" width="${barW}" height="18" rx="4" fill="#f1f3f6" />
      <rect x="${barX}" y="${y + 7}" width="${w}" height="18" rx="4" fill="${scoreColour(b.score)}" />
      <text x="${barX + barW + 8}" y="${y + 21}" class="bar-value" fill="#111827">${b.formatted}</text>
    </g>`;
  });
  const described = `${title}: ${bars.map((b) => `${b.label} ${b.formatted}`).join('; ')}`;
  return html`<svg class="bars" viewBox="0 0 ${width} ${height}" role="img" aria-label="${described}">
    ${grid}${rows}
  </svg>`;
}
