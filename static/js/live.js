/* Live updates of a game page, and keeping the phone's screen awake.
 *
 * The page holds <div id="board" data-board-url data-stream-url data-version>.
 * The stream (Server-Sent Events) says only "the game is at version N"; when N
 * is past what the board shows, the board partial is fetched again (each phone
 * gets what it may see). If the stream keeps failing, or EventSource is
 * missing, the page polls the game's version instead. A small status line
 * says which: live, reconnecting, polling.
 *
 * Translated texts come from data-msg-* attributes of this script's tag.
 * No inline code anywhere (strict CSP).
 */
(function () {
  "use strict";

  var script = document.currentScript;
  var board = document.querySelector("#board[data-stream-url]");
  if (!board) return;

  var POLL_MILLISECONDS = 4000;
  var ERRORS_BEFORE_POLLING = 3;
  var STREAM_RETRY_MILLISECONDS = 60000;

  function text(name, fallback) {
    return (script && script.dataset[name]) || fallback;
  }

  // --- the status line and the wake lock button ----------------------------------
  var bar = document.createElement("div");
  bar.className = "live-bar";
  var status = document.createElement("p");
  status.className = "live-status";
  status.id = "live-status";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  bar.appendChild(status);
  board.parentNode.insertBefore(bar, board);

  function setStatus(state) {
    var labels = {
      connecting: text("msgConnecting", "Connecting…"),
      live: text("msgLive", "Live"),
      reconnecting: text("msgReconnecting", "Reconnecting…"),
      polling: text("msgPolling", "Polling every few seconds"),
    };
    if (status.dataset.state === state) return;
    status.dataset.state = state;
    status.textContent = labels[state];
  }

  // --- which version the board shows, and fetching a newer one -------------------
  function shownVersion() {
    var inner = board.querySelector("[data-version]");
    var outer = parseInt(board.dataset.version, 10) || 0;
    var own = inner ? parseInt(inner.dataset.version, 10) || 0 : 0;
    return Math.max(outer, own);
  }

  var wanted = 0;
  var fetching = false;

  function want(version) {
    if (version > wanted) wanted = version;
    refresh();
  }

  // Someone typing on the board (dice faces, a distance) keeps what they
  // typed: the refresh waits until the field is left.
  function typing() {
    var field = document.activeElement;
    return !!(field && board.contains(field) && /^(INPUT|TEXTAREA|SELECT)$/.test(field.tagName));
  }

  board.addEventListener("focusout", function () {
    window.setTimeout(refresh, 0);
  });

  function refresh() {
    if (fetching || wanted <= shownVersion() || typing()) return;
    fetching = true;
    var asked = wanted;
    htmx
      .ajax("GET", board.dataset.boardUrl, { target: "#board", swap: "innerHTML" })
      .then(
        function () {
          fetching = false;
          board.dataset.version = String(Math.max(shownVersion(), asked));
          refresh(); // more may have come meanwhile
        },
        function () {
          fetching = false;
        }
      );
  }

  // A phone's own tap swaps the board too: remember the version it shows.
  document.body.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target === board) {
      board.dataset.version = String(shownVersion());
    }
  });

  // --- the stream, and polling when it cannot be had -----------------------------
  var source = null;
  var errors = 0;
  var pollTimer = null;

  function versionUrl() {
    return board.dataset.versionUrl || board.dataset.streamUrl.replace(/stream$/, "version");
  }

  function poll() {
    fetch(versionUrl(), { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (data) {
        if (data && typeof data.version === "number") want(data.version);
      })
      .catch(function () {
        /* offline for a moment: the next poll tries again */
      });
  }

  function startPolling() {
    setStatus("polling");
    if (pollTimer === null) pollTimer = window.setInterval(poll, POLL_MILLISECONDS);
    poll();
  }

  function stopPolling() {
    if (pollTimer !== null) window.clearInterval(pollTimer);
    pollTimer = null;
  }

  function openStream() {
    if (!window.EventSource) {
      startPolling();
      return;
    }
    setStatus(errors ? "reconnecting" : "connecting");
    var url = board.dataset.streamUrl + "?since=" + shownVersion();
    source = new EventSource(url);
    source.addEventListener("open", function () {
      errors = 0;
      stopPolling();
      setStatus("live");
    });
    source.addEventListener("version", function (event) {
      want(parseInt(event.data, 10) || 0);
    });
    source.addEventListener("error", function () {
      errors += 1;
      if (source.readyState === EventSource.CLOSED || errors >= ERRORS_BEFORE_POLLING) {
        closeStream();
        startPolling();
        window.setTimeout(openStream, STREAM_RETRY_MILLISECONDS);
      } else {
        setStatus("reconnecting"); // EventSource reconnects by itself
      }
    });
  }

  function closeStream() {
    if (source) source.close();
    source = null;
  }

  // Leaving the page: hang up first, so nothing is left half-open.
  window.addEventListener("pagehide", closeStream);
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && !source) openStream(); // back from the bfcache
  });

  openStream();

  // --- keep the screen awake during a game (Screen Wake Lock API) ----------------
  if (!("wakeLock" in navigator)) return;
  var STORAGE_KEY = "keepScreenAwake";
  var lock = null;
  var button = document.createElement("button");
  button.type = "button";
  button.id = "wake-lock";
  button.className = "button-secondary wake-lock";
  button.textContent = text("msgKeepAwake", "Keep screen on");
  bar.appendChild(button);

  function wantsAwake() {
    try {
      return window.localStorage.getItem(STORAGE_KEY) !== "off";
    } catch (error) {
      return true;
    }
  }

  function showLock() {
    button.setAttribute("aria-pressed", lock ? "true" : "false");
  }

  function acquire() {
    if (lock || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(
      function (sentinel) {
        lock = sentinel;
        lock.addEventListener("release", function () {
          lock = null;
          showLock();
        });
        showLock();
      },
      function () {
        lock = null; // refused (battery saver, hidden page): say it is off
        showLock();
      }
    );
  }

  function release() {
    if (lock) lock.release().catch(function () {});
    lock = null;
    showLock();
  }

  button.addEventListener("click", function () {
    var on = button.getAttribute("aria-pressed") !== "true";
    try {
      window.localStorage.setItem(STORAGE_KEY, on ? "on" : "off");
    } catch (error) {
      /* private mode: the choice lasts for this page only */
    }
    if (on) acquire();
    else release();
  });

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && wantsAwake()) acquire();
  });

  showLock();
  if (wantsAwake()) acquire();
})();
