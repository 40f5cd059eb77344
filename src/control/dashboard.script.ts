/**
 * The dashboard's only script (served as a file, see dashboard.assets.ts). Buttons and forms call the
 * control API with fetch(), sending the control token the page was opened with. Every 2 s it asks
 * `/_sandbox/dashboard/state` whether anything changed; if so it fetches the page again and swaps the
 * lists (`[data-live]`) in place. A list is left alone while the user types in it, values typed but not
 * sent are carried over, open disclosures stay open, and a focused button keeps its focus.
 */
export const DASHBOARD_SCRIPT = `
(function () {
  'use strict';
  var POLL_MS = 2000;
  var token = document.body.dataset.token;
  var version = document.body.dataset.version;
  var status = document.getElementById('status');
  var liveState = document.getElementById('live-state');
  function headers(json) {
    var h = json ? { 'content-type': 'application/json' } : {};
    if (token) h['X-Sandbox-Token'] = token;
    return h;
  }
  function say(text, ok) { status.textContent = text; status.className = ok ? 'ok' : 'error'; }
  function errorText(text) {
    try { var e = JSON.parse(text); return Object.entries(e.errors).map(function (p) { return p[0] + ': ' + [].concat(p[1]).join(' '); }).join('; '); }
    catch (_) { return text; }
  }

  // ---- live refresh ----
  var refreshing = null;
  var stale = false; // a list was left alone while typed in: refresh it once the user moves on
  var shown = new Map(); // id of a live list -> the markup it shows (as the server sent it)
  function swap(doc, force) {
    var active = document.activeElement;
    stale = false;
    doc.querySelectorAll('[data-live]').forEach(function (fresh) {
      var old = document.getElementById(fresh.id);
      if (!old) return;
      var inside = active && active !== old && old.contains(active);
      var typing = inside && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName);
      if (typing && !force) { stale = stale || shown.get(old.id) !== fresh.innerHTML; return; }
      if (shown.get(old.id) === fresh.innerHTML) return;
      var open = Array.prototype.map.call(old.querySelectorAll('details[open][id]'), function (d) { return d.id; });
      // What the user typed and has not sent yet is carried over (not after an action: it was sent).
      var edited = force ? [] : Array.prototype.map.call(old.querySelectorAll('[data-dirty][id]'), function (i) { return [i.id, i.value]; });
      var focusId = inside ? active.id : '';
      old.innerHTML = fresh.innerHTML;
      shown.set(old.id, fresh.innerHTML);
      open.forEach(function (id) { var d = document.getElementById(id); if (d) d.open = true; });
      edited.forEach(function (e) { var i = document.getElementById(e[0]); if (i) { i.value = e[1]; i.setAttribute('data-dirty', ''); } });
      if (inside) {
        var again = focusId && document.getElementById(focusId);
        // The focused control is gone (e.g. the invoice was paid): focus the message that says what happened.
        (again || status).focus();
      }
    });
  }
  function refresh(force) {
    // A forced refresh (after an action) must see the action's result: it waits for one under way.
    if (refreshing) return force ? refreshing.catch(function () {}).then(function () { return refresh(true); }) : refreshing;
    refreshing = fetch(location.href, { headers: headers(false), cache: 'no-store' })
      .then(function (res) { if (!res.ok) throw new Error('HTTP ' + res.status); return res.text(); })
      .then(function (text) {
        var doc = new DOMParser().parseFromString(text, 'text/html');
        version = doc.body.dataset.version;
        swap(doc, force);
        var now = doc.getElementById('clock-now');
        if (now) setClock(now.textContent, doc.getElementById('clock-offset').textContent);
      })
      .finally(function () { refreshing = null; });
    return refreshing;
  }
  function setClock(now, offset) {
    document.getElementById('clock-now').textContent = now;
    document.getElementById('clock-offset').textContent = offset;
  }
  function poll() {
    if (document.hidden) return schedule();
    fetch('/_sandbox/dashboard/state', { headers: headers(false), cache: 'no-store' })
      .then(function (res) { if (!res.ok) throw new Error('HTTP ' + res.status); return res.json(); })
      .then(function (s) {
        liveState.textContent = 'live';
        setClock(s.now, String(s.offset_seconds));
        if (s.version !== version || stale) return refresh(false);
      })
      .catch(function (e) { liveState.textContent = 'not updating (' + e.message + '), retrying'; })
      .finally(schedule);
  }
  function schedule() { setTimeout(poll, POLL_MS); }
  document.querySelectorAll('[data-live]').forEach(function (el) { shown.set(el.id, el.innerHTML); });
  document.addEventListener('input', function (ev) {
    var live = ev.target.closest && ev.target.closest('[data-live]');
    if (live) ev.target.setAttribute('data-dirty', '');
  });
  schedule();

  // ---- actions ----
  async function call(method, path, body) {
    var res = await fetch(path, { method: method, headers: headers(true), body: body === undefined ? undefined : JSON.stringify(body) });
    var text = await res.text();
    if (!res.ok) {
      say(method + ' ' + path + ' → ' + res.status + ' ' + errorText(text), false);
      return false;
    }
    say(method + ' ' + path + ' → ' + res.status + '. Done.', true);
    await refresh(true).catch(function () {});
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
    'send-callback': function (b) { return call('POST', inv(b.dataset.invoice) + '/callbacks', { event: b.dataset.event }); },
    'clear-inbox': function () { return call('DELETE', '/_sandbox/inbox'); },
    'redeliver': function (b) { return call('POST', '/_sandbox/deliveries/' + encodeURIComponent(b.dataset.delivery) + '/redeliver'); },
    'delete-fault': function (b) { return call('DELETE', '/_sandbox/faults/' + encodeURIComponent(b.dataset.fault)); },
    'clock-reset': function () { return call('POST', '/_sandbox/clock/reset'); },
    'clear-faults': function () { return call('DELETE', '/_sandbox/faults'); },
    'reset': function () { if (confirm('Drop all data and reload the fixtures?')) return call('POST', '/_sandbox/reset'); },
    'copy': function (b) {
      var text = document.getElementById(b.dataset.target).textContent;
      var done = function () { say('Copied to the clipboard.', true); };
      var manual = function () {
        var range = document.createRange();
        range.selectNodeContents(document.getElementById(b.dataset.target));
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        say('The clipboard is not available here: the command is selected, copy it with Ctrl+C.', false);
      };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, manual); else manual();
    }
  };
  document.addEventListener('click', function (ev) {
    var json = ev.target.closest('a[data-json]');
    if (json && token) {
      // A link cannot send the token header: fetch the JSON with it and show what came back in a new tab
      // (opened now, while the click still allows a new tab).
      ev.preventDefault();
      var tab = window.open('about:blank', '_blank');
      fetch(json.getAttribute('href'), { headers: headers(false) }).then(function (res) { return res.text(); }).then(function (text) {
        var url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
        if (tab) tab.location.href = url; else location.href = url;
      });
      return;
    }
    var b = ev.target.closest('button[data-action]');
    if (!b || !actions[b.dataset.action]) return;
    ev.preventDefault();
    actions[b.dataset.action](b);
  });
  function faultFrom(data) {
    var fault = { method: data.get('method'), path: data.get('path') };
    var numbers = ['status', 'latency_ms', 'probability', 'count'];
    for (var i = 0; i < numbers.length; i++) {
      var v = String(data.get(numbers[i]) || '').trim();
      if (v !== '') fault[numbers[i]] = Number(v);
    }
    var body = String(data.get('body') || '').trim();
    if (body !== '') {
      try { fault.body = JSON.parse(body); } catch (e) { throw new Error('Body: not valid JSON (' + e.message + ').'); }
    }
    return fault;
  }
  document.addEventListener('submit', function (ev) {
    var form = ev.target;
    if (!form.dataset.form) return; // the filter forms are plain GET forms
    ev.preventDefault();
    var data = new FormData(form);
    if (form.dataset.form === 'advance') call('POST', '/_sandbox/clock/advance', { seconds: Number(data.get('seconds')) });
    if (form.dataset.form === 'fault') {
      var fault;
      try { fault = faultFrom(data); } catch (e) { say(e.message, false); return; }
      call('POST', '/_sandbox/faults', fault);
    }
  });
})();
`;
