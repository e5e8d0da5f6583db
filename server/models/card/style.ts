/**
 * The model card's stylesheet, inlined in the page: system fonts only (nothing to fetch), a
 * readable column on screen, and print rules that keep sections and charts whole.
 */
export const CARD_CSS = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; background: #f6f7f9; color: #1f2937;
  font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
main { max-width: 880px; margin: 24px auto; background: #fff; padding: 32px 40px;
  border: 1px solid #e5e7eb; border-radius: 8px; }
header { border-bottom: 2px solid #2f5d9e; margin-bottom: 8px; padding-bottom: 12px; }
.kicker { margin: 0; text-transform: uppercase; letter-spacing: .08em; font-size: 12px; color: #6b7280; }
h1 { margin: 2px 0 6px; font-size: 26px; word-break: break-word; }
.lede { margin: 0; font-size: 16px; }
h2 { font-size: 18px; margin: 26px 0 8px; color: #2f5d9e; }
h3 { font-size: 15px; margin: 18px 0 6px; }
p { margin: 6px 0; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
pre { background: #f3f4f6; padding: 10px 12px; border-radius: 6px; white-space: pre-wrap; word-break: break-word; }
table { border-collapse: collapse; margin: 10px 0; font-size: 14px; }
th, td { border: 1px solid #e5e7eb; padding: 5px 10px; text-align: left; vertical-align: top; }
thead th { background: #f3f4f6; }
table.metrics td:not(:first-child), table.confusion td { text-align: right; font-variant-numeric: tabular-nums; }
table.confusion td.hit { background: #e8f0fb; font-weight: 600; }
table.facts thead { display: none; }
table.facts td:first-child { color: #6b7280; white-space: nowrap; }
figure { margin: 12px 0; }
.chart svg { max-width: 100%; height: auto; display: block; }
figcaption, .note { color: #6b7280; font-size: 13px; }
ul.warnings { padding-left: 20px; }
ul.warnings li { margin: 6px 0; }
.kind { display: inline-block; background: #fef3c7; color: #92400e; border-radius: 4px;
  padding: 0 6px; font-size: 12px; font-weight: 600; }
ol.steps { margin: 0; padding-left: 18px; }
footer { margin-top: 28px; border-top: 1px solid #e5e7eb; padding-top: 10px; color: #6b7280; font-size: 12px; }
@page { margin: 14mm; }
@media print {
  body { background: #fff; font-size: 11pt; }
  main { max-width: none; margin: 0; padding: 0; border: none; }
  section, figure, table, ul.warnings li { break-inside: avoid; }
  h2 { break-after: avoid; }
}
`;
