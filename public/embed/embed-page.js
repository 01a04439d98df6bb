// The hosted embed page's enhancements; the page works without them. Tells the registered parent origins its height
// and what the player completed (postMessage, to those origins only), and counts down to the resend button.
(function () {
  'use strict';
  var body = document.body;
  var origins = [];
  try {
    origins = JSON.parse(body.getAttribute('data-origins') || '[]');
  } catch {
    origins = [];
  }
  var framed = window.parent !== window;

  function tell(message) {
    if (!framed) return;
    // A message to an origin that is not the parent's is dropped by the browser: only a registered parent hears it.
    origins.forEach(function (origin) {
      window.parent.postMessage(message, origin);
    });
  }

  function tellHeight() {
    tell({
      type: 'compliance-embed',
      event: 'resize',
      // The content's own height: scrollHeight is never less than the frame, so a shorter next page would not shrink it.
      height: Math.ceil(document.documentElement.getBoundingClientRect().height),
    });
  }
  tellHeight();
  if (window.ResizeObserver) new ResizeObserver(tellHeight).observe(document.documentElement);

  var message = body.getAttribute('data-message');
  if (message) {
    try {
      tell(JSON.parse(message));
    } catch {
      /* nothing to tell */
    }
  }

  var summary = document.querySelector('[data-focus]');
  if (summary) summary.focus();

  var resend = document.querySelector('[data-resend-in]');
  var wait = resend ? Number(resend.getAttribute('data-resend-in')) : 0;
  if (resend && wait > 0) {
    var label = resend.textContent;
    resend.disabled = true;
    var timer = setInterval(function () {
      wait -= 1;
      if (wait <= 0) {
        clearInterval(timer);
        resend.disabled = false;
        resend.textContent = label;
      } else {
        resend.textContent = label + ' (' + wait + ')';
      }
    }, 1000);
    resend.textContent = label + ' (' + wait + ')';
  }
})();
