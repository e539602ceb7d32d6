/* The share page's "Share or copy the link" buttons: the phone's own share
 * sheet (Web Share API) where it has one, else the clipboard. No inline code
 * (strict CSP); texts from this script tag's data-msg-* attributes. */
(function () {
  "use strict";

  var script = document.currentScript;

  function say(button, text) {
    var status = button.closest(".share-link").querySelector(".share-done");
    if (status) status.textContent = text;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-share-url]") : null;
    if (!button) return;
    var url = button.dataset.shareUrl;
    if (navigator.share) {
      navigator.share({ title: button.dataset.shareTitle, url: url }).catch(function () {
        /* the player closed the share sheet: nothing to say */
      });
      return;
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(url).then(
        function () {
          say(button, script.dataset.msgCopied);
        },
        function () {
          say(button, script.dataset.msgNotCopied);
        }
      );
      return;
    }
    say(button, script.dataset.msgNotCopied);
  });
})();
