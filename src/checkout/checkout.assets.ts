/**
 * The page's only style, inlined (no external assets: the page works offline and under a strict
 * Content-Security-Policy with a per-response nonce). Sizes are in rem/em so the root font follows the
 * reader's own text size; below 25em wide the summary lists stack label over value.
 */
export const STYLE = `
*{box-sizing:border-box}
html{font:100%/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f3f4f6;-webkit-text-size-adjust:100%}
body{margin:0}
.banner{background:#fff4e0;color:#5c3a00;border-bottom:1px solid #e0b060;padding:.5rem 1rem;text-align:center;font-size:.9rem}
main{max-width:34rem;margin:0 auto;padding:1rem}
.card{background:#fff;border:1px solid #d1d5db;border-radius:.75rem;padding:1rem 1.25rem;margin:0 0 1rem}
h1{font-size:1.4rem;margin:.25rem 0 .75rem;line-height:1.25}
h2{font-size:1.15rem;margin:0 0 .75rem}
h3{font-size:1rem;margin:1rem 0 .5rem}
.merchant{color:#4b5563;margin:0;font-size:.95rem}
.money{white-space:nowrap;font-variant-numeric:tabular-nums}
.amount{font-size:clamp(1.25rem,8vw,2rem);font-weight:700;margin:0;line-height:1.2}
.due-label{font-size:1rem;font-weight:600;color:#4b5563}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:.75rem 0 0}
dt{color:#4b5563}dd{margin:0;overflow-wrap:anywhere;font-variant-numeric:tabular-nums}
.status{display:inline-block;margin:.5rem 0;padding:.15rem .6rem;border-radius:1rem;font-weight:600;background:#e5e7eb}
.status-fully_paid,.status-paid{background:#d1fae5;color:#065f46}.status-expired,.status-canceled,.status-declined{background:#fee2e2;color:#7f1d1d}
.status-partly{background:#fef3c7;color:#713f12;border:1px solid #b45309}
.tabs{display:flex;gap:.5rem;margin:0 0 1rem;padding:0;list-style:none}
.tabs li{flex:1}
.tab{display:block;text-align:center;padding:.7rem .5rem;background:#fff;border:2px solid #0b57d0;border-radius:.5rem;color:#0b57d0;font-weight:600;text-decoration:none;min-height:2.75rem}
.tab[aria-current=page]{background:#0b57d0;color:#fff}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;font:inherit;padding:.65rem .75rem;border:1px solid #6b7280;border-radius:.5rem;min-height:2.75rem}
input[aria-invalid=true]{border-color:#b3261e;border-width:2px}
button,a.button{display:block;text-align:center;text-decoration:none;font:inherit;font-weight:600;cursor:pointer;min-height:2.75rem;padding:.6rem 1rem;border-radius:.5rem;border:2px solid #0b57d0;background:#0b57d0;color:#fff;width:100%;margin-top:1rem}
button.secondary{background:#fff;color:#0b57d0}
button.link{background:none;border:0;color:#0b57d0;text-decoration:underline;width:auto;padding:.25rem 0;min-height:auto;margin-top:.5rem}
a{color:#0b57d0}
a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
[tabindex="-1"]:focus{outline:none}
.notice{border-left:4px solid #b3261e;background:#fdecea;color:#7a1712;padding:.6rem .8rem;border-radius:.25rem;margin:0 0 1rem}
.notice p{margin:0 0 .5rem}.notice p:last-child{margin:0}.notice a{color:#7a1712;font-weight:600}
.outlets{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:.5rem}
.outlets button{margin:0}
.ticket{margin:0 0 .5rem}
.ticket figcaption{color:#4b5563}
.ref{font:700 1.5rem/1.2 ui-monospace,Menlo,Consolas,monospace;letter-spacing:.04em;margin:.25rem 0 .5rem;word-spacing:.1em}
button.copy{width:auto;margin:0;padding:.4rem 1rem}
.barcode{background:#fff;padding:.5rem 0;margin:0}
.barcode svg{display:block;width:100%;max-width:24rem;height:auto;margin:0 auto}
.muted{color:#4b5563}
.sandbox{border:2px dashed #b7791f;background:#fffbeb}
.sandbox .choices{display:grid;grid-template-columns:repeat(auto-fit,minmax(8rem,1fr));gap:.5rem}
.sandbox button{margin:0;background:#fff;color:#5c3a00;border-color:#b7791f}
footer{text-align:center;color:#4b5563;font-size:.85rem;padding:0 1rem 2rem}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (max-width:25em){main{padding:.75rem}.card{padding:1rem}dl{grid-template-columns:1fr;gap:0}dd{margin:0 0 .5rem}}
`
  .trim()
  .replace(/\n/g, '');

export { SCRIPT } from './checkout.script.js';
