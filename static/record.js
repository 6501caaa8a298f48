// The record card's home: which form is the record form, whether a request is its save or an answer to the
// two-phone question (asked here once, for every script), its fields, its number, and the question itself. What
// happens to a hand is the save machine's to say (save_machine.js, through outbox.js); this file tells it what
// the player did and carries out what it says about the form.
(function () {
  "use strict";

  const S = window.Scorepad, M = window.ScorepadSave, outbox = S.outbox;
  // The page the scripts rely on: each selector and attribute in one place.
  const DOM = {
    record: "#record", form: "#record #hand-form", heading: "#record-heading", save: ".save-button, .default-save",
    question: "#record[data-clash]", questionTitle: ".clash-title", answer: "[data-how]",
    errors: "#error-summary, .field-error", said: "#form-message", note: "#draft-note", firstField: "input[name=bidder]",
    keptSlot: "[data-kept-slot]", // on every game page, with the game's identity (empty on the home page)
    // on the form: data-game (the game's identity), data-sheet-next (the sheet's next hand), data-compare (the
    // question's address), data-ahead (who deals each hand ahead); on an answer: data-how, data-forget (the
    // token it settles), data-forget-hand (its number), data-keep-as (the number it keeps it as), data-game (on
    // the edit page, which has no kept-hands slot)
  };
  // Fields of the form's own bookkeeping, not typed by a player.
  const BOOKKEEPING = ["csrf_token", "token", "expected", "game", "game_id", "count_meld", "repeat", "meld_ok"];

  const form = () => document.querySelector(DOM.form);
  // The game of this page, from the kept hands' slot every game page has (a won game's has no form to say it);
  // null on a page of no game.
  const gameOf = () => {
    const slot = document.querySelector(DOM.keptSlot);
    return (slot && slot.dataset.keptSlot) || null;
  };
  const path = (url) => new URL(url, location.href).pathname;

  // "save": the record form sent to its own address (not Check, Count cards or the preview); "answer": an answer
  // to the two-phone question that sends something (in it, or on the edit page "mine is right" went on to).
  function kindOf(elt, detail) {
    if (!elt || !elt.closest || !detail.pathInfo) return null;
    const sent = path(detail.pathInfo.requestPath);
    if (elt === form() && sent === path(elt.action)) return "save";
    if (elt.matches(DOM.answer) && elt.dataset.forget && sent === path(elt.action)) return "answer";
    return null;
  }

  function fields(f) {
    return Array.from(f.elements).filter((el) => el.name && !el.disabled && el.type !== "submit" &&
      el.type !== "button" && (!/^(radio|checkbox)$/.test(el.type) || el.checked)).map((el) => [el.name, el.value]);
  }
  const typed = (f) => fields(f).filter((p) => BOOKKEEPING.indexOf(p[0]) < 0 && p[1] !== "");
  // A fresh form carries data-fresh; one the player touched, or one the server re-rendered with what was typed
  // (a refusal, the meld count), is being typed in.
  const typedIn = (f) => !f.hasAttribute("data-fresh") || f.dataset.typed === "1";
  ["input", "change"].forEach((name) => document.addEventListener(name, (event) => {
    const f = event.target.form;
    if (f && f.id === "hand-form") f.dataset.typed = "1";
  }, true));
  const number = (f) => Number(f.elements.expected.value);

  // --- the form's number and fields -------------------------------------------------------------------------
  function setNumber(f, n) {
    f.elements.expected.value = String(n);
    f.querySelectorAll(DOM.save).forEach((b) => { b.textContent = "Record hand " + n; });
    const heading = f.querySelector(DOM.heading);
    let ahead = [];
    try { ahead = JSON.parse(f.dataset.ahead || "[]"); } catch (e) { /* an old page: no headings ahead */ }
    const facts = ahead.find((a) => a.n === n);
    if (heading) {
      heading.replaceChildren(Object.assign(document.createElement("strong"), { textContent: "Hand " + n }));
      if (facts) heading.append(Object.assign(document.createElement("span"), { className: "muted",
        textContent: " · " + facts.dealer + " deals" }));
    }
    const marker = f.querySelector(".bids-first");
    const first = facts && facts.first && f.querySelector("input[name=bidder][value='" + facts.first + "']");
    if (marker && first) first.closest("label").querySelector("span").appendChild(marker);
    if (facts && facts.deals && f.elements.forced) f.elements.forced.dataset.dealer = facts.deals;
  }

  function clear(f) {
    Array.from(f.elements).forEach((el) => {
      if (!el.name || /^(hidden|submit|button)$/.test(el.type)) return;
      if (/^(radio|checkbox)$/.test(el.type)) el.checked = el.name === "kind" && el.value === "played";
      else el.value = "";
      if ("auto" in el.dataset) el.dataset.auto = "1";
    });
    f.querySelectorAll(".chip[aria-pressed]").forEach((chip) => chip.setAttribute("aria-pressed", "false"));
  }

  function fill(f, pairs, auto) {
    clear(f);
    pairs.forEach(([name, value]) => f.querySelectorAll("[name='" + name + "']").forEach((el) => {
      if (/^(radio|checkbox)$/.test(el.type)) { if (el.value === value) el.checked = true; }
      else if (el.type !== "hidden") el.value = value;
    }));
    f.querySelectorAll("input[data-auto]").forEach((el) => {
      if (!auto || auto.indexOf(el.name) < 0) delete el.dataset.auto;
    });
    if (f.elements.bid) f.elements.bid.dispatchEvent(new Event("input", { bubbles: true })); // chips, preview
    const rare = f.querySelector("#rare"), kind = f.querySelector("input[name=kind]:checked");
    if (rare && kind && kind.value !== "played") rare.open = true;
    f.dataset.typed = "1";
    f.removeAttribute("data-fresh");
    f.dispatchEvent(new Event("change", { bubbles: true }));
  }

  // What was said about the hand before (it is kept now) is not said about the next one.
  function unsay(f) {
    f.querySelectorAll(DOM.errors).forEach((el) => el.remove());
    f.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
    const said = document.querySelector(DOM.said);
    if (said) said.remove();
  }

  // A note under the form's heading: what came back into the form, or why it was not moved.
  function note(f, words, clearable) {
    const old = document.querySelector(DOM.note);
    if (old) old.remove();
    const box = Object.assign(document.createElement("div"), { id: "draft-note", className: "kept-note" });
    box.setAttribute("role", "status");
    box.append(Object.assign(document.createElement("p"), { textContent: words }));
    if (clearable) {
      const button = Object.assign(document.createElement("button"), { type: "button", className: "link-button",
        textContent: "Clear the form" });
      button.dataset.clearDraft = "";
      box.append(button);
    }
    f.querySelector(DOM.heading).after(box);
  }

  // The form past the hands kept here (or on the one it is fixing), whenever they change.
  function sync(model) {
    const f = form();
    if (!f || !f.dataset.game) return;
    const n = M.formNumber(model || outbox.load(), f.dataset.game, Number(f.dataset.sheetNext || number(f)),
      Number(f.dataset.sheetLost || 0));
    if (n !== number(f)) setNumber(f, n);
  }
  document.addEventListener("scorepad:kept", (event) => sync(event.detail));

  // --- what the machine says about the form ----------------------------------------------------------------
  // A save kept: the form moves on to the next hand, empty, with a token of its own.
  // --- the two-phone question: question.js, run the first time a question is asked or on the page ---------
  const question = () => S.need("question");
  const ask = (subject) => question().then((q) => q.ask(subject), () => "failed");
  const showQuestion = () => question().then((q) => q.show());
  // Where the cursor goes once an answer is in: the bidder on a form with none chosen, else the first box still
  // empty in the order Enter moves through (game.js's `firstEmpty`), else Record. A hand taken on as the next one
  // ("go on with it") goes on where it was left, not back at the first bidder, whoever bid.
  function nextToType(f) {
    const bidder = f.querySelector(DOM.firstField);
    if (bidder && !f.querySelector(DOM.firstField + ":checked")) return bidder;
    return (S.record.firstEmpty && S.record.firstEmpty(f)) || f.querySelector(".save-button") || bidder;
  }
  function focusOn(el) {
    if (!el) return;
    el.focus({ preventScroll: true });
    const box = el.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) el.scrollIntoView({ block: "center" });
  }

  // --- the hub's events for the record form -------------------------------------------------------------------
  S.part("record", {
    configRequest(req, event) { // the poll names this form's token: its hand may be saved already
      const f = form();
      if (req.kind === "poll" && f) event.detail.headers["X-Hand-Token"] = f.elements.token.value;
    },
    beforeRequest(req, event) {
      if (req.kind === "answer") req.xhr.scorepad = { token: req.elt.dataset.forget };
      if (req.kind !== "save") return;
      const f = req.elt;
      req.xhr.scorepad = { game: f.dataset.game, hand: number(f), token: f.elements.token.value };
      // hands go in the order played: a save waits behind the hands kept here (a kept hand's fix goes at once)
      if (window.localStorage && M.queued(outbox.load(), f.dataset.game, f.elements.token.value, number(f))) {
        event.preventDefault();
        keep(f, "It waits behind the hands kept on this phone: tap Record again once Scorepad can be reached.");
      }
    },
    sendError: keepIt,
    timeout: keepIt,
    afterRequest(req) {
      // what another phone did (the poll's news) is live.js's, run the first time there is news
      if ((req.kind === "poll" && req.status === 200) || (S.live && S.live.waiting())) {
        S.need("live").then((live) => { S.live = live; live.heard(req); }, () => null);
      }
      const was = req.xhr && req.xhr.scorepad;
      if (!was) return;
      if (req.detail.successful) outbox.pause(); // until its page has settled

      if (req.kind === "save" && req.answer === "saved") outbox.act("formSaved", was);
      if (req.kind === "answer") outbox.act("landed", { token: was.token, kind: req.answer });
      if (req.kind === "save" && req.answer === "clash") showQueued = true;
    },
    afterSettle(req) {
      if (req.xhr && req.xhr.scorepad) outbox.resume();
      if (showQueued) showQuestion();
      // the question answered: the next thing to do is the next hand (or the new question, said as such)
      else if (S.settled && form()) focusOn(nextToType(form()));
      else if (S.settled) showQuestion();
      else if (document.querySelector(DOM.question)) question(); // its answers are the question's to hear
      showQueued = S.settled = false;
    },
  });
  let showQueued = false;

  // A save that got no answer is kept, and the form moves on (the banner is not needed: the card says so).
  function keepIt(req) {
    if (req.kind !== "save" || !window.localStorage) return;
    req.keptOnPhone = true;
    keep(req.elt, "Scorepad could not be reached: tap Record again once it can — it will be saved once.");
  }

  // Keeping is kept.js's (fetched ahead when the page is idle): should it not be there, the hand stays in the form,
  // typed, with its token, and the banner says to tap again.
  function keep(f, otherwise) {
    S.need("kept").then((kept) => kept.keep(f), () => S.showAlert("This hand was not saved yet. " + otherwise));
  }

  // An answer chosen (a link or a form with data-how: the two-phone question's, or "No, it was hand 4: clear the
  // form" of the same numbers again), told to the machine before the page moves on: which hand it settles, and
  // how. Heard here, where every game page has it, not in question.js, which a page may not have loaded yet.
  ["click", "submit"].forEach((type) => document.addEventListener(type, (event) => {
    const el = event.target.closest && event.target.closest((type === "click" ? "a" : "form") + DOM.answer);
    if (!el) return;
    const d = el.dataset;
    S.settled = true; // the cursor goes where the next thing to do is, once its answer is in
    outbox.act("answered", { game: d.game || gameOf(), hand: Number(d.forgetHand), how: d.how, token: d.forget,
      keepAs: d.keepAs ? Number(d.keepAs) : null });
  }, true));

  S.record = { DOM, BOOKKEEPING, form, gameOf, kindOf, fields, typed, typedIn, number, setNumber, clear, fill, note, unsay,
    ask, sync, focusOn };
  if (document.querySelector(DOM.question)) question(); // a page that opens on the question (it answered a Record)
})();
