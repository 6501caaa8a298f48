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
    sheet: "#sheet", question: "#record[data-clash]", questionTitle: ".clash-title", answer: "[data-how]",
    errors: "#error-summary, .field-error", said: "#form-message", note: "#draft-note", firstField: "input[name=bidder]",
    // on the form: data-game (the game's identity), data-sheet-next (the sheet's next hand), data-compare (the
    // question's address), data-ahead (who deals each hand ahead); on an answer: data-how, data-forget (the
    // token it settles), data-forget-hand (its number), data-keep-as (the number it keeps it as)
  };
  // Fields of the form's own bookkeeping, not typed by a player.
  const BOOKKEEPING = ["csrf_token", "token", "expected", "game", "game_id", "count_meld", "repeat"];

  const form = () => document.querySelector(DOM.form);
  const gameOf = () => { const f = form() || document.querySelector("[data-game]"); return f && f.dataset.game; };
  const path = (url) => new URL(url, location.href).pathname;

  // "save": the record form sent to its own address (not Check, Count cards or the preview); "answer": an answer
  // to the two-phone question that sends something.
  function kindOf(elt, detail) {
    if (!elt || !elt.closest || !detail.pathInfo) return null;
    const sent = path(detail.pathInfo.requestPath);
    if (elt === form() && sent === path(elt.action)) return "save";
    if (elt.matches(DOM.answer) && elt.closest(DOM.question) && sent === path(elt.action)) return "answer";
    return null;
  }

  function fields(f) {
    return Array.from(f.elements).filter((el) => el.name && !el.disabled && el.type !== "submit" &&
      el.type !== "button" && (!/^(radio|checkbox)$/.test(el.type) || el.checked)).map((el) => [el.name, el.value]);
  }
  const typed = (f) => fields(f).filter((p) => BOOKKEEPING.indexOf(p[0]) < 0 && p[1] !== "");
  const number = (f) => Number(f.elements.expected.value);

  // The hand in a line, as the player typed it: "Mom 60 ♥ · meld 20·12 · counters 30·20".
  function summary(f) {
    const parts = [], bidder = f.querySelector("input[name=bidder]:checked");
    const kind = f.querySelector("input[name=kind]:checked");
    const label = (input) => input.closest("label").textContent.trim();
    if (kind && kind.value !== "played") parts.push(label(kind));
    if (bidder) {
      const who = bidder.closest("label").querySelector(".bidder-name") || bidder.closest("label");
      const trump = f.querySelector("input[name=trump]:checked");
      parts.push(who.textContent.trim() + " " + (f.elements.bid.value || f.elements.bid.placeholder) +
        (trump ? " " + label(trump) : ""));
    }
    const meld = [], counters = [];
    for (let t = 0; f.elements["meld_" + t]; t++) {
      meld.push(f.elements["meld_" + t].value || "0");
      counters.push((f.elements["counters_" + t] && f.elements["counters_" + t].value) || "–");
    }
    parts.push("meld " + meld.join("·"));
    if (!kind || kind.value === "played") parts.push("counters " + counters.join("·"));
    return parts.join(" · ");
  }

  function entryOf(f) {
    const body = fields(f);
    return { id: outbox.newToken(), game: f.dataset.game, url: f.action, compare: f.dataset.compare, body: body,
      token: f.elements.token.value, hand: number(f), summary: summary(f), at: Date.now() };
  }

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
    const n = M.formNumber(model || outbox.load(), f.dataset.game, Number(f.dataset.sheetNext || number(f)));
    if (n !== number(f)) setNumber(f, n);
  }
  document.addEventListener("scorepad:kept", (event) => sync(event.detail));

  // --- what the machine says about the form ----------------------------------------------------------------
  // A save kept: the form moves on to the next hand, empty, with a token of its own.
  outbox.on("clear-form", (effect, model) => {
    const f = form();
    if (!f) return;
    clear(f);
    unsay(f);
    const old = document.querySelector(DOM.note);
    if (old) old.remove();
    f.elements.token.value = outbox.newToken();
    delete f.dataset.typed;
    f.setAttribute("data-fresh", "");
    sync(model);
    const preview = document.getElementById("preview"), line = document.getElementById("preview-line");
    if (preview) preview.innerHTML = '<p class="muted">The result shows here as you type.</p>';
    if (line) line.textContent = "";
    const rare = f.querySelector("#rare");
    if (rare) rare.open = false;
    // the next hand starts at its bidder; the page stays where it is, with the card saying the hand is kept
    const first = f.querySelector(DOM.firstField);
    if (first) first.focus({ preventScroll: true });
  });

  // Fix: the kept hand goes into the form, its number and token first (a draft saved while filling is then this
  // hand's), then what was typed for it; the cursor on the first field Scorepad named.
  outbox.on("fill", (effect, model) => {
    const f = form(), entry = model.kept.find((e) => e.id === effect.id);
    if (!f || !entry) return;
    setNumber(f, entry.hand);
    f.elements.token.value = entry.token;
    const draft = model.drafts[M.draftKey(entry.game, entry.hand)];
    const pairs = draft && draft.token === entry.token ? draft.values :
      entry.body.filter((p) => BOOKKEEPING.indexOf(p[0]) < 0);
    unsay(f);
    fill(f, pairs);
    note(f, "Hand " + entry.hand + " is back in the form: fix it and record it. Scorepad said: " + entry.words);
    const wrong = (entry.wrong || []).map((id) => document.getElementById(id)).filter(Boolean)
      .map((el) => (el.matches("input") ? el : el.querySelector("input"))).filter(Boolean);
    wrong.forEach((el) => el.setAttribute("aria-invalid", "true"));
    f.scrollIntoView({ block: "start" });
    focusOn(wrong[0] || f.querySelector(DOM.firstField));
  });

  outbox.on("ask", (effect, model) => {
    const f = form(), entry = model.kept.find((e) => e.id === effect.id);
    // where the form is being typed in, the card offers the question instead
    if (entry && entry.game === gameOf() && (!f || (f.hasAttribute("data-fresh") && f.dataset.typed !== "1"))) {
      ask({ id: entry.id, game: entry.game, hand: entry.hand, token: entry.token, values: entry.body,
        url: entry.compare });
    }
  });

  // A kept hand of this game landed: the sheet has it, whatever the form was last told by the server.
  outbox.on("on-sheet", (effect) => {
    const f = form();
    if (f && f.dataset.game === effect.game && Number(f.dataset.sheetNext) <= effect.hand) {
      f.dataset.sheetNext = String(effect.hand + 1);
    }
  });

  outbox.on("question-gone", (effect) => {
    const question = document.querySelector(DOM.question);
    if (question && question.dataset.clash === String(effect.hand) && effect.game === gameOf()) location.reload();
  });

  // --- the two-phone question --------------------------------------------------------------------------------
  // Ask Scorepad to set the hand on the sheet beside `subject` (a kept hand, or what is typed for a hand); its
  // answer takes the record card's place. What came of it goes to the machine: asked, no such hand on the sheet,
  // the game gone, or no answer (then nothing is moved: it is asked again later).
  function ask(subject) {
    const query = new URLSearchParams(subject.values.filter((p) => BOOKKEEPING.indexOf(p[0]) < 0));
    query.set("expected", String(subject.hand));
    query.set("token", subject.token);
    query.set("game", subject.game);
    const url = subject.url || (form() && form().dataset.compare);
    const told = (result, words) => {
      outbox.act("compared", { id: subject.id || null, game: subject.game, hand: subject.hand,
        to: subject.to || null, result: result, words: words || "" });
      return result;
    };
    if (!url) return Promise.resolve(told("failed"));
    return fetch(url + "?" + query, { credentials: "same-origin", headers: { "HX-Request": "true" } })
      .then((response) => {
        if (response.headers.get("Scorepad-Answer") === "gone") return told("gone", GONE);
        if (response.status === 204) return told("none");
        if (response.status !== 200) return told("failed");
        return response.text().then((html) => {
          const record = document.querySelector(DOM.record);
          if (!record) return told("failed");
          htmx.swap(record, html, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 });
          showQuestion();
          return told("question");
        });
      }, () => told("failed"));
  }
  const GONE = "The game this hand was typed for is no longer here: it was not saved, here or anywhere.";

  // The question, where the eye and a screen reader are: its heading focused and said.
  function showQuestion() {
    const title = document.querySelector(DOM.question + " " + DOM.questionTitle);
    if (!title) return;
    title.focus({ preventScroll: true });
    title.closest(DOM.record).scrollIntoView({ block: "start" });
    S.announce(title.textContent + ". " + (title.nextElementSibling ? title.nextElementSibling.textContent : ""));
  }

  function focusOn(el) {
    if (!el) return;
    el.focus({ preventScroll: true });
    const box = el.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) el.scrollIntoView({ block: "center" });
  }

  // An answer chosen (a link or a form inside the question): which hand it settles, and how.
  function answered(el) {
    settled = true;
    outbox.act("answered", { game: gameOf(), hand: Number(el.dataset.forgetHand), how: el.dataset.how,
      token: el.dataset.forget, keepAs: el.dataset.keepAs ? Number(el.dataset.keepAs) : null });
  }
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a" + DOM.answer);
    if (link) answered(link);
  }, true);
  document.addEventListener("submit", (event) => {
    if (event.target.matches && event.target.matches("form" + DOM.answer)) answered(event.target);
  }, true);

  // --- the hub's events for the record form -------------------------------------------------------------------
  S.part("record", {
    beforeRequest(req, event) {
      if (req.kind === "answer") req.xhr.scorepad = { token: req.elt.dataset.forget };
      if (req.kind !== "save") return;
      const f = req.elt;
      req.xhr.scorepad = { game: f.dataset.game, hand: number(f), token: f.elements.token.value };
      // hands go in the order played: a save waits behind the hands kept here (a kept hand's fix goes at once)
      if (window.localStorage && M.queued(outbox.load(), f.dataset.game, f.elements.token.value, number(f))) {
        event.preventDefault();
        outbox.act("kept", { entry: entryOf(f) });
      }
    },
    sendError: keepIt,
    timeout: keepIt,
    afterRequest(req) {
      const was = req.xhr && req.xhr.scorepad;
      if (!was) return;
      if (req.detail.successful) outbox.pause(); // until its page has settled

      if (req.kind === "save" && req.answer === "saved") outbox.act("formSaved", was);
      if (req.kind === "answer") outbox.act("landed", { token: was.token, saved: req.answer === "saved" });
      if (req.kind === "save" && req.answer === "clash") showQueued = true;
    },
    afterSettle(req) {
      if (req.xhr && req.xhr.scorepad) outbox.resume();
      if (showQueued) showQuestion();
      // the question answered: the next thing to do is the next hand (or the new question, said as such)
      else if (settled && form()) focusOn(form().querySelector(DOM.firstField));
      else if (settled) showQuestion();
      showQueued = settled = false;
    },
  });
  let showQueued = false, settled = false;

  // A save that got no answer is kept, and the form moves on (the banner is not needed: the card says so).
  function keepIt(req) {
    if (req.kind !== "save" || !window.localStorage) return;
    outbox.act("kept", { entry: entryOf(req.elt) });
    req.keptOnPhone = true;
  }

  S.record = { DOM, BOOKKEEPING, form, gameOf, kindOf, fields, typed, number, setNumber, clear, fill, note, ask,
    sync, focusOn, showQuestion };
})();
