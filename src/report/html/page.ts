/**
 * report.html's page: one self-contained file a change ticket can carry (inline CSS, no script,
 * nothing fetched: its Content-Security-Policy forbids every load but inline styles), laid out for
 * the screen and for print. The session and the fleet report share it. Pure.
 */
import { escapeHtml } from './markdown-html.js';

const css = `
:root{--text:#212529;--muted:#6c757d;--line:#dee2e6;--pass:#2b8a3e;--fail:#e03131;--warn:#f08c00;--unknown:#868e96;--accent:#3b5bdb}
*{box-sizing:border-box}
body{margin:0;background:#f8f9fa;color:var(--text);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1180px;margin:0 auto;padding:28px 32px 48px;background:#fff;box-shadow:0 0 0 1px var(--line)}
h1{font-size:24px;margin:0 0 16px}
h2{font-size:18px;margin:32px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h3{font-size:15px;margin:20px 0 8px}
h4{font-size:14px;margin:16px 0 6px}
p{margin:8px 0}
code{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f1f3f5;border-radius:3px;padding:1px 4px;word-break:break-word}
pre.code{background:#f8f9fa;border:1px solid var(--line);border-radius:4px;padding:10px 12px;overflow-x:auto}
pre.code code{background:none;padding:0;white-space:pre}
pre .add{color:#2b8a3e}pre .del{color:#c92a2a}pre .hunk{color:#5f3dc4}
blockquote{margin:12px 0;padding:8px 14px;border-left:4px solid var(--warn);background:#fff9db}
.table{overflow-x:auto;margin:10px 0}
table{border-collapse:collapse;font-size:13px;min-width:50%}
th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f1f3f5}
table.kv td:first-child{font-weight:600;background:#f8f9fa;white-space:nowrap}
ul{padding-left:22px}li{margin:3px 0}
figure.timeline{margin:12px 0 8px;overflow-x:auto;border:1px solid var(--line);border-radius:6px;background:#fff}
figure.timeline svg{display:block}
figure.timeline figcaption{font-size:12px;color:var(--muted);padding:6px 12px;border-top:1px solid var(--line)}
.overall{display:inline-block;font-weight:700;padding:3px 10px;border-radius:4px;color:#fff}
.panels{display:grid;grid-template-columns:repeat(auto-fill,minmax(460px,1fr));gap:12px;margin:12px 0;align-items:start}
.panel{border:1px solid var(--line);border-left:6px solid var(--unknown);border-radius:6px;padding:10px 14px;background:#fff;break-inside:avoid}
.panel header{display:flex;gap:8px;align-items:baseline}
.panel h3{margin:0;font-size:15px;flex:1}
.panel .time,.panel .spec{color:var(--muted);font-size:12px}
.panel p{margin:6px 0}
.panel ul{margin:4px 0;font-size:13px}
.panel .todo{font-size:13px;background:#f8f9fa;border-radius:4px;padding:6px 8px}
.badge{font-weight:700;font-size:12px;letter-spacing:.04em;padding:1px 7px;border-radius:3px;color:#fff;background:var(--unknown)}
.pass{border-left-color:var(--pass)}.pass .badge,.overall.pass{background:var(--pass)}
.fail{border-left-color:var(--fail)}.fail .badge,.overall.fail{background:var(--fail)}
.warn{border-left-color:var(--warn)}.warn .badge,.overall.warn{background:var(--warn)}
.unknown .badge,.overall.unknown{background:var(--unknown)}
footer{max-width:1180px;margin:0 auto;padding:12px 32px;color:var(--muted);font-size:12px}
@media print{body{background:#fff}main{box-shadow:none;max-width:none;padding:0}figure.timeline{overflow:visible}h2{break-after:avoid}}
`;

/** A whole page around `body` (already HTML). */
export function htmlPage(title: string, body: string, footer: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    // Nothing may load: no script, no image, no font, no style sheet from anywhere; inline styles only.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${css.trim()}</style>`,
    '</head>',
    '<body>',
    '<main>',
    body,
    '</main>',
    `<footer>${escapeHtml(footer)}</footer>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The timeline's SVG in a figure, with what the picture leaves out said under it. */
export function timelineFigure(svg: string, caption: string): string {
  return `<figure class="timeline">\n${svg}\n<figcaption>${escapeHtml(caption)}</figcaption>\n</figure>`;
}
