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
    var xhr = event.detail.xhr;
    var status = xhr ? xhr.status : 0;
    if (status === 503 && xhr.responseText) {
      // The database is away: the server says so in a fragment. Nothing was
      // swapped, so the form keeps its tap key and a retry counts once.
      var fragment = new DOMParser().parseFromString(xhr.responseText, "text/html");
      var text = fragment.body ? fragment.body.textContent.replace(/\s+/g, " ").trim() : "";
      if (text) {
        showAlert(text);
        return;
      }
    }
    showAlert(message("msgServerError", "The server could not do that") + " (" + status + ").");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) hideAlert();
  });
  document.addEventListener("click", function (event) {
    if (event.target === alertBox) hideAlert();
  });
})();
