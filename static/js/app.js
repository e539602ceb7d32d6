/* Confrontation companion: the little script the pages share.
 * No inline code anywhere (strict CSP); behaviour hangs off data attributes.
 */
(function () {
  "use strict";

  var alertBox = null;

  function showAlert(text) {
    alertBox = alertBox || document.getElementById("connection-alert");
    if (!alertBox) return;
    alertBox.textContent = text;
    alertBox.hidden = false;
  }

  function hideAlert() {
    alertBox = alertBox || document.getElementById("connection-alert");
    if (alertBox) alertBox.hidden = true;
  }

  function message(name, fallback) {
    var body = document.body;
    return (body && body.dataset[name]) || fallback;
  }

  // htmx does not swap error responses: say so instead of failing silently.
  document.addEventListener("htmx:sendError", function () {
    showAlert(message("msgOffline", "No connection: your tap was not sent. Try again."));
  });
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    showAlert(message("msgServerError", "The server could not do that") + " (" + status + ").");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) hideAlert();
  });
  document.addEventListener("click", function (event) {
    if (event.target === alertBox) hideAlert();
  });
})();
