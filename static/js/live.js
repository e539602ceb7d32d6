/* Live updates of a game page, feedback where the finger is, and keeping the
 * phone's screen awake.
 *
 * The page holds <div id="board" data-board-url data-version-url
 * data-stream-url data-version>. The stream (Server-Sent Events) pushes what
 * changed: an "event: board" message holds the version it applies to and
 * the HTML this phone would have fetched (the panel, then the rest out of
 * band), swapped in with no request of its own. When a push does not fit
 * (this phone shows another version, someone is typing, a tap is under way)
 * or the stream says only "event: version" (an undo, too far behind, a
 * draft kept on this phone), the board is fetched: what changed since the
 * version it shows, or the whole board when the server cannot tell.
 *
 * The status line above the board (rendered by the server, so nothing moves
 * when this runs) says whether this phone is live, reconnecting, polling,
 * out of date, offline or cannot reach the server; it never says "Live"
 * while a fetch or a tap failed, and while it says something is wrong it
 * stays in view (sticky). Failed fetches are retried with backoff, and the
 * browser's "online" event catches up at once: the stream reopens where it
 * was (Last-Event-ID / ?since=) and the board is fetched again.
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
  var bar = status.closest(".live-bar") || status;
  var streamState = "connecting";
  var stale = false;
  var unreachable = false; // a poll, a fetch or a tap found no server
  var ALERTS = { offline: true, unreachable: true, stale: true, reconnecting: true };

  function showStatus() {
    var state =
      navigator.onLine === false
        ? "offline"
        : unreachable
          ? "unreachable"
          : stale
            ? "stale"
            : streamState;
    var labels = {
      connecting: text("msgConnecting"),
      live: text("msgLive"),
      reconnecting: text("msgReconnecting"),
      polling: text("msgPolling"),
      stale: text("msgStale"),
      offline: text("msgOffline"),
      unreachable: text("msgUnreachable"),
    };
    if (status.dataset.state === state) return;
    status.dataset.state = state;
    status.textContent = labels[state];
    // Something is wrong: the line stays in view however far the page scrolled.
    if (ALERTS[state]) bar.setAttribute("data-alert", "");
    else bar.removeAttribute("data-alert");
  }

  function reached(ok) {
    if (unreachable === !ok) return;
    unreachable = !ok;
    showStatus();
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
  var fetching = null; // the refresh under way (its AbortController)
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
      // A refresh under way would replace the board under this tap: drop it
      // (quietly: an aborted fetch is no error); it is asked again once the
      // tap's answer is in.
      var dropped = fetching;
      fetching = null;
      dropped.abort();
    }
  });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    if (!tapping(event)) return;
    taps = Math.max(0, taps - 1);
    var xhr = event.detail.xhr;
    reached(!!(xhr && xhr.status)); // status 0: the tap reached no server
  });

  // Swap an answer in: the panel (and the rest out of band) or the board.
  function swapIn(html, target, style) {
    if (target === "#game-panel" && style === "outerHTML" && answerSwap(html)) return;
    htmx.swap(target, html, { swapStyle: style, swapDelay: 0, settleDelay: 0 });
  }

  // --- a tool at the table kept open across news ------------------------------------
  // The tools (a test, a scatter, a lasting effect) are offered to a side at
  // any time, the other side's turn included; the news of the other phone's
  // taps replaces the panel, whose tools come closed. A tool open on this
  // phone stays open: what it shows is kept (what was chosen or typed in it
  // too) while its form is fetched again for the game as it is now (a form
  // posts the version it was built for: the server refuses an older one),
  // and what was chosen or typed is put back where the new form still
  // offers it. Nothing is asked while no tool is open.
  function swapNews(html, target, style) {
    var panel = document.getElementById("game-panel");
    var open = panel ? Array.prototype.slice.call(panel.querySelectorAll("details.table-tool[open]")) : [];
    swapIn(html, target, style);
    open.forEach(keepOpen);
  }

  function keepOpen(old) {
    var tool = document.getElementById(old.id);
    var body = tool && tool.querySelector(".tool-body");
    var url = tool && tool.getAttribute("hx-get");
    if (!body || tool === old || tool.open || !url) return; // gone, kept, or sent open
    // Its body is fetched here, not by htmx when it is opened (the toggle).
    tool.removeAttribute("hx-get");
    tool.removeAttribute("hx-trigger");
    tool.removeAttribute("hx-target");
    var kept = old.querySelector(".tool-body");
    if (kept) body.replaceWith(kept);
    tool.setAttribute("data-kept-open", "");
    tool.open = true;
    fetch(url, fragmentRequest())
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      })
      .then(function (html) {
        var shown = tool.querySelector(".tool-body");
        if (!shown || !document.body.contains(tool)) return; // replaced meanwhile
        var typed = shown.querySelector("form");
        var values = typed ? filledIn(typed) : [];
        var fresh = document.createElement("div");
        fresh.className = "tool-body";
        fresh.innerHTML = html;
        var form = fresh.querySelector("form");
        if (form) putBack(form, values);
        var active = document.activeElement;
        var activeName = active && shown.contains(active) ? active.name : "";
        shown.replaceWith(fresh);
        htmx.process(fresh);
        var again = activeName && form && form.elements.namedItem(activeName);
        if (again && again.focus) again.focus({ preventScroll: true });
      })
      .catch(function () {
        // Its form, as it was, stays: a tap on it is refused as stale and
        // answered with the tool open on the game as it is now.
      });
  }

  // A whole board swapped by htmx has its tools processed already: the
  // toggle of one kept open is not theirs to answer with a fetch.
  document.addEventListener(
    "toggle",
    function (event) {
      var tool = event.target;
      if (!tool.hasAttribute || !tool.hasAttribute("data-kept-open")) return;
      tool.removeAttribute("data-kept-open");
      event.stopPropagation();
    },
    true
  );

  // A board fragment asked for outside htmx: fresh, and answered as to htmx.
  function fragmentRequest(signal) {
    var options = { credentials: "same-origin", cache: "no-store", headers: { "HX-Request": "true" } };
    if (signal) options.signal = signal;
    return options;
  }

  // A field the player fills in (not a hidden one, not a button).
  function ownField(field) {
    return field.name && !/^(hidden|submit|button|reset|file)$/.test(field.type);
  }

  // What was chosen or typed in a form's own fields.
  function filledIn(form) {
    var values = [];
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!ownField(field)) return;
      values.push({ name: field.name, value: field.value, checked: field.checked, checkable: /^(checkbox|radio)$/.test(field.type) });
    });
    return values;
  }

  function putBack(form, values) {
    var seen = {};
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!ownField(field)) return;
      var same = values.filter(function (saved) {
        return saved.name === field.name;
      });
      if (!same.length) return;
      if (/^(checkbox|radio)$/.test(field.type)) {
        var chosen = same.some(function (saved) {
          return saved.value === field.value && saved.checked;
        });
        // A radio chosen unchecks the others; one left alone keeps the
        // new form's choice when the one made is no longer offered.
        if (field.type === "checkbox" || chosen) field.checked = chosen;
        return;
      }
      // The n-th field of a name takes the n-th value; a choice no longer
      // offered (a fighter gone) is not forced on the new form.
      var index = seen[field.name] || 0;
      seen[field.name] = index + 1;
      var saved = same.filter(function (entry) {
        return !entry.checkable;
      })[index];
      if (!saved) return;
      if (field.tagName === "SELECT") {
        var offered = Array.prototype.some.call(field.options, function (option) {
          return option.value === saved.value;
        });
        if (offered) field.value = saved.value;
        return;
      }
      field.value = saved.value;
    });
  }

  // --- a tap's answer swapped in plain DOM ------------------------------------------
  // An answer is the panel, then parts out of band: each replacing the
  // element of its id ("true"), or its content ("innerHTML"), and the new log
  // lines put first in the log ("afterbegin:#log-lines"). htmx's own swap
  // fires two events for every element it takes out, clones every part, and
  // processes the new elements: on a phone throttled 4x, most of a tap's
  // work (tests/bench/bench_tap.py --trace). Here the parts are put in
  // place as they are; htmx processes them once the frame is painted (as its
  // settle delay would), then the page does what it does after a swap. An
  // answer of another shape is left to htmx (false).
  function answerSwap(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    var parts = template.content.children;
    var panel = parts[0];
    var old = document.getElementById("game-panel");
    if (!old || !panel || panel.id !== "game-panel" || panel.hasAttribute("hx-swap-oob")) return false;
    if (template.content.querySelector("script")) return false;
    var moves = [];
    for (var i = 1; i < parts.length; i += 1) {
      var part = parts[i];
      var how = part.getAttribute("hx-swap-oob");
      var target = null;
      if (how === "true" || how === "outerHTML") {
        how = "outerHTML";
        target = part.id && document.getElementById(part.id);
      } else if (how === "innerHTML") {
        target = part.id && document.getElementById(part.id);
      } else if (how && how.indexOf("afterbegin:") === 0) {
        target = document.querySelector(how.slice(11));
        how = "afterbegin";
      } else {
        return false; // not a part of an answer: htmx's swap
      }
      if (target) moves.push([how, target, part]);
    }
    var active = document.activeElement;
    var activeId = active && active !== document.body ? active.id : "";
    var added = [panel];
    moves.forEach(function (move) {
      var how = move[0];
      var target = move[1];
      var part = move[2];
      part.removeAttribute("hx-swap-oob");
      if (how === "outerHTML") {
        target.replaceWith(part);
        added.push(part);
        return;
      }
      var children = Array.prototype.slice.call(part.children);
      if (how === "innerHTML") target.replaceChildren.apply(target, part.childNodes);
      else target.prepend.apply(target, part.childNodes);
      added.push.apply(added, children);
      if (target.id === "log-lines") trimLog(target);
    });
    old.replaceWith(panel);
    if (activeId && !document.body.contains(active)) {
      var again = document.getElementById(activeId);
      if (again && again.focus) again.focus({ preventScroll: true });
    }
    added.forEach(function (element) {
      if (element.matches(HTMX_WORK) || element.querySelector(HTMX_WORK)) unprocessed.push(element);
    });
    afterPaint(function () {
      processNew();
      panel.dispatchEvent(new CustomEvent("htmx:afterSettle", { bubbles: true, detail: { elt: panel } }));
    });
    return true;
  }

  // What htmx's processing gives a part (a form it posts, a button it
  // tracks, an element it fetches into): the parts of an answer with none
  // (the status line, fighters, log lines) are not processed at all.
  var HTMX_WORK =
    "form, [type=submit], [hx-get], [hx-post], [hx-put], [hx-patch], [hx-delete], [hx-trigger], [hx-boost], [hx-ext]";
  var unprocessed = [];

  function processNew() {
    var parts = unprocessed;
    unprocessed = [];
    parts.forEach(function (element) {
      if (document.body.contains(element)) htmx.process(element);
    });
  }

  // A tap before the new parts were processed (a quick second tap where the
  // first landed, as the frame is painted) has them processed first: a form
  // htmx posts (one whose answer does not take the panel's place: an undo, a
  // request's answer) is then htmx's, with the page's CSRF header, never a
  // plain post without a token. The panel's taps are this file's (below).
  ["pointerdown", "click", "submit", "keydown"].forEach(function (type) {
    document.addEventListener(
      type,
      function () {
        if (unprocessed.length) processNew();
      },
      true
    );
  });

  // The board shows the log's last lines (app.css hides the others, the log
  // page has them all): the hidden ones are dropped rather than kept, so the
  // page does not grow with the game (nor the style of its every line
  // recomputed when one is put first).
  var LOG_ON_BOARD = 6;

  function trimLog(list) {
    while (list.children.length > LOG_ON_BOARD) list.lastElementChild.remove();
  }

  // Once the frame is painted, after what else waited for that frame (a
  // task queued from a frame callback runs after the paint; this one queues
  // its own from such a task, so it comes after theirs). A hidden page paints
  // no frame: at once. A frame late on a busy phone is waited for (up to a
  // second): a tap meanwhile processes the new parts itself (above).
  function afterPaint(callback) {
    var done = false;
    function once() {
      if (done) return;
      done = true;
      callback();
    }
    window.requestAnimationFrame(function () {
      window.setTimeout(function () {
        window.setTimeout(once, 0);
      }, 0);
    });
    window.setTimeout(once, document.hidden ? 0 : 1000);
  }

  // The forms outside the panel (the dice, a fighter's flight, the game's
  // end) are not sent again with every answer (only when they change): the
  // version they post is the one the board shows when tapped (the one they
  // would carry had they been sent again). The panel's forms carry theirs.
  function postsShownVersion(elt) {
    return !!(elt && elt.closest && board.contains(elt) && !elt.closest("#game-panel") && shownVersion());
  }

  document.body.addEventListener("htmx:configRequest", function (event) {
    var parameters = event.detail.parameters;
    if (parameters.version === undefined || !postsShownVersion(event.detail.elt)) return;
    parameters.version = String(shownVersion());
  });

  // --- a tap whose answer takes the panel's place, posted here ----------------------
  // Such a form (game_tags.act_attrs: hx-post, hx-target="#game-panel",
  // hx-swap="outerHTML") is posted by this script, not by htmx: htmx's
  // request path (its trigger, values, validation and queue machinery, then
  // its load handler) was a fifth of a tap's work on a phone throttled 4x
  // (tests/bench/bench_tap.py --trace). The request is the one htmx sends
  // (the form's fields and the tapped button, the page's CSRF header from
  // the body's hx-headers, htmx's request headers); htmx's lifecycle events
  // (beforeRequest, afterRequest, sendError, responseError) are announced
  // with the fields their listeners read (this file's, app.js's alerts), so
  // the page treats both kinds of tap alike; the answer is handled as
  // base.html's responseHandling says (2xx and 422 swapped, 204 and errors
  // not) with the HX-Retarget, HX-Reswap and HX-Redirect headers. The
  // browser has already checked the fields (no submit event otherwise).
  var PANEL_TAP = 'form[hx-post][hx-target="#game-panel"][hx-swap="outerHTML"]';

  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      if (!form.matches || !form.matches(PANEL_TAP) || !board.contains(form)) return;
      // Before htmx's own listener on the form, which is then not reached.
      event.preventDefault();
      event.stopPropagation();
      if (form.classList.contains("htmx-request")) return; // its tap is under way
      postTap(form, event.submitter, event);
    },
    true
  );

  // On the form, or on the body once the answer took the form away (an event
  // on a detached element reaches no listener of the page).
  function announce(form, name, detail) {
    var on = document.body.contains(form) ? form : document.body;
    return on.dispatchEvent(new CustomEvent(name, { bubbles: true, cancelable: true, detail: detail }));
  }

  function postTap(form, submitter, cause) {
    var url = form.getAttribute("hx-post");
    var fields = new FormData(form);
    if (submitter && submitter.name) fields.append(submitter.name, submitter.value);
    if (fields.has("version") && postsShownVersion(form)) fields.set("version", String(shownVersion()));
    var xhr = new XMLHttpRequest();
    var detail = {
      elt: form,
      target: document.getElementById("game-panel"),
      requestConfig: { verb: "post", path: url, elt: form, triggeringEvent: cause },
      xhr: xhr,
      successful: false,
      failed: false,
    };
    if (!announce(form, "htmx:beforeRequest", detail)) return;
    var buttons = Array.prototype.slice.call(form.querySelectorAll("button"));
    buttons.forEach(function (button) {
      button.disabled = true;
    });
    form.classList.add("htmx-request");

    function done() {
      buttons.forEach(function (button) {
        button.disabled = false;
      });
      form.classList.remove("htmx-request");
    }

    xhr.open("POST", url);
    var headers = {};
    try {
      headers = JSON.parse(document.body.getAttribute("hx-headers") || "{}");
    } catch (error) {
      headers = {};
    }
    headers["HX-Request"] = "true";
    headers["HX-Current-URL"] = window.location.href;
    headers["HX-Target"] = "game-panel";
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    Object.keys(headers).forEach(function (name) {
      xhr.setRequestHeader(name, headers[name]);
    });
    xhr.onload = function () {
      done();
      var redirect = xhr.getResponseHeader("HX-Redirect");
      if (redirect) {
        window.location.href = redirect;
        return;
      }
      var status = xhr.status;
      detail.failed = status >= 400 && status !== 422;
      detail.successful = !detail.failed;
      if ((status >= 200 && status < 400 && status !== 204) || status === 422) {
        swapIn(
          xhr.responseText,
          xhr.getResponseHeader("HX-Retarget") || "#game-panel",
          xhr.getResponseHeader("HX-Reswap") || "outerHTML"
        );
      } else if (detail.failed) {
        announce(form, "htmx:responseError", detail);
      }
      announce(form, "htmx:afterRequest", detail);
    };
    // No answer reached this phone (offline, the server away).
    xhr.onerror = xhr.ontimeout = function () {
      done();
      detail.failed = true;
      announce(form, "htmx:sendError", detail);
      announce(form, "htmx:afterRequest", detail);
    };
    xhr.send(new URLSearchParams(fields).toString());
  }

  // A tap's answer aimed at the panel (its form's hx-swap, or the server's
  // HX-Reswap): swapped above rather than by htmx.
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.shouldSwap || !detail.target || detail.target.id !== "game-panel") return;
    var elt = detail.requestConfig && detail.requestConfig.elt;
    var holder = elt && elt.closest ? elt.closest("[hx-swap]") : null;
    var how = detail.swapOverride || (holder ? holder.getAttribute("hx-swap") : "innerHTML");
    if ((how || "").split(" ")[0] !== "outerHTML") return;
    if (answerSwap(detail.serverResponse)) detail.shouldSwap = false;
  });

  function caughtUp(version) {
    board.dataset.version = String(version);
    stale = false;
    retryDelay = RETRY_FIRST_MILLISECONDS;
    reached(true);
    showStatus();
  }

  function failed() {
    fetching = null;
    stale = true; // say so, and retry
    if (navigator.onLine !== false) unreachable = true;
    showStatus();
    retryLater();
  }

  function refresh() {
    if (fetching || taps > 0 || wanted <= shownVersion() || typing()) return;
    if (navigator.onLine === false) {
      stale = true; // the "online" event fetches it
      showStatus();
      return;
    }
    var controller = new AbortController();
    fetching = controller;
    var asked = wanted;
    // "since": the server answers with what changed only when it can (the
    // panel, the rest out of band), else with the whole board.
    var url = board.dataset.boardUrl + "?since=" + shownVersion();
    fetch(url, fragmentRequest(controller.signal))
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text().then(function (html) {
          if (fetching !== controller) return; // dropped meanwhile
          fetching = null;
          swapNews(
            html,
            response.headers.get("HX-Retarget") || "#board",
            response.headers.get("HX-Reswap") || "innerHTML"
          );
          if (shownVersion() >= asked) {
            caughtUp(asked);
            refresh(); // more may have come meanwhile
          } else {
            failed();
          }
        });
      })
      .catch(function () {
        if (fetching !== controller) return; // dropped on purpose
        failed();
      });
  }

  // A sequence being built with cards moved on this phone (its draft, kept in
  // its session): a push, rendered for every phone of the side, shows the
  // order they all start from, so the board is fetched instead.
  function ownDraft() {
    return !!document.querySelector("#game-panel [data-own-draft]");
  }

  // What changed, pushed by the stream: swapped in when this phone shows the
  // version it applies to and nothing is under way; else the board is fetched.
  function pushed(event) {
    var version = parseInt(event.lastEventId, 10) || 0;
    var cut = event.data.indexOf("\n");
    var base = parseInt(event.data.slice(0, cut), 10);
    if (version <= shownVersion()) return; // this phone's own tap, already in
    if (fetching || taps > 0 || typing() || ownDraft() || base !== shownVersion() || !document.getElementById("game-panel")) {
      want(version);
      return;
    }
    if (version > wanted) wanted = version;
    swapNews(event.data.slice(cut + 1), "#game-panel", "outerHTML");
    if (shownVersion() >= version) caughtUp(version);
    else want(version);
  }

  // After a swap (htmx says "settled" once per element it swapped: the panel
  // and each out-of-band part), once: remember the version the board shows,
  // place a tap's feedback, and fetch news that came during a tap.
  var afterSwapDue = false;
  document.body.addEventListener("htmx:afterSettle", function () {
    if (afterSwapDue) return;
    afterSwapDue = true;
    window.setTimeout(afterSwap, 0);
  });

  function afterSwap() {
    afterSwapDue = false;
    dropStaleFeedback();
    var shown = shownVersion();
    if (board.dataset.version !== String(shown)) board.dataset.version = String(shown);
    if (shown >= wanted && stale) {
      stale = false;
      showStatus();
    }
    placeFeedback();
    refresh();
  }

  // The game's result was proposed or confirmed on the other phone: its part
  // of the page is fetched now rather than at its next poll.
  function outcomeChanged() {
    var part = document.getElementById("game-outcome-status");
    var url = part && part.getAttribute("hx-get");
    if (!url) return;
    htmx.ajax("GET", url, { source: part, target: "#game-outcome-status", swap: "outerHTML" });
  }

  // Once both phones agree the result, the summary's headline says it at once
  // (issue 31): the result box carries the line in a <template>. A swap into a
  // part the page already replaced settles nothing here, so no race matters.
  document.addEventListener("htmx:afterSettle", function () {
    var agreed = document.querySelector("#game-outcome-status template.result-line");
    var line = document.getElementById("game-result-line");
    if (agreed && line) line.replaceWith(agreed.content.cloneNode(true));
  });

  // --- the stream, and polling when it cannot be had --------------------------------
  var source = null;
  var errors = 0;
  var pollTimer = null;
  var streamTimer = null;

  function poll() {
    fetch(board.dataset.versionUrl, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (data) {
        reached(true);
        if (data && typeof data.version === "number") want(data.version);
      })
      .catch(function () {
        // No answer: "server unreachable" (or offline); the next poll tries again.
        stale = wanted > shownVersion();
        if (navigator.onLine !== false) unreachable = true;
        showStatus();
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
      unreachable = false;
      setStream("live");
    });
    source.addEventListener("version", function (event) {
      want(parseInt(event.data, 10) || 0);
    });
    source.addEventListener("board", pushed);
    source.addEventListener("outcome", outcomeChanged);
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

  // Only after this phone's own taps (not a push, a refresh or a poll: the
  // idle phone is never scrolled, and no layout is forced for it).
  var USER_EVENTS = { submit: true, click: true, change: true, input: true, keyup: true };
  var ownTap = false;

  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    var config = event.detail.requestConfig || {};
    var cause = config.triggeringEvent;
    ownTap = !!(elt && board.contains(elt) && cause && USER_EVENTS[cause.type]);
    var form = elt && elt.closest ? elt.closest("form") : null;
    tapped = form && board.contains(form) ? signature(form) : null;
  });

  // A refusal's message moved next to a control outside the panel (a
  // fighter's routed mark) was that answer's: once another is in, with its
  // own line in the panel, it goes (else it would stay, stale, by a form).
  function dropStaleFeedback() {
    var panel = document.getElementById("game-panel");
    if (!panel) return;
    Array.prototype.forEach.call(document.querySelectorAll("[id=tap-feedback]"), function (element) {
      if (!panel.contains(element)) element.remove();
    });
  }

  function offScreen(element) {
    var box = element.getBoundingClientRect();
    return box.top < 0 || box.bottom > window.innerHeight;
  }

  function placeFeedback() {
    if (!ownTap) return;
    ownTap = false;
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
  }

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
