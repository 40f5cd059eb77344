/**
 * The dashboard's style, served as a file (`DASHBOARD_STYLE_PATH`): the page's CSP allows style and
 * script from this origin only, nothing inline, so an injected `<script>` or `style=` would not run.
 */
export const DASHBOARD_STYLE_PATH = '/_sandbox/dashboard/dashboard.css';
export const DASHBOARD_SCRIPT_PATH = '/_sandbox/dashboard/dashboard.js';

export const DASHBOARD_STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1a1a1a; background: #fafafa; }
header, main { max-width: 1200px; margin: 0 auto; padding: 0 1rem; }
main:focus { outline: none; }
h1 { font-size: 1.4rem; margin: 1rem 0 0.25rem; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 0.5rem; border-bottom: 1px solid #ccc; }
a { color: #1d4ed8; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: 0.35rem 0.5rem; border-bottom: 1px solid #e3e3e3; vertical-align: top; }
code { font-size: 0.85rem; overflow-wrap: anywhere; }
.nowrap { white-space: nowrap; }
td.id { min-width: 10rem; } td.url { min-width: 10rem; }
pre { white-space: pre-wrap; word-break: break-all; font-size: 0.8rem; background: #f1f1f1; padding: 0.4rem; margin: 0.2rem 0; }
.scroll { overflow-x: auto; }
.muted { color: #555; font-size: 0.85rem; }
.label { margin: 0.4rem 0 0; font-weight: 600; font-size: 0.85rem; }
.attempt { border-left: 3px solid #ccc; padding-left: 0.5rem; margin: 0.4rem 0; }
td.attempts { width: 40%; min-width: 16rem; }
.actions { display: flex; flex-wrap: wrap; gap: 0.3rem; align-items: center; }
button { font: inherit; padding: 0.2rem 0.6rem; border: 1px solid #1d4ed8; background: #1d4ed8; color: #fff; border-radius: 4px; cursor: pointer; }
input, select, textarea { font: inherit; border: 1px solid #6b6b6b; border-radius: 3px; padding: 0.15rem 0.3rem; }
/* A dark ring, offset onto the page background: well over 3:1 against white, #fafafa and the blue buttons. */
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible,
summary:focus-visible, .scroll:focus-visible, #status:focus-visible { outline: 3px solid #1a1a1a; outline-offset: 2px; }
button.danger { background: #b91c1c; border-color: #b91c1c; }
form { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin: 0.4rem 0; }
form .wide { display: flex; gap: 0.4rem; align-items: flex-start; }
.status { font-weight: 600; }
.status.pending { color: #92400e; } .status.fully_paid, .status.delivered, .status.paid { color: #166534; }
.status.failed { color: #b91c1c; }
.status.expired, .status.canceled, .status.declined { color: #555; }
#status { min-height: 1.5em; font-weight: 600; }
#status.error { color: #b91c1c; } #status.ok { color: #166534; }
.problems { color: #b91c1c; }
.faults li { margin: 0.25rem 0; }
details.curl { margin: 0.3rem 0; font-size: 0.85rem; }
summary { cursor: pointer; color: #1d4ed8; }
.excerpt { color: #333; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; }
.skip { position: absolute; left: 0.5rem; top: -3rem; background: #1a1a1a; color: #fff; padding: 0.4rem 0.8rem; z-index: 10; }
.skip:focus { top: 0.5rem; }
`;
