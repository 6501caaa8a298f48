// What is typed for a hand is kept on this phone from the first keystroke until it is saved or cleared: a
// reload, a trip to History, Back from the meld calculator or a tab the browser dropped puts it back, saying so
// ("What you had typed for hand 7 is back in the form · Clear the form"). It is never put into another hand's
// form unsaid: when the hand it was typed for is on the sheet meanwhile (another phone recorded it), the
// two-phone question asks which hand it is. This file also shows, on the game page, the hands outbox.js keeps while Scorepad cannot be
// reached, and the answers a kept hand the server would not take is waiting for.
(function () {
  "use strict";

  var PREFIX = "scorepad.draft.";
  var STALE_MS = 3 * 24 * 3600 * 1000; // a hand typed days ago is not tonight's
  var outbox = window.ScorepadOutbox;

  function recordForm() {
    var form = document.getElementById("hand-form");
    return form && form.closest("#record") ? form : null;
  }

  function gameId() {
    var form = recordForm();
    if (form) return form.dataset.game;
    var match = /^\/games\/(\d+)/.exec(location.pathname);
    return match ? match[1] : null;
  }

  // --- drafts: scorepad.draft.<game>.<hand> = {values: [[name, value]...], auto: [names], token, at} -------

  function key(game, hand) { return PREFIX + game + "." + hand; }

  function read(game, hand) {
    try {
      var draft = JSON.parse(localStorage.getItem(key(game, hand)) || "null");
      if (draft && Date.now() - draft.at > STALE_MS) { forget(game, hand); return null; }
      return draft;
    } catch (e) {
      return null;
    }
  }

  function forget(game, hand) {
    try { localStorage.removeItem(key(game, hand)); } catch (e) { /* nothing kept */ }
  }

  // Kept hands renumbered (an answer kept one as a later hand, a discard freed a number): a draft typed past
  // them, for the hand after them, moves with them.
  function shiftDrafts(game, after, by) {
    var numbers = draftsOf(game).filter(function (n) { return n > after; });
    if (by > 0) numbers.reverse();
    numbers.forEach(function (n) {
      var draft = read(game, n);
      if (!draft || read(game, n + by)) return;
      forget(game, n);
      try { localStorage.setItem(key(game, n + by), JSON.stringify(draft)); } catch (e) { /* kept where it was */ }
    });
  }

  function draftsOf(game) {
    var found = [];
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var name = localStorage.key(i);
        if (name.indexOf(PREFIX + game + ".") === 0) found.push(Number(name.slice((PREFIX + game + ".").length)));
      }
    } catch (e) { /* storage off */ }
    return found.sort(function (a, b) { return a - b; });
  }

  // The fields a player types or taps: not the form's own bookkeeping.
  var BOOKKEEPING = { csrf_token: 1, token: 1, expected: 1, game_id: 1, count_meld: 1, repeat: 1, meld_ok: 1 };

  function typedPairs(form) {
    return outbox.fieldsOf(form).filter(function (pair) { return !BOOKKEEPING[pair[0]] && pair[1] !== ""; });
  }

  function save(form) {
    var pairs = typedPairs(form);
    var game = form.dataset.game, hand = form.elements.expected.value;
    var nothing = pairs.every(function (pair) { return pair[0] === "kind" && pair[1] === "played"; });
    if (nothing) { forget(game, hand); return; }
    var auto = Array.prototype.filter.call(form.querySelectorAll("input[data-auto]"), function (el) {
      return el.value !== "";
    }).map(function (el) { return el.name; });
    var token = form.elements.token.value;
    draftsOf(game).forEach(function (n) { // a form the poll renumbered takes its draft along
      var other = String(n) !== String(hand) && read(game, n);
      if (other && other.token === token) forget(game, n);
    });
    try {
      localStorage.setItem(key(game, hand), JSON.stringify({ values: pairs, auto: auto, token: token, at: Date.now() }));
    } catch (e) { /* storage full or off: the form still works as before */ }
  }

  function fill(form, pairs, auto) {
    outbox.clearFields(form);
    pairs.forEach(function (pair) {
      var els = form.querySelectorAll("[name='" + pair[0] + "']");
      Array.prototype.forEach.call(els, function (el) {
        if (/^(radio|checkbox)$/.test(el.type)) { if (el.value === pair[1]) el.checked = true; }
        else if (el.type !== "hidden") el.value = pair[1];
      });
    });
    Array.prototype.forEach.call(form.querySelectorAll("input[data-auto]"), function (el) {
      if (!auto || auto.indexOf(el.name) < 0) delete el.dataset.auto;
    });
    var bid = form.elements.bid;
    if (bid) bid.dispatchEvent(new Event("input", { bubbles: true })); // the chips and the preview follow
    var rare = form.querySelector("#rare"), kind = form.querySelector("input[name=kind]:checked");
    if (rare && kind && kind.value !== "played") rare.open = true;
    form.dataset.typed = "1";
    form.removeAttribute("data-fresh");
    form.dispatchEvent(new Event("change", { bubbles: true }));
  }

  // --- saying what was put back --------------------------------------------------------------------------

  function note(form, words) {
    var old = document.getElementById("draft-note");
    if (old) old.remove();
    var box = document.createElement("div");
    box.id = "draft-note";
    box.className = "kept-note";
    box.setAttribute("role", "status");
    var p = document.createElement("p");
    p.textContent = words;
    var clear = document.createElement("button");
    clear.type = "button";
    clear.className = "link-button";
    clear.dataset.clearDraft = "";
    clear.textContent = "Clear the form";
    box.appendChild(p);
    box.appendChild(clear);
    var heading = form.querySelector("#record-heading");
    heading.parentNode.insertBefore(box, heading.nextSibling);
  }

  document.addEventListener("click", function (event) {
    var clear = event.target.closest && event.target.closest("[data-clear-draft]");
    if (!clear) return;
    var form = recordForm();
    if (!form) return;
    forget(form.dataset.game, form.elements.expected.value);
    outbox.clearFields(form);
    form.dispatchEvent(new Event("change", { bubbles: true }));
    clear.closest("#draft-note").remove();
    var bidder = form.querySelector("input[name=bidder]");
    if (bidder) bidder.focus();
  });

  // --- the two-phone question ----------------------------------------------------------------------------

  // Ask the server to set the hand on the sheet beside `pairs` (typed for hand `hand`, token `token`); its
  // answer takes the record card's place. `otherwise` runs when the sheet has no such hand after all (204).
  function ask(game, hand, token, pairs, otherwise) {
    var query = new URLSearchParams(pairs.filter(function (pair) { return !BOOKKEEPING[pair[0]]; }));
    query.set("expected", String(hand));
    query.set("token", token);
    return fetch("/games/" + game + "/hands/compare?" + query.toString(), {
      credentials: "same-origin", headers: { "HX-Request": "true" }
    }).then(function (response) {
      if (response.status !== 200) { if (otherwise) otherwise(); return null; }
      return response.text().then(function (html) {
        var record = document.getElementById("record");
        if (!record) return;
        htmx.swap(record, html, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 });
        var title = document.querySelector("#record[data-clash] .clash-title");
        if (title) {
          title.focus({ preventScroll: true });
          title.closest("#record").scrollIntoView({ block: "start" });
        }
      });
    }, function () { /* no answer: the next poll asks again */ });
  }

  function askAbout(form, otherwise) {
    save(form);
    return ask(form.dataset.game, form.elements.expected.value, form.elements.token.value, typedPairs(form),
               otherwise);
  }

  // An answer to the question settles the hand it was about: its draft goes. A kept hand the answer only
  // discards goes from the outbox at once; one the answer sends (keep it as hand 8, mine is right) waits there,
  // held, until the answer has landed: then it goes, and "keep it as hand 8" moves the later kept hands on. An
  // answer refused, asked again or lost leaves it to be asked about again, and the hands after it wait.
  document.addEventListener("click", function (event) {
    var answer = event.target.closest && event.target.closest("a[data-forget-hand]");
    if (answer) settle(answer);
  }, true);
  document.addEventListener("submit", function (event) {
    if (event.target.matches && event.target.matches("form[data-forget-hand]")) settle(event.target);
  }, true);

  var answering = null; // {form, id, game, hand, keepAs}: the kept hand an answer on its way sends
  var drainAfterSettle = false;

  function settle(answer) {
    var game = gameId(), hand = Number(answer.dataset.forgetHand);
    var token = answer.dataset.forget || answer.dataset.token;
    forget(game, hand);
    var kept = outbox.ofGame(game).filter(function (entry) { return entry.token === token; })[0];
    if (!kept) return;
    var sends = answer.matches("form") && (answer.getAttribute("method") || "").toLowerCase() === "post";
    if (!sends) {
      outbox.remove(function (entry) { return entry.id === kept.id; });
      if (answer.dataset.keepAs) renumber(game, kept.hand, Number(answer.dataset.keepAs) - kept.hand);
      return;
    }
    answering = { form: answer, id: kept.id, game: game, hand: kept.hand,
                  keepAs: answer.dataset.keepAs ? Number(answer.dataset.keepAs) : null };
    outbox.update(kept.id, function (entry) {
      entry.held = { kind: "answering", words: "your answer about it is on its way." };
      return entry;
    });
  }

  // Whether an answer landed: the game's page, with no question, refusal or new question on it.
  function landed(xhr, game) {
    if (!xhr || xhr.status !== 200 || !xhr.responseURL) return false;
    if (new URL(xhr.responseURL).pathname !== "/games/" + game) return false;
    var page = new DOMParser().parseFromString(xhr.responseText, "text/html");
    return !page.querySelector("#record[data-clash], #repeat-question, #error-summary, #form-message");
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail || {}, was = answering;
    if (!was || !detail.requestConfig || detail.requestConfig.elt !== was.form) return;
    answering = null;
    if (landed(detail.xhr, was.game)) {
      outbox.remove(function (entry) { return entry.id === was.id; });
      if (was.keepAs) renumber(was.game, was.hand, was.keepAs - was.hand);
      // the hands kept after it go now, once the page it landed on has its form numbered past them (a hand
      // typed there meanwhile is put back under its new number first)
      drainAfterSettle = true;
    } else {
      outbox.update(was.id, function (entry) { entry.held = clashHeld(entry); return entry; });
    }
  });

  function clashHeld(entry) {
    return outbox.clashHeld(entry);
  }

  function renumber(game, after, by) {
    outbox.shiftAfter(game, after, by);
    shiftDrafts(game, after, by);
  }

  // --- putting a draft back when a fresh form is rendered ----------------------------------------------------

  var shown = null;

  function keptTokens(game) {
    return outbox.ofGame(game).map(function (entry) { return entry.token; });
  }

  function formRendered() {
    var form = recordForm();
    if (!form || form === shown || !window.localStorage) return;
    shown = form;
    if (!form.hasAttribute("data-fresh")) { // a refusal, the meld count: keep it as it is, past the kept hands
      if (!outbox.fixing(form)) outbox.numberPastKept(form);
      save(form);
      return;
    }
    outbox.numberPastKept(form);
    var game = form.dataset.game, hand = Number(form.elements.expected.value);
    var draft = read(game, hand);
    if (draft) {
      putBack(form, draft);
      note(form, "What you had typed for hand " + hand + " is back in the form.");
      return;
    }
    var tokens = keptTokens(game);
    var others = draftsOf(game).filter(function (n) {
      var other = read(game, n);
      return other && tokens.indexOf(other.token) < 0;
    });
    var earlier = others.filter(function (n) { return n < hand; }).pop();
    if (earlier !== undefined) { // typed for a hand that is on the sheet now: which hand is it?
      var old = read(game, earlier);
      ask(game, earlier, old.token, old.values, function () {
        forget(game, earlier);
        putBack(form, old);
        save(form);
        note(form, "What you had typed for hand " + earlier + " is back in the form, as hand " + hand + " now.");
      });
      return;
    }
    var later = others.filter(function (n) { return n > hand; })[0];
    if (later !== undefined) { // hands were deleted on another phone meanwhile: say the number moved
      var moved = read(game, later);
      forget(game, later);
      putBack(form, moved);
      save(form);
      note(form, "What you had typed for hand " + later + " is back in the form, as hand " + hand +
                 " now: a hand before it was deleted on another phone.");
    }
  }

  function putBack(form, draft) {
    fill(form, draft.values, draft.auto);
    if (draft.token) form.elements.token.value = draft.token;
  }

  // Every keystroke and tap in the record form is kept.
  function typed(event) {
    var form = event.target.form;
    if (form && form === recordForm()) save(form);
  }
  document.addEventListener("input", typed);
  document.addEventListener("change", typed);

  // A save that stored the hand (the answer is the sheet it landed on) ends its draft, and a kept hand that
  // was waiting for this hand to be fixed in the form.
  var sending = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    // a save kept on the phone behind other kept hands (outbox.js) is never sent: nothing to wait for
    if (event.defaultPrevented) return;
    var form = event.detail && event.detail.elt;
    var path = event.detail.pathInfo && new URL(event.detail.pathInfo.requestPath, location.href).pathname;
    // the save itself: not Count cards (another address) nor the preview
    if (form && form === recordForm() && path === new URL(form.action).pathname &&
        event.detail.requestConfig && event.detail.requestConfig.verb === "post") {
      sending = { form: form, game: form.dataset.game, hand: form.elements.expected.value, action: path,
                  token: form.elements.token ? form.elements.token.value : "" };
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail && event.detail.xhr, config = event.detail && event.detail.requestConfig;
    // that save's own answer (not another form's landing on the same page: an answer to the two-phone question)
    if (!sending || !xhr || !config || config.elt !== sending.form) return;
    var landed = xhr.responseURL ? new URL(xhr.responseURL).pathname : "";
    if (xhr.status === 200 && landed === "/games/" + sending.game) { // the sheet the saved hand is on
      forget(sending.game, sending.hand);
      var fixed = Number(sending.hand), game = sending.game;
      var token = sending.token;
      outbox.remove(function (entry) { // the kept hand this was (by its token), or a refused one it fixed
        return entry.game === game && (entry.token === token ||
          entry.hand === fixed && entry.held && entry.held.kind === "refused");
      });
      outbox.schedule(0); // the hands kept after a fixed one go now
    }
    sending = null;
  });
  document.addEventListener("scorepad:kept", function (event) {
    forget(event.detail.game, event.detail.hand);
  });
  document.addEventListener("scorepad:saved", function (event) {
    forget(event.detail.game, event.detail.hand);
    var token = event.detail.token;
    if (!token) return;
    // the poll saw this form's hand on the sheet (its own answer may never come): a fix kept for it is done
    outbox.remove(function (entry) { return entry.token === token; });
    outbox.schedule(0);
  });

  // --- the kept hands, on the game page --------------------------------------------------------------------

  function handsWords(list) {
    var numbers = list.map(function (entry) { return entry.hand; });
    if (numbers.length === 1) return "Hand " + numbers[0] + " is";
    return "Hands " + numbers.slice(0, -1).join(", ") + " and " + numbers[numbers.length - 1] + " are";
  }

  function button(text, data, primary) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = primary ? "primary" : "";
    b.textContent = text;
    Object.keys(data).forEach(function (name) { b.dataset[name] = data[name]; });
    return b;
  }

  function card(game, kept) {
    var box = document.getElementById("outbox");
    if (!kept.length) { if (box) box.remove(); return; }
    if (!box) {
      box = document.createElement("section");
      box.id = "outbox";
      box.className = "outbox";
      box.setAttribute("role", "status");
      var record = document.getElementById("record");
      if (!record) return;
      record.parentNode.insertBefore(box, record);
    }
    box.textContent = "";
    var waiting = kept.filter(function (entry) { return !entry.held || entry.held.kind === "passcode"; });
    var first = kept.filter(function (entry) { return entry.held && entry.held.kind !== "passcode"; })[0];
    if (first && first.held.kind === "behind") waiting = waiting.filter(function (entry) { return entry !== first; });
    if (waiting.length) {
      var p = document.createElement("p");
      var behind = first && waiting.filter(function (entry) { return entry.hand > first.hand; }).length === waiting.length;
      p.textContent = handsWords(waiting) + " kept on this phone and will be saved" +
        (waiting.length > 1 ? ", in order," : "") +
        (behind ? " once hand " + first.hand + " below is settled." : " when Scorepad can be reached.");
      box.appendChild(p);
    }
    kept.filter(function (entry) { return entry.held; }).forEach(function (entry) {
      var line = document.createElement("p");
      line.className = "held";
      line.textContent = "Hand " + entry.hand + " is kept on this phone, not saved: " + entry.held.words;
      box.appendChild(line);
      if (entry.held.kind === "answering") return;
      var row = document.createElement("div");
      row.className = "button-row";
      if (entry.held.kind === "clash") row.appendChild(button("Compare hand " + entry.hand, { compare: entry.id }, true));
      if (entry.held.kind === "repeat") row.appendChild(button("Record it anyway", { anyway: entry.id }, true));
      if (/^(refused|behind)$/.test(entry.held.kind)) {
        row.appendChild(button("Fix hand " + entry.hand, { fix: entry.id }, true));
      }
      if (entry.held.kind === "passcode") {
        var unlock = document.createElement("a");
        unlock.className = "button primary";
        unlock.href = "/unlock?next=" + encodeURIComponent(location.pathname);
        unlock.textContent = "Type the passcode";
        row.appendChild(unlock);
      }
      row.appendChild(button("Discard hand " + entry.hand, { discard: entry.id }));
      box.appendChild(row);
    });
  }

  function rows(kept) {
    var sheet = document.getElementById("sheet");
    if (!sheet) return;
    Array.prototype.forEach.call(sheet.querySelectorAll(".waiting-hand, .waiting-list"), function (el) { el.remove(); });
    var none = sheet.querySelector(".no-hands");
    if (none) none.hidden = kept.length > 0; // "No hands yet" is not so while hands wait on this phone
    if (!kept.length) return;
    var list = sheet.querySelector("ol.hands");
    if (!list) {
      list = document.createElement("ol");
      list.className = "hands waiting-list";
      sheet.querySelector(".sheet-title").insertAdjacentElement("afterend", list);
    }
    kept.slice().reverse().forEach(function (entry) { // newest first, as the sheet lists hands
      var li = document.createElement("li");
      li.className = "waiting-hand";
      var num = document.createElement("span");
      num.className = "num";
      num.textContent = entry.hand;
      var what = document.createElement("span");
      what.textContent = entry.summary;
      var words = document.createElement("span");
      words.className = "waiting-words";
      words.textContent = entry.held ? "Not saved yet: " + entry.held.words
        : "Waiting to be saved: no points until Scorepad has scored it.";
      li.appendChild(num);
      li.appendChild(what);
      li.appendChild(words);
      list.insertBefore(li, list.firstChild);
    });
  }

  function showKept() {
    var game = gameId();
    if (!game || !document.getElementById("sheet")) return;
    var kept = outbox.ofGame(game);
    card(game, kept);
    rows(kept);
  }

  function entryById(id) {
    return outbox.ofGame(gameId()).filter(function (entry) { return entry.id === id; })[0];
  }

  document.addEventListener("click", function (event) {
    var b = event.target.closest && event.target.closest("#outbox button");
    if (!b) return;
    var entry = entryById(b.dataset.compare || b.dataset.anyway || b.dataset.fix || b.dataset.discard);
    if (!entry) return;
    if (b.dataset.compare) {
      ask(entry.game, entry.hand, entry.token, entry.body);
    } else if (b.dataset.anyway) {
      outbox.update(entry.id, function (kept) {
        var answer = (kept.held && kept.held.answer) || "repeat"; // the question asked: repeat or meld_ok
        kept.body = kept.body.filter(function (pair) { return pair[0] !== answer; }).concat([[answer, "1"]]);
        kept.held = null;
        return kept;
      });
      outbox.schedule(0);
    } else if (b.dataset.fix) {
      fixInForm(entry);
    } else if (b.dataset.discard) {
      outbox.remove(function (kept) { return kept.id === entry.id; });
      // its number is free for the hands kept after it, unless another phone's hand is on the sheet there
      if (!entry.held || entry.held.kind !== "clash") renumber(entry.game, entry.hand, -1);
      outbox.schedule(0);
      var question = document.querySelector("#record[data-clash='" + entry.hand + "']");
      if (question) location.reload(); // the question about the hand just discarded has no more to ask
    }
  });

  // A kept hand the server refused goes into the form to be fixed; it stays held (so the hands after it wait)
  // until it is saved. What the form held is its own draft already.
  function fixInForm(entry) {
    var form = recordForm();
    if (!form) return;
    // its number and token first: filling the fields saves a draft, which must be this hand's, not one for the
    // hand the form was on (that one would come back later as typed for it, and could be recorded twice)
    outbox.setNumber(form, entry.hand);
    form.elements.token.value = entry.token;
    putBack(form, { values: entry.body.filter(function (pair) { return !BOOKKEEPING[pair[0]]; }), token: entry.token });
    save(form);
    note(form, "Hand " + entry.hand + " is back in the form: fix it and record it.");
    form.scrollIntoView({ block: "start" });
  }

  // A resend that met a hand another phone recorded asks the question at once where the form is not being
  // typed in; otherwise the card offers it.
  document.addEventListener("scorepad:held", function (event) {
    var entry = event.detail.entry, form = recordForm();
    if (event.detail.held.kind !== "clash" || entry.game !== gameId() || !form) return;
    if (form.hasAttribute("data-fresh") && form.dataset.typed !== "1") ask(entry.game, entry.hand, entry.token, entry.body);
  });

  document.addEventListener("scorepad:outbox", showKept);
  document.addEventListener("htmx:afterSettle", function () {
    formRendered();
    showKept();
    if (drainAfterSettle) {
      drainAfterSettle = false;
      outbox.schedule(0);
    }
  });

  window.ScorepadDrafts = { askAbout: askAbout };

  formRendered();
  showKept();
})();
