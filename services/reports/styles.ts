/**
 * The report pages' one stylesheet, served from STYLESHEET_PATH (CSP: style-src 'self'). Screen:
 * cards on a light background from a phone (390 px) up; print: black on white, no card split across
 * pages, link targets written out, so "Save as PDF" gives a clean report.
 */
export const REPORT_CSS = `
:root { --ink: #111827; --muted: #4b5563; --line: #e5e7eb; --bg: #f5f6f8; --card: #fff; --accent: #1d4ed8;
  --ok: #17703f; --warn: #a15300; --critical: #b42318; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 16px/1.55 "DejaVu Sans", "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
a { color: var(--accent); overflow-wrap: anywhere; }
.owner { display: flex; justify-content: flex-end; align-items: center; gap: 12px; padding: 8px 24px; background: #111827; color: #fff; font-size: 14px; }
.owner form { margin: 0; }
.owner button { font: inherit; color: #111827; background: #fff; border: 0; border-radius: 6px; padding: 4px 12px; cursor: pointer; }
.report-head { max-width: 1040px; margin: 0 auto; padding: 32px 24px 8px; }
.eyebrow { margin: 0; text-transform: uppercase; letter-spacing: .08em; font-size: 12px; color: var(--muted); font-weight: 700; }
h1 { margin: 4px 0 16px; font-size: 30px; line-height: 1.2; }
h2 { margin: 0 0 16px; font-size: 21px; display: flex; align-items: center; gap: 12px; flex-wrap: wrap; }
h3 { font-size: 17px; margin: 20px 0 8px; }
h4 { font-size: 15px; margin: 12px 0 4px; }
.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(200px, 100%), 1fr)); gap: 8px 24px; margin: 0; }
.facts div, .csi div { min-width: 0; }
dt { font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); font-weight: 700; }
dd { margin: 2px 0 0; overflow-wrap: anywhere; }
main { max-width: 1040px; margin: 0 auto; padding: 8px 24px 24px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 24px; margin: 16px 0; box-shadow: 0 1px 2px rgba(17,24,39,.04); }
.summary-grid { display: grid; grid-template-columns: 260px 1fr; gap: 24px; align-items: start; }
.score-block { text-align: center; }
.gauge { width: 100%; max-width: 240px; height: auto; }
.gauge-value { font-size: 44px; font-weight: 700; }
.gauge-scale { font-size: 11px; }
.score-name { margin: 4px 0 0; font-weight: 700; }
.status { margin: 4px 0 0; font-weight: 700; }
.status-ok { color: var(--ok); } .status-warn { color: var(--warn); } .status-critical { color: var(--critical); }
.dot { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 6px; }
.dot-ok { background: var(--ok); } .dot-warn { background: var(--warn); } .dot-critical { background: var(--critical); }
.muted { color: var(--muted); font-weight: 400; }
.stat-row { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(150px, 100%), 1fr)); gap: 12px; }
.stat { border: 1px solid var(--line); border-radius: 10px; padding: 12px; display: flex; flex-direction: column; min-width: 0; }
.stat-value { font-size: 22px; font-weight: 700; overflow-wrap: anywhere; }
.stat-label { font-size: 13px; color: var(--muted); }
.versus { margin: 12px 0 0; font-weight: 700; }
.top-change, .quick-wins { margin-top: 8px; }
.top-change p { margin: 2px 0; }
.pill { display: inline-block; font-size: 13px; font-weight: 700; padding: 2px 10px; border-radius: 999px; background: #eef2ff; color: #1e3a8a; white-space: nowrap; }
.chart { margin: 0 0 8px; }
.bars { list-style: none; margin: 0; padding: 0; }
.bar-row { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 3fr) 3.5em; grid-template-areas: "label bar value"; align-items: center; column-gap: 12px; padding: 3px 0; }
.bar-label { grid-area: label; text-align: right; font-size: 14px; line-height: 1.3; }
.bar { grid-area: bar; display: block; width: 100%; height: 18px; border-radius: 4px; }
.bar-value { grid-area: value; font-size: 14px; font-weight: 700; }
.axis { grid-area: bar; display: flex; justify-content: space-between; font-size: 12px; color: var(--muted); }
.dimension-list { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(300px, 100%), 1fr)); gap: 12px; margin-top: 12px; }
.dimension { border: 1px solid var(--line); border-radius: 10px; padding: 12px 16px; min-width: 0; }
.dimension h3 { margin: 0 0 4px; font-size: 15px; display: flex; justify-content: space-between; align-items: flex-start; gap: 8px; }
.dimension h3 .pill { flex: none; }
.dimension p { margin: 0 0 4px; font-size: 14px; }
.dimension ul { margin: 0; padding-left: 18px; font-size: 14px; }
.suggestion { display: block; color: var(--muted); }
.priority { display: flex; align-items: center; gap: 8px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
.priority .count { font-size: 13px; background: var(--bg); border-radius: 999px; padding: 0 8px; }
.priority-critical { color: var(--critical); } .priority-high { color: var(--warn); } .priority-medium { color: #1e3a8a; } .priority-bonus { color: var(--ok); }
.rec { border: 1px solid var(--line); border-left-width: 4px; border-radius: 10px; padding: 12px 16px; margin: 12px 0; min-width: 0; }
.rec-critical { border-left-color: var(--critical); } .rec-high { border-left-color: var(--warn); } .rec-medium { border-left-color: #1e3a8a; } .rec-bonus { border-left-color: var(--ok); }
.rec h4 { margin: 0; font-size: 16px; }
.rec-id { font: 12px ui-monospace, monospace; color: var(--muted); font-weight: normal; }
.rec-meta { margin: 2px 0 8px; font-size: 13px; color: var(--muted); }
.delta { font-weight: 700; color: var(--ink); }
.before-after { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.before, .after { border-radius: 8px; padding: 8px 12px; min-width: 0; }
.before { background: #fdf2f2; } .after { background: #eefaf3; }
.tag { margin: 0 0 4px; font-size: 12px; font-weight: 700; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); }
blockquote { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 14px; }
blockquote.anchor { color: var(--muted); font-style: italic; }
.empty { margin: 0 0 4px; font-size: 14px; font-style: italic; }
.impact { margin: 8px 0 0; font-size: 14px; }
table.competitors { width: 100%; border-collapse: collapse; margin: 16px 0; font-size: 14px; }
table.competitors caption { text-align: left; font-weight: 700; font-size: 17px; margin-bottom: 8px; }
table.competitors th, table.competitors td { text-align: left; padding: 8px; border-bottom: 1px solid var(--line); font-weight: 400; overflow-wrap: anywhere; }
table.competitors thead th { font-weight: 700; color: var(--muted); font-size: 12px; text-transform: uppercase; }
table.competitors td { width: 40%; }
tr.this-page th, tr.this-page td { font-weight: 700; background: #eef2ff; }
tr.excluded { color: var(--muted); }
.two-col { display: grid; grid-template-columns: 1fr 1fr; gap: 24px; }
.two-col ul { padding-left: 18px; margin: 0; }
.csi { display: grid; grid-template-columns: 1fr 1fr; gap: 12px 24px; margin: 0; }
.report-foot { max-width: 1040px; margin: 0 auto; padding: 0 24px 40px; color: var(--muted); font-size: 13px; }
.plain { max-width: 560px; margin: 12vh auto; padding: 0 24px; }
.plain form { display: grid; gap: 8px; margin-top: 16px; }
.plain input { font: inherit; padding: 8px 10px; border: 1px solid #9ca3af; border-radius: 6px; }
.plain button { font: inherit; padding: 8px 12px; border: 0; border-radius: 6px; background: var(--accent); color: #fff; cursor: pointer; }
.error { color: var(--critical); font-weight: 700; }
@media (max-width: 760px) {
  .summary-grid, .before-after, .two-col, .csi { grid-template-columns: 1fr; }
}
/* A phone: narrower margins, and each chart row puts its label above the bar. */
@media (max-width: 560px) {
  .report-head { padding: 20px 16px 4px; }
  main { padding: 4px 12px 16px; }
  .report-foot { padding: 0 16px 32px; }
  .owner { padding: 8px 16px; }
  .card { padding: 16px; border-radius: 10px; }
  h1 { font-size: 26px; }
  h2 { font-size: 20px; }
  .bar-row { grid-template-columns: minmax(0, 1fr) auto; grid-template-areas: "label value" "bar bar"; row-gap: 2px; padding: 5px 0; }
  .bar-label { text-align: left; }
  .rec { padding: 12px; }
}
/*
 * Print ("Save as PDF"): black on white, no navigation, link targets written out. The header and
 * the summary fill page one; a short section, a chart, a dimension, a recommendation, a table row
 * never break across pages; only the two long sections (dimensions, recommendations) break, and
 * only between their cards.
 */
@media print {
  @page { size: A4; margin: 12mm 12mm 14mm; }
  body { background: #fff; font-size: 10pt; line-height: 1.45; }
  .owner { display: none; }
  .report-head, main, .report-foot { max-width: none; padding-left: 0; padding-right: 0; }
  .report-head { padding-top: 0; }
  h1 { font-size: 20pt; }
  h2 { font-size: 14pt; margin-bottom: 8px; }
  .card { box-shadow: none; border: 1px solid #bbb; border-radius: 8px; padding: 12px 16px; margin: 10px 0; break-inside: avoid; }
  /* The two long sections break between their cards, so they go without a frame (a split one dangles). */
  .card.long { break-inside: auto; border: 0; border-radius: 0; padding: 4px 0; }
  .summary-grid { grid-template-columns: 200px 1fr; gap: 16px; }
  .gauge { max-width: 190px; }
  .chart, .rec, .dimension, .stat, .summary-grid, .csi, .before-after, tr, li { break-inside: avoid; }
  h2, h3, h4, .priority { break-after: avoid; }
  .dimension-list { display: block; columns: 2; column-gap: 12px; }
  .dimension { margin: 0 0 12px; }
  .rec { margin: 8px 0; }
  a { color: inherit; text-decoration: none; }
  a[href]::after { content: " (" attr(href) ")"; font-size: 9pt; color: #444; overflow-wrap: anywhere; }
  .before { background: #fff; border: 1px solid #d99; } .after { background: #fff; border: 1px solid #8c8; }
}
`;
