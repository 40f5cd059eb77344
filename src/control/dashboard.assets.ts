/** Inline style of the QA dashboard (no external assets: the sandbox works offline). */
export const DASHBOARD_STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1a1a1a; background: #fafafa; }
header, main { max-width: 1200px; margin: 0 auto; padding: 0 1rem; }
h1 { font-size: 1.4rem; margin: 1rem 0 0.25rem; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 0.5rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: 0.35rem 0.5rem; border-bottom: 1px solid #e3e3e3; vertical-align: top; }
code { font-size: 0.85rem; word-break: break-all; }
.scroll { overflow-x: auto; }
.muted { color: #555; font-size: 0.85rem; }
.actions { display: flex; flex-wrap: wrap; gap: 0.3rem; align-items: center; }
button { font: inherit; padding: 0.2rem 0.6rem; border: 1px solid #1d4ed8; background: #1d4ed8; color: #fff; border-radius: 4px; cursor: pointer; }
button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid #f59e0b; outline-offset: 1px; }
button.danger { background: #b91c1c; border-color: #b91c1c; }
form { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
.status { font-weight: 600; }
.status.pending { color: #92400e; } .status.fully_paid { color: #166534; }
.status.expired, .status.canceled { color: #555; }
#status { min-height: 1.5em; font-weight: 600; }
#status.error { color: #b91c1c; } #status.ok { color: #166534; }
`;

/**
 * The dashboard's only script: buttons and forms call the control API with fetch(), sending the
 * control token the page was opened with, then reload to show the new state.
 */
export const DASHBOARD_SCRIPT = `
(function () {
  var token = document.body.dataset.token;
  var status = document.getElementById('status');
  function say(text, ok) { status.textContent = text; status.className = ok ? 'ok' : 'error'; }
  async function call(method, path, body) {
    var headers = { 'content-type': 'application/json' };
    if (token) headers['X-Sandbox-Token'] = token;
    var res = await fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) });
    var text = await res.text();
    if (!res.ok) {
      var message = text;
      try { var e = JSON.parse(text); message = Object.entries(e.errors).map(function (p) { return p[0] + ': ' + p[1].join(' '); }).join('; '); } catch (_) {}
      say(method + ' ' + path + ' → ' + res.status + ' ' + message, false);
      return false;
    }
    say(method + ' ' + path + ' → ' + res.status + '. Reloading…', true);
    setTimeout(function () { location.reload(); }, 400);
    return true;
  }
  var inv = function (id) { return '/_sandbox/invoices/' + encodeURIComponent(id); };
  var actions = {
    'pay': function (b) { return call('POST', inv(b.dataset.invoice) + '/payments', { collector: b.dataset.collector }); },
    'pay-part': function (b) {
      var amount = document.getElementById('part-' + b.dataset.invoice).value.trim();
      return call('POST', inv(b.dataset.invoice) + '/payments', { collector: b.dataset.collector, amount: amount });
    },
    'expire': function (b) { return call('POST', inv(b.dataset.invoice) + '/expire'); },
    'cancel': function (b) { return call('POST', inv(b.dataset.invoice) + '/cancel'); },
    'trigger': function (b) { return call('POST', '/_sandbox/trigger', { event: b.dataset.event }); },
    'clock-reset': function () { return call('POST', '/_sandbox/clock/reset'); },
    'clear-faults': function () { return call('DELETE', '/_sandbox/faults'); },
    'reset': function () { if (confirm('Drop all data and reload the fixtures?')) return call('POST', '/_sandbox/reset'); }
  };
  document.addEventListener('click', function (ev) {
    var b = ev.target.closest('button[data-action]');
    if (!b || !actions[b.dataset.action]) return;
    ev.preventDefault();
    actions[b.dataset.action](b);
  });
  document.addEventListener('submit', function (ev) {
    var form = ev.target;
    ev.preventDefault();
    var data = new FormData(form);
    if (form.dataset.form === 'advance') call('POST', '/_sandbox/clock/advance', { seconds: Number(data.get('seconds')) });
    if (form.dataset.form === 'fault') {
      var fault = { method: data.get('method'), path: data.get('path'), status: Number(data.get('status') || 500) };
      if (data.get('count')) fault.count = Number(data.get('count'));
      call('POST', '/_sandbox/faults', fault);
    }
  });
})();
`;
