// The console's one script: every page works without it; it adds the live SLA countdown, keyboard work through a
// queue, and focus on the first problem of a form. Served by the service itself (the CSP allows nothing else).
'use strict';

(function () {
  // Live countdown to each due time: <span class="countdown" data-due="ISO">.
  function formatLeft(ms) {
    const late = ms < 0;
    let s = Math.floor(Math.abs(ms) / 1000);
    const h = Math.floor(s / 3600);
    s -= h * 3600;
    const m = Math.floor(s / 60);
    s -= m * 60;
    const text = h + 'h ' + String(m).padStart(2, '0') + 'm ' + String(s).padStart(2, '0') + 's';
    return late ? 'overdue by ' + text : text + ' left';
  }
  // The service clock can differ from the browser's (the test clock): the page says what "now" was when served.
  const served = document.documentElement.dataset.now || document.body.dataset.now;
  const offset = served ? Date.parse(served) - Date.now() : 0;
  function tick() {
    const now = Date.now() + offset;
    document.querySelectorAll('[data-due]').forEach(function (el) {
      const left = Date.parse(el.dataset.due) - now;
      el.textContent = formatLeft(left);
      el.classList.toggle('overdue', left < 0);
    });
  }
  tick();
  setInterval(tick, 1000);

  // Queues: j/k (or arrows) move through the rows, Enter or o opens the selected case.
  const rows = Array.prototype.slice.call(document.querySelectorAll('tr[data-href]'));
  let selected = -1;
  function select(i) {
    if (rows.length === 0) return;
    selected = Math.max(0, Math.min(rows.length - 1, i));
    rows.forEach(function (r, j) {
      r.classList.toggle('selected', j === selected);
      r.setAttribute('aria-selected', j === selected ? 'true' : 'false');
    });
    const link = rows[selected].querySelector('a');
    if (link) link.focus();
  }
  rows.forEach(function (row, i) {
    row.addEventListener('click', function (event) {
      if (event.target.closest('a, button, input, select, textarea')) return;
      select(i);
      window.location.href = row.dataset.href;
    });
  });

  function typing(event) {
    const t = event.target;
    return (
      t &&
      (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)
    );
  }
  function follow(rel) {
    const link = document.querySelector('a[rel="' + rel + '"]');
    if (link) window.location.href = link.href;
  }
  document.addEventListener('keydown', function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || typing(event)) return;
    switch (event.key) {
      case 'j':
      case 'ArrowDown':
        if (rows.length) {
          select(selected + 1);
          event.preventDefault();
        }
        break;
      case 'k':
      case 'ArrowUp':
        if (rows.length) {
          select(selected - 1);
          event.preventDefault();
        }
        break;
      case 'o':
      case 'Enter':
        if (selected >= 0 && rows[selected]) window.location.href = rows[selected].dataset.href;
        break;
      case 'n':
        follow('next');
        break;
      case 'p':
        follow('prev');
        break;
      case 'd': {
        const field = document.querySelector('[data-decision-start]');
        if (field) {
          field.focus();
          event.preventDefault();
        }
        break;
      }
      case 't': {
        const take = document.querySelector('[data-take]');
        if (take) take.click();
        break;
      }
    }
  });

  // A form that came back with problems: focus the summary so a screen reader reads it first.
  const summary = document.querySelector('[data-focus]');
  if (summary) summary.focus();

  // A button that asks first (data-confirm="…"): the form still posts without script.
  document.querySelectorAll('form[data-confirm]').forEach(function (form) {
    form.addEventListener('submit', function (event) {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  });
})();
