// Hands kept on this phone while Scorepad cannot be reached (the Wi-Fi dropped, the Pi rebooted, the laptop
// sleeps). A save that gets no answer is kept in localStorage and sent again by itself, in order, exactly once
// (each carries its form's one-time token, so a resend of a hand that did arrive stores nothing new): when the
// network comes back, on a timer, and whenever a Scorepad page is opened. Meanwhile the game page says so in
// words and shows the kept hands on the sheet as waiting, and the form moves on to the next hand, so the family
// can keep playing. A kept hand the server refuses for a reason of its own (a wrong number, another phone's
// hand, the passcode) is never dropped and never resent blindly: it waits, with the server's words, for the
// player. No service worker: one cannot run on a plain-HTTP address on the home network.
(function () {
  "use strict";

  var KEY = "scorepad.outbox";
  var RETRY_MS = [3000, 5000, 10000, 20000, 30000]; // waits between tries while Scorepad does not answer
  var sending = false, failures = 0, timer = null;

  // --- the kept hands ---------------------------------------------------------------------------------------
  // Each: {id, game, url, body: [[name, value]...], token, hand, summary, at, held: null | {kind, words}}

  function load() {
    try {
      var list = JSON.parse(localStorage.getItem(KEY) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (e) {
      return [];
    }
  }

  function store(list) {
    try {
      if (list.length) localStorage.setItem(KEY, JSON.stringify(list));
      else localStorage.removeItem(KEY);
    } catch (e) { /* storage full or off: the banner of app.js still says the hand was not saved */ }
    document.dispatchEvent(new CustomEvent("scorepad:outbox"));
  }

  function ofGame(game) {
    return load().filter(function (entry) { return entry.game === String(game); });
  }

  function update(id, change) {
    store(load().map(function (entry) { return entry.id === id ? change(entry) : entry; }).filter(Boolean));
  }

  function remove(test) {
    store(load().filter(function (entry) { return !test(entry); }));
  }

  // Later kept hands of the game move by `by` places (a hand before them went another way).
  function shiftAfter(game, hand, by) {
    store(load().map(function (entry) {
      if (entry.game !== String(game) || entry.hand <= hand) return entry;
      entry.hand += by;
      entry.body = entry.body.map(function (pair) {
        return pair[0] === "expected" ? ["expected", String(entry.hand)] : pair;
      });
      return entry;
    }));
  }

  function newToken() {
    var bytes = new Uint8Array(16);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  // --- keeping a save that got no answer ----------------------------------------------------------------------

  function recordForm() {
    var form = document.getElementById("hand-form");
    return form && form.closest("#record") ? form : null;
  }

  function fieldsOf(form) {
    var pairs = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.disabled || el.type === "submit" || el.type === "button") return;
      if (/^(radio|checkbox)$/.test(el.type) && !el.checked) return;
      pairs.push([el.name, el.value]);
    });
    return pairs;
  }

  function value(pairs, name) {
    for (var i = 0; i < pairs.length; i++) if (pairs[i][0] === name) return pairs[i][1];
    return "";
  }

  // The kept hand in a line, as the player typed it: "Mom 60 ♥ · meld 20·12 · counters 30·20".
  function summary(form) {
    var parts = [], bidder = form.querySelector("input[name=bidder]:checked");
    var kind = form.querySelector("input[name=kind]:checked");
    if (kind && kind.value !== "played") parts.push(kind.closest("label").textContent.trim());
    if (bidder) {
      var who = bidder.closest("label").querySelector(".bidder-name") || bidder.closest("label");
      var bid = form.elements.bid && (form.elements.bid.value || form.elements.bid.placeholder);
      var trump = form.querySelector("input[name=trump]:checked");
      parts.push(who.textContent.trim() + " " + bid + (trump ? " " + trump.closest("label").textContent.trim() : ""));
    }
    var meld = [], counters = [];
    for (var t = 0; form.elements["meld_" + t]; t++) {
      meld.push(form.elements["meld_" + t].value || "0");
      counters.push(form.elements["counters_" + t] ? form.elements["counters_" + t].value || "–" : "–");
    }
    parts.push("meld " + meld.join("·"));
    if (!kind || kind.value === "played") parts.push("counters " + counters.join("·"));
    return parts.join(" · ");
  }

  function keep(form) {
    var pairs = fieldsOf(form);
    var entry = {
      id: newToken(), game: form.dataset.game, url: form.action, body: pairs, token: value(pairs, "token"),
      hand: Number(value(pairs, "expected")), summary: summary(form), at: Date.now(), held: null
    };
    var list = load().filter(function (kept) { // a second failed tap; a fix of a refused hand takes its place
      return kept.token !== entry.token &&
        !(kept.game === entry.game && kept.hand === entry.hand && kept.held && /^(refused|behind)$/.test(kept.held.kind));
    });
    // in its place among its game's kept hands (a fixed hand goes before the ones played after it): the list's
    // order is the order they are sent in
    var at = list.findIndex(function (kept) { return kept.game === entry.game && kept.hand > entry.hand; });
    list.splice(at < 0 ? list.length : at, 0, entry);
    store(list);
    document.dispatchEvent(new CustomEvent("scorepad:kept", { detail: entry }));
    return entry;
  }

  // Whether a failed request is the record form's own save (not its Check, Count cards or the preview).
  function isSave(detail) {
    var form = detail.requestConfig && detail.requestConfig.elt;
    if (!form || form !== recordForm() || !detail.pathInfo) return false;
    return new URL(detail.pathInfo.requestPath, location.href).pathname === new URL(form.action).pathname;
  }

  // Captured before app.js's banner: a save with no answer is kept, and the banner is not needed.
  function noAnswer(event) {
    var detail = event.detail || {};
    if (!isSave(detail) || !window.localStorage) return;
    var form = recordForm();
    var entry = keep(form);
    detail.keptOnPhone = true;
    nextHand(form, lastKept(entry.game) + 1);
    schedule();
  }

  // While hands of this game wait on the phone, a new save waits behind them: hands go in the order played. A
  // kept hand the server refused, brought back into the form to be fixed, goes at once: it is the first of its
  // game, and the hands kept after it wait for it (it stays held until it lands).
  function behindKept(event) {
    var detail = event.detail || {};
    if (!isSave(detail) || !window.localStorage) return;
    var form = recordForm();
    if (fixing(form)) return;
    if (!ofGame(form.dataset.game).some(function (entry) { return !entry.held || retried(entry.held); })) {
      return;
    }
    event.preventDefault();
    var entry = keep(form);
    nextHand(form, lastKept(entry.game) + 1);
    schedule(0);
  }

  // The kept hand the server refused that this form is fixing: the one it was brought back with (its token), or,
  // once the meld count has taken the token away, the refused one of its number.
  function fixing(form) {
    if (!form || !form.elements.expected) return null;
    var token = form.elements.token && form.elements.token.value, number = Number(form.elements.expected.value);
    return ofGame(form.dataset.game).filter(function (entry) {
      return entry.held && /^(refused|behind)$/.test(entry.held.kind) &&
        (entry.token === token || entry.hand === number);
    })[0] || null;
  }

  function lastKept(game) {
    return ofGame(game).reduce(function (last, entry) { return Math.max(last, entry.hand); }, 0);
  }

  document.addEventListener("htmx:beforeRequest", behindKept, true);
  document.addEventListener("htmx:sendError", noAnswer, true);
  document.addEventListener("htmx:timeout", noAnswer, true);

  // --- the form moves on to the next hand by itself --------------------------------------------------------

  function ahead(form, number) {
    var list = [];
    try { list = JSON.parse(form.dataset.ahead || "[]"); } catch (e) { /* an old page: no headings ahead */ }
    for (var i = 0; i < list.length; i++) if (list[i].n === number) return list[i];
    return null;
  }

  function setNumber(form, number) {
    form.elements.expected.value = String(number);
    Array.prototype.forEach.call(form.querySelectorAll(".save-button, .default-save"), function (button) {
      button.textContent = "Record hand " + number;
    });
    var heading = form.querySelector("#record-heading"), facts = ahead(form, number);
    if (heading) {
      heading.textContent = "";
      var strong = document.createElement("strong");
      strong.textContent = "Hand " + number;
      heading.appendChild(strong);
      if (facts) {
        var deals = document.createElement("span");
        deals.className = "muted";
        deals.textContent = " · " + facts.dealer + " deals";
        heading.appendChild(deals);
      }
    }
    var marker = form.querySelector(".bids-first");
    var first = facts && facts.first && form.querySelector("input[name=bidder][value='" + facts.first + "']");
    if (marker && first) first.closest("label").querySelector("span").appendChild(marker);
  }

  function clearFields(form) {
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit" || el.type === "button") return;
      if (/^(radio|checkbox)$/.test(el.type)) el.checked = el.name === "kind" && el.value === "played";
      else el.value = "";
      if (el.dataset && "auto" in el.dataset) el.dataset.auto = "1";
    });
    Array.prototype.forEach.call(form.querySelectorAll(".chip[aria-pressed]"), function (chip) {
      chip.setAttribute("aria-pressed", "false");
    });
  }

  function nextHand(form, number) {
    clearFields(form);
    // what was said about the hand before (it is kept now) is not said about this one
    Array.prototype.forEach.call(form.querySelectorAll("#error-summary, .field-error"), function (el) { el.remove(); });
    Array.prototype.forEach.call(form.querySelectorAll("[aria-invalid]"), function (el) {
      el.removeAttribute("aria-invalid");
    });
    var said = document.getElementById("form-message");
    if (said) said.remove();
    form.elements.token.value = newToken();
    setNumber(form, number);
    delete form.dataset.typed;
    form.setAttribute("data-fresh", "");
    var preview = document.getElementById("preview"), line = document.getElementById("preview-line");
    if (preview) preview.innerHTML = '<p class="muted">The result shows here as you type.</p>';
    if (line) line.textContent = "";
    var rare = form.querySelector("#rare");
    if (rare) rare.open = false;
    var bidder = form.querySelector("input[name=bidder]");
    if (bidder) bidder.focus({ preventScroll: true });
  }

  // A page (or a fresh form the poll brought) numbers its form after the hands this phone still keeps.
  function numberPastKept(form) {
    if (!form || !form.dataset.game) return;
    var kept = ofGame(form.dataset.game), last = 0;
    kept.forEach(function (entry) { last = Math.max(last, entry.hand); });
    if (kept.length && Number(form.elements.expected.value) <= last) setNumber(form, last + 1);
  }

  // --- sending again ----------------------------------------------------------------------------------------

  function schedule(ms) {
    clearTimeout(timer);
    if (!load().some(function (entry) { return !entry.held || retried(entry.held); })) return;
    var wait = ms !== undefined ? ms : RETRY_MS[Math.min(failures, RETRY_MS.length - 1)];
    timer = setTimeout(drain, wait);
  }

  // The first kept hand that can go: in order, and never past a held hand of its own game.
  function nextToSend() {
    var blocked = {}, list = load();
    for (var i = 0; i < list.length; i++) {
      var entry = list[i];
      if (blocked[entry.game]) continue;
      if (entry.held && !retried(entry.held)) { blocked[entry.game] = true; continue; }
      return entry;
    }
    return null;
  }

  function drain() {
    if (sending || !window.fetch) return;
    var entry = nextToSend();
    if (!entry) return;
    sending = true;
    // the page's own CSRF token: the one kept with the hand may be older than this phone's session
    var csrf = document.querySelector("meta[name=csrf-token]");
    var body = entry.body.map(function (pair) {
      return pair[0] === "csrf_token" && csrf ? ["csrf_token", csrf.content] : pair;
    });
    fetch(entry.url, {
      method: "POST", body: new URLSearchParams(body), credentials: "same-origin", redirect: "manual"
    }).then(function (response) {
      if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
        return saved(entry);
      }
      if (response.status >= 500 || response.status === 429 || response.status === 0) return notYet();
      return response.text().then(function (html) { refused(entry, response.status, html); });
    }, notYet).then(function () {
      sending = false;
    }, function () {
      sending = false;
    });
  }

  function saved(entry) {
    failures = 0;
    remove(function (kept) { return kept.id === entry.id; });
    document.dispatchEvent(new CustomEvent("scorepad:sent", { detail: entry }));
    refreshSheet();
    schedule(0);
  }

  function notYet() {
    failures += 1;
    schedule();
  }

  // What the server said, in its own words, for a kept hand it would not take as it is.
  function refused(entry, status, html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var held;
    if (page.querySelector("[data-clash]")) {
      held = clashHeld(entry);
    } else if (page.querySelector("#repeat-question")) {
      // the question's yes is its button's field: repeat=1, or meld_ok=1 for a meld no hand melds
      var yes = page.querySelector("#repeat-question button[name]");
      held = { kind: "repeat", words: page.querySelector("#repeat-question strong").textContent.trim(),
               answer: yes ? yes.name : "repeat" };
    } else if (status === 401 || page.querySelector("input[name=passcode]")) {
      held = { kind: "passcode", words: "Type the table's passcode to save it." };
    } else if (page.querySelector("#form-message[data-behind]")) {
      // the sheet has fewer hands than it had (a hand deleted or taken back on another phone): most often it is
      // recorded again within a minute, and this hand then fits its number. Tried again by itself meanwhile.
      held = { kind: "behind", words: "the sheet has fewer hands than when it was typed (a hand was deleted or " +
        "taken back on another phone). It goes by itself once that hand is back; or record it now as the next " +
        "hand with Fix." };
    } else {
      var said = page.querySelector("#error-summary") || page.querySelector("#form-message") ||
        page.querySelector("#alert-text") || page.querySelector(".error-message") || page.querySelector("main");
      var words = said ? said.textContent.replace(/\s+/g, " ").trim() : "";
      held = { kind: "refused", words: words || "Scorepad did not take it (" + status + ")." };
    }
    failures = 0;
    update(entry.id, function (kept) { kept.held = held; return kept; });
    document.dispatchEvent(new CustomEvent("scorepad:held", { detail: { entry: entry, held: held } }));
    if (retried(held)) schedule(RETRY_MS[RETRY_MS.length - 1]);
    else schedule(0); // other games' kept hands still go
  }

  // The sheet and scoreboard as they are now, through the page's own poll.
  function refreshSheet() {
    var live = document.getElementById("live");
    if (live && window.htmx) htmx.trigger(live, "refresh");
  }

  window.addEventListener("online", function () { failures = 0; schedule(0); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") schedule(0);
  });
  // Any answer from Scorepad (a poll, a page) says it can be reached again. (A held hand settled lets the hands
  // behind it go where it is settled: drafts.js.)
  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail || {};
    if (detail.xhr && detail.xhr.status && detail.xhr.status < 500 && failures) {
      failures = 0;
      schedule(0);
    }
    // the sheet changed (the poll brought it): a hand waiting for a hand to be back on it may fit now
    var path = detail.pathInfo && detail.pathInfo.requestPath;
    var poll = Boolean(path) && /\/live$/.test(new URL(path, location.href).pathname); // (its element swapped out)
    if (poll && detail.xhr && detail.xhr.status === 200 &&
        load().some(function (entry) { return entry.held && entry.held.kind === "behind"; })) {
      schedule(0);
    }
  });

  // The holds a kept hand is tried again through by itself: the passcode (typed on any page), and a sheet a hand
  // short (the hand is recorded again).
  function retried(held) {
    return held.kind === "passcode" || held.kind === "behind";
  }

  function clashHeld(entry) {
    return { kind: "clash", words: "Hand " + entry.hand + " was recorded on another phone meanwhile." };
  }

  // An answer to the two-phone question that was on its way when the page went (a reload, a closed tab): asked
  // about again. The kept hand carries its token, so an answer that did land stores nothing twice.
  (function askAgain() {
    var list = load();
    if (!list.some(function (entry) { return entry.held && entry.held.kind === "answering"; })) return;
    store(list.map(function (entry) {
      if (entry.held && entry.held.kind === "answering") entry.held = clashHeld(entry);
      return entry;
    }));
  })();

  window.ScorepadOutbox = {
    ofGame: ofGame, remove: remove, update: update, shiftAfter: shiftAfter, drain: drain, schedule: schedule,
    numberPastKept: numberPastKept, newToken: newToken, value: value, setNumber: setNumber,
    fixing: fixing, clashHeld: clashHeld,
    clearFields: clearFields, fieldsOf: fieldsOf
  };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { schedule(0); });
  else schedule(0);
})();
