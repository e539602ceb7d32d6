/* Live league boxes: the standings of a season, the results waiting for me.
 *
 * A wrapper <div class="league-live" data-stream-url data-fetch-url
 * data-target> holds the box (data-target, e.g. "#standings") which carries
 * data-version. The stream (Server-Sent Events) says only "version N exists";
 * when N is past what the box shows, the box is fetched again and swapped.
 * If the stream keeps failing, the box is fetched every 15 seconds instead.
 * A small status line says "Live" or "Reconnecting…" (texts from data-msg-*).
 * No inline code anywhere (strict CSP).
 */
(function () {
  "use strict";

  var POLL_MILLISECONDS = 15000;
  var ERRORS_BEFORE_POLLING = 3;

  function start(wrapper) {
    if (wrapper.dataset.liveStarted) return;
    wrapper.dataset.liveStarted = "1";
    var targetSelector = wrapper.dataset.target;
    var status = document.createElement("p");
    status.className = "live-status league-live-status";
    status.setAttribute("role", "status");
    wrapper.insertBefore(status, wrapper.firstChild);

    function say(state) {
      status.dataset.state = state;
      status.textContent =
        state === "live" ? wrapper.dataset.msgLive || "Live" : wrapper.dataset.msgOffline || "Reconnecting…";
      if (!wrapper.dataset.msgLive) status.hidden = true;
    }

    function shown() {
      var box = wrapper.querySelector(targetSelector);
      return box ? parseInt(box.dataset.version, 10) || 0 : 0;
    }

    var wanted = 0;
    var fetching = false;

    function refresh(force) {
      if (fetching || (!force && wanted <= shown())) return;
      fetching = true;
      var asked = wanted;
      htmx
        .ajax("GET", wrapper.dataset.fetchUrl, { target: targetSelector, swap: "outerHTML" })
        .then(
          function () {
            fetching = false;
            if (asked < wanted) refresh(false);
          },
          function () {
            fetching = false;
          }
        );
    }

    var errors = 0;
    var source = null;
    var pollTimer = null;

    function open() {
      if (!window.EventSource) {
        pollTimer = window.setInterval(function () { refresh(true); }, POLL_MILLISECONDS);
        return;
      }
      source = new EventSource(wrapper.dataset.streamUrl + "?since=" + shown());
      source.addEventListener("open", function () {
        errors = 0;
        say("live");
      });
      source.addEventListener("version", function (event) {
        var version = parseInt(event.data, 10) || 0;
        if (version > wanted) wanted = version;
        refresh(false);
      });
      source.addEventListener("error", function () {
        errors += 1;
        say("offline");
        if (errors >= ERRORS_BEFORE_POLLING && pollTimer === null) {
          source.close();
          source = null;
          pollTimer = window.setInterval(function () { refresh(true); }, POLL_MILLISECONDS);
        }
      });
    }

    // Leaving the page: hang up first (before the navigation aborts it).
    function hangUp() {
      if (source) source.close();
      source = null;
    }
    window.addEventListener("beforeunload", hangUp);
    window.addEventListener("pagehide", hangUp);
    open();
  }

  function scan(root) {
    var found = (root || document).querySelectorAll(".league-live[data-stream-url]");
    for (var i = 0; i < found.length; i++) start(found[i]);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { scan(document); });
  } else {
    scan(document);
  }
  document.addEventListener("htmx:load", function (event) {
    var element = event.detail && event.detail.elt;
    if (!element || !element.querySelectorAll) return;
    if (element.matches && element.matches(".league-live[data-stream-url]")) start(element);
    scan(element);
  });
})();
