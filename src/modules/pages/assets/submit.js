/* global document, Worker */
/*
 * The submission form's script (templates/submit.eta), after ALTCHA's widget script. The widget's
 * `external` build makes no worker of its own (the bundled one builds them from blob: URLs, which
 * the pages' policy refuses): its proof-of-work workers are registered here from the files the
 * site serves, named by the widget's data-* attributes, so the page needs no inline script. It
 * also switches Start and End between date and date-and-time inputs with "All day", keeping the
 * dates typed. Without this script the form posts as it is, unverified, and the server accepts it.
 */
(function () {
  'use strict';
  const widget = document.querySelector('altcha-widget[data-pbkdf2]');
  const altcha = globalThis.$altcha;
  if (widget && altcha && altcha.algorithms) {
    const pbkdf2 = widget.dataset.pbkdf2;
    const sha = widget.dataset.sha;
    for (const name of ['PBKDF2/SHA-256', 'PBKDF2/SHA-384', 'PBKDF2/SHA-512'])
      altcha.algorithms.set(name, () => new Worker(pbkdf2));
    for (const name of ['SHA-256', 'SHA-384', 'SHA-512']) altcha.algorithms.set(name, () => new Worker(sha));
  }

  const allDay = document.getElementById('s-all_day');
  const dates = ['s-start', 's-end'].map((id) => document.getElementById(id)).filter(Boolean);
  if (!allDay) return;
  const DATE = /^\d{4}-\d{2}-\d{2}$/;
  const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
  allDay.addEventListener('change', () => {
    for (const input of dates) {
      const value = input.value;
      // A value the other type cannot hold (text typed where the browser has no picker) stays as it is.
      if (allDay.checked && (value === '' || DATE_TIME.test(value))) {
        input.type = 'date';
        input.value = value.slice(0, 10);
      } else if (!allDay.checked && (value === '' || DATE.test(value))) {
        input.type = 'datetime-local';
        input.value = value === '' ? '' : `${value}T00:00`;
      }
    }
  });
})();
