// The hosted embeds' loader (docs/embeds.md). On the operator's page:
//   <script src="https://COMPLIANCE-SERVICE/embed.js" async></script>
//   <div data-compliance-embed="THE SESSION URL"></div>
// It frames each session URL of this service, fits the frame to the page's height, and fires a `compliance-embed`
// event (detail: what the player completed) on the element.
(function () {
  'use strict';
  var script = document.currentScript;
  var service = new URL(script ? script.src : location.href).origin;

  function mount(element) {
    if (element.getAttribute('data-compliance-embed-mounted')) return;
    var url = element.getAttribute('data-compliance-embed');
    if (!url || new URL(url, location.href).origin !== service) return;
    element.setAttribute('data-compliance-embed-mounted', 'true');
    var frame = document.createElement('iframe');
    frame.src = url;
    frame.title = element.getAttribute('data-title') || 'Responsible gambling';
    frame.setAttribute(
      'sandbox',
      'allow-forms allow-scripts allow-same-origin allow-top-navigation-by-user-activation',
    );
    frame.style.width = '100%';
    frame.style.minHeight = '420px';
    frame.style.border = '0';
    element.appendChild(frame);
    window.addEventListener('message', function (event) {
      if (event.origin !== service || event.source !== frame.contentWindow) return;
      var data = event.data || {};
      if (data.type !== 'compliance-embed') return;
      if (data.event === 'resize') frame.style.height = Number(data.height) + 'px';
      else element.dispatchEvent(new CustomEvent('compliance-embed', { bubbles: true, detail: data }));
    });
  }

  function mountAll() {
    Array.prototype.forEach.call(document.querySelectorAll('[data-compliance-embed]'), mount);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mountAll);
  else mountAll();
})();
