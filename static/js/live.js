/* Live updates of a game page, feedback where the finger is, and keeping the
 * phone's screen awake.
 *
 * The page holds <div id="board" data-board-url data-version-url
 * data-stream-url data-version>. The stream (Server-Sent Events) says only
 * "the game is at version N"; when N is past what the board shows, the board
 * is fetched again (each phone gets what it may see): what changed since the
 * version it shows, as a tap's answer is, or the whole board when the server
 * cannot tell (too far behind, an undo since). The status line above
 * the board (rendered by the server, so nothing moves when this runs) says
 * whether this phone is live, reconnecting, polling or out of date; it never
 * says "Live" while a fetch failed. Failed fetches are retried with backoff,
 * and the browser's "online" event catches up at once: the stream reopens
 * where it was (Last-Event-ID / ?since=) and the board is fetched again.
 *
 * A tap's answer replaces the panel; a refusal (#tap-feedback) is then moved
 * next to the control that was tapped, and the message or the roll's result
 * is scrolled into view if it is not.
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
  var STREAM_RETRY_MILLISECONDS = 30000;
  var RETRY_FIRST_MILLISECONDS = 1000;
  var RETRY_MOST_MILLISECONDS = 15000;

  function text(name) {
    return script.dataset[name];
  }

  // --- the status line --------------------------------------------------------------
  var status = document.getElementById("live-status");
  var streamState = "connecting";
  var stale = false;

  function showStatus() {
    var state = navigator.onLine === false ? "offline" : stale ? "stale" : streamState;
    var labels = {
      connecting: text("msgConnecting"),
      live: text("msgLive"),
      reconnecting: text("msgReconnecting"),
      polling: text("msgPolling"),
      stale: text("msgStale"),
      offline: text("msgOffline"),
    };
    if (status.dataset.state === state) return;
    status.dataset.state = state;
    status.textContent = labels[state];
  }

  function setStream(state) {
    streamState = state;
    showStatus();
  }

  // --- which version the board shows, and fetching a newer one ----------------------
  function shownVersion() {
    var inner = document.getElementById("game-status");
    var outer = parseInt(board.dataset.version, 10) || 0;
    var own = inner ? parseInt(inner.dataset.version, 10) || 0 : 0;
    return Math.max(outer, own);
  }

  var wanted = 0;
  var fetching = false;
  var generation = 0; // a dropped refresh's late answer is ignored
  var retryDelay = RETRY_FIRST_MILLISECONDS;
  var retryTimer = null;

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

  function retryLater() {
    if (retryTimer !== null) return;
    retryTimer = window.setTimeout(function () {
      retryTimer = null;
      refresh();
    }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, RETRY_MOST_MILLISECONDS);
  }

  // A tap under way: its answer swaps parts of the board, so the board is not
  // replaced under it; the refresh comes after, if still needed.
  var taps = 0;

  function tapping(event) {
    var config = event.detail.requestConfig;
    return !!(config && config.verb && config.verb.toLowerCase() === "post");
  }

  document.body.addEventListener("htmx:beforeRequest", function (event) {
    if (!tapping(event)) return;
    taps += 1;
    if (fetching) {
      // A refresh under way would replace the board under this tap: drop it;
      // it is asked again once the tap's answer is in.
      generation += 1;
      fetching = false;
      htmx.trigger(board, "htmx:abort");
    }
  });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    if (tapping(event)) taps = Math.max(0, taps - 1);
  });

  function refresh() {
    if (fetching || taps > 0 || wanted <= shownVersion() || typing()) return;
    if (navigator.onLine === false) {
      stale = true; // the "online" event fetches it
      showStatus();
      return;
    }
    fetching = true;
    var asked = wanted;
    var mine = generation;
    // "since": the server answers with what changed only when it can (the
    // panel, the rest out of band), else with the whole board.
    var url = board.dataset.boardUrl + "?since=" + shownVersion();
    htmx.ajax("GET", url, { source: board, target: "#board", swap: "innerHTML" }).then(
      function () {
        if (mine !== generation) return;
        fetching = false;
        if (shownVersion() >= asked) {
          stale = false;
          retryDelay = RETRY_FIRST_MILLISECONDS;
          board.dataset.version = String(asked);
          showStatus();
          refresh(); // more may have come meanwhile
        } else {
          stale = true; // the fetch failed (offline, server down): say so, retry
          showStatus();
          retryLater();
        }
      },
      function () {
        if (mine !== generation) return;
        fetching = false;
        stale = true;
        showStatus();
        retryLater();
      }
    );
  }

  // A phone's own tap swaps parts of the board: remember the version it shows.
  document.body.addEventListener("htmx:afterSettle", function () {
    var shown = shownVersion();
    board.dataset.version = String(shown);
    if (shown >= wanted && stale) {
      stale = false;
      showStatus();
    }
    window.setTimeout(refresh, 0); // news that came during a tap
  });

  // --- the stream, and polling when it cannot be had --------------------------------
  var source = null;
  var errors = 0;
  var pollTimer = null;
  var streamTimer = null;

  function poll() {
    fetch(board.dataset.versionUrl, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (data) {
        if (data && typeof data.version === "number") want(data.version);
      })
      .catch(function () {
        stale = wanted > shownVersion();
        showStatus(); // offline for a moment: the next poll tries again
      });
  }

  function startPolling() {
    setStream("polling");
    if (pollTimer === null) pollTimer = window.setInterval(poll, POLL_MILLISECONDS);
    poll();
  }

  function stopPolling() {
    if (pollTimer !== null) window.clearInterval(pollTimer);
    pollTimer = null;
  }

  function openStream() {
    if (streamTimer !== null) window.clearTimeout(streamTimer);
    streamTimer = null;
    closeStream();
    if (!window.EventSource) {
      startPolling();
      return;
    }
    setStream(errors ? "reconnecting" : "connecting");
    source = new EventSource(board.dataset.streamUrl + "?since=" + shownVersion());
    source.addEventListener("open", function () {
      errors = 0;
      stopPolling();
      setStream("live");
    });
    source.addEventListener("version", function (event) {
      want(parseInt(event.data, 10) || 0);
    });
    source.addEventListener("error", function () {
      errors += 1;
      if (source.readyState === EventSource.CLOSED || errors >= ERRORS_BEFORE_POLLING) {
        closeStream();
        startPolling();
        streamTimer = window.setTimeout(openStream, STREAM_RETRY_MILLISECONDS);
      } else {
        setStream("reconnecting"); // EventSource reconnects by itself, with Last-Event-ID
      }
    });
  }

  function closeStream() {
    if (source) source.close();
    source = null;
  }

  // Back on the network: catch up now rather than at the next retry.
  window.addEventListener("online", function () {
    errors = 0;
    retryDelay = RETRY_FIRST_MILLISECONDS;
    showStatus();
    openStream();
    poll();
  });
  window.addEventListener("offline", showStatus);

  // Leaving the page: hang up first, so nothing is left half-open.
  window.addEventListener("pagehide", closeStream);
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && !source) openStream(); // back from the bfcache
  });

  openStream();

  // --- feedback where the finger is -------------------------------------------------
  var FIELDS = ["type", "fighter", "attacker", "target", "key", "card", "combat", "side"];
  var tapped = null;

  function signature(form) {
    return FIELDS.map(function (name) {
      var field = form.elements[name];
      return field && field.value !== undefined ? field.value : "";
    }).join("|");
  }

  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt && event.detail.elt.closest ? event.detail.elt.closest("form") : null;
    tapped = form && board.contains(form) ? signature(form) : null;
  });

  function offScreen(element) {
    var box = element.getBoundingClientRect();
    return box.top < 0 || box.bottom > window.innerHeight;
  }

  document.body.addEventListener("htmx:afterSettle", function () {
    var feedback = document.getElementById("tap-feedback");
    var shown = null;
    if (feedback && feedback.textContent.trim()) {
      var forms = board.querySelectorAll("form");
      for (var i = 0; i < forms.length && tapped; i += 1) {
        if (signature(forms[i]) === tapped) {
          forms[i].insertAdjacentElement("afterend", feedback);
          break;
        }
      }
      shown = feedback;
    } else {
      shown = document.querySelector("#game-panel .latest");
    }
    tapped = null;
    if (shown && offScreen(shown)) shown.scrollIntoView({ block: "nearest" });
  });

  // --- keep the screen awake during a game (Screen Wake Lock API) -------------------
  var button = document.getElementById("wake-lock");
  if (!button || !("wakeLock" in navigator)) return;
  delete button.dataset.unsupported;
  var STORAGE_KEY = "keepScreenAwake";
  var lock = null;

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
