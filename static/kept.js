// The hands kept on this phone, on the page: a save kept (Scorepad could not be reached, or hands kept before it
// wait) and the form moved on; a card above the record form (on the home page, the hands kept for a game that is
// no longer here, and those held for a game that is, with the way to it) with what each waits for and the
// answers the save machine offers; on the sheet a line for each hand waiting to be saved; and Fix, which brings
// one back into the form. Run only once a hand is to be kept or is kept (fetched ahead when the game page is
// idle: the Wi-Fi is most often gone by then).
(function () {
  "use strict";

  const S = window.Scorepad, M = window.ScorepadSave, outbox = S.outbox;
  let record = S.record; // (a page whose record.js ran after this file: taken when first needed)
  const el = (tag, props) => Object.assign(document.createElement(tag), props);
  // What is done to the record form and the question, on a game's page only: the home page lists kept hands too,
  // and a hand sent from there lands there, with no form (a throw here would stop the sending of the next one).
  const script = () => (record = record || S.record);
  const onGamePage = (doer) => (effect, model) => (script() ? doer(effect, model) : undefined);
  const form = () => script() && script().form(); // where Fix has a form to fill, or nothing
  // What a held hand waits for, in the phone's words where Scorepad's were written for a form being typed in.
  const WORDS = {
    clash: (e) => "hand " + e.hand + " was recorded on another phone meanwhile.",
    behind: () => "the sheet has fewer hands than when it was typed (a hand was deleted on another phone, or an " +
      "older copy of the games was put back). It goes by itself once the hands before it are on the sheet again " +
      "(record them in the form, on this phone or another); or record it now as the next hand with Fix.",
    passcode: () => "type the table's passcode to save it.",
    answering: () => "your answer about it is on its way.",
  };
  const words = (e) => (WORDS[e.state] ? WORDS[e.state](e) : e.words);
  const LABELS = { compare: "Compare hand ", anyway: "Record it anyway", fix: "Fix hand ", discard: "Discard hand " };

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
    return { id: outbox.newToken(), game: f.dataset.game, url: f.action, compare: f.dataset.compare,
      body: record.fields(f), token: f.elements.token.value, hand: record.number(f), summary: summary(f),
      at: Date.now() };
  }

  function keep(f) {
    outbox.act("kept", { entry: entryOf(f) });
  }

  outbox.on("clear-form", onGamePage((effect, model) => {
    const f = record.form();
    if (!f) return;
    record.clear(f);
    record.unsay(f);
    // (and what was said of a hand carried into the form: it is the kept hand's now, which goes by itself)
    document.querySelectorAll(record.DOM.note + ", #carried-note").forEach((old) => old.remove());
    f.elements.token.value = outbox.newToken();
    delete f.dataset.typed;
    f.setAttribute("data-fresh", "");
    record.sync(model);
    const preview = document.getElementById("preview"), line = document.getElementById("preview-line");
    if (preview) preview.innerHTML = '<p class="muted">The result shows here as you type.</p>';
    if (line) line.textContent = "";
    const rare = f.querySelector("#rare");
    if (rare) rare.open = false;
    // the next hand starts at its bidder; the page stays where it is, with the card saying the hand is kept
    const first = f.querySelector(record.DOM.firstField);
    if (first) first.focus({ preventScroll: true });
  }));

  function handsWords(list) {
    const n = list.map((e) => e.hand);
    return n.length === 1 ? "Hand " + n[0] + " is" :
      "Hands " + n.slice(0, -1).join(", ") + " and " + n[n.length - 1] + " are";
  }

  // The answers the machine offers for a hand, less Fix where the page has no record form to fix it in (a game
  // won or ended since: the words say why it was not taken, and Discard is what is left to do).
  function buttons(entry) {
    const row = el("div", { className: "button-row" }), canFix = Boolean(form());
    M.STATES[entry.state].offers.filter((offer) => offer !== "fix" || canFix).forEach((offer, i) => {
      if (offer === "unlock") {
        const unlock = el("a", { className: "button primary", textContent: "Type the passcode",
          href: (document.documentElement.dataset.unlock || "/unlock") + "?next=" + encodeURIComponent(location.pathname) });
        return row.append(unlock);
      }
      const label = LABELS[offer] + (/ $/.test(LABELS[offer]) ? entry.hand : "");
      const b = el("button", { type: "button", className: i === 0 && offer !== "discard" ? "primary" : "",
        textContent: offer === "discard" && entry.state === "gone" ? "Discard it" : label });
      b.dataset.act = offer;
      b.dataset.id = entry.id;
      row.append(b);
    });
    return row;
  }

  function card(slot, here, gone, away) {
    let box = document.getElementById("outbox");
    if (!here.length && !gone.length && !away.length) { if (box) box.remove(); return; }
    if (!box) {
      box = el("section", { id: "outbox", className: "outbox" });
      box.setAttribute("role", "status");
      slot.after(box);
    }
    box.replaceChildren();
    const first = here.find((e) => e.state !== "waiting" && e.state !== "passcode");
    const waiting = here.filter((e) => (e.state === "waiting" || e.state === "sending" || e.state === "passcode") &&
      !(first && first.state === "behind" && e === first));
    if (waiting.length) {
      const behind = first && waiting.every((e) => e.hand > first.hand);
      box.append(el("p", { textContent: handsWords(waiting) + " kept on this phone and will be saved" +
        (waiting.length > 1 ? ", in order," : "") +
        (behind ? " once hand " + first.hand + " below is settled." : " when Scorepad can be reached.") }));
    }
    here.filter((e) => e.state !== "waiting" && e.state !== "sending").forEach((e) => {
      box.append(el("p", { className: "held", textContent: "Hand " + e.hand + " is kept on this phone, not saved: " +
        words(e) }));
      if (M.STATES[e.state].offers.length) box.append(buttons(e));
    });
    gone.forEach((e) => {
      box.append(el("p", { className: "held", textContent: "A hand kept on this phone (" + e.summary + "): " +
        e.words }));
      box.append(buttons(e));
    });
    // on the home page: a hand held for a game still here waits for an answer given on that game's page
    away.forEach((e) => {
      box.append(el("p", { className: "held", textContent: "Hand " + e.hand + " of another game (" + e.summary +
        ") is kept on this phone, not saved: " + words(e) }));
      const row = el("div", { className: "button-row" });
      row.append(el("a", { className: "button primary", textContent: "Go to its game",
        href: e.url.replace(/\/hands$/, "") }));
      box.append(row);
    });
  }

  // The kept hands on the sheet, newest first as the sheet lists hands, each saying it is not scored yet.
  function rows(here) {
    const sheet = document.getElementById("sheet");
    if (!sheet) return;
    sheet.querySelectorAll(".waiting-hand, .waiting-list").forEach((li) => li.remove());
    const none = sheet.querySelector(".no-hands");
    if (none) none.hidden = here.length > 0; // "No hands yet" is not so while hands wait on this phone
    if (!here.length) return;
    let list = sheet.querySelector("ol.hands");
    if (!list) {
      list = el("ol", { className: "hands waiting-list" });
      sheet.querySelector(".sheet-title").after(list);
    }
    here.forEach((e) => {
      const li = el("li", { className: "waiting-hand" });
      li.append(el("span", { className: "num", textContent: e.hand }), el("span", { textContent: e.summary }),
        el("span", { className: "waiting-words", textContent: e.state !== "waiting" && e.state !== "sending" ?
          "Not saved yet: " + words(e) : "Waiting to be saved: no points until Scorepad has scored it." }));
      list.prepend(li);
    });
  }

  // Redrawn only when what it shows changed: a button redrawn under a finger would lose its tap.
  let drawn = "";
  function show(model) {
    const slot = document.querySelector("[data-kept-slot]");
    if (!slot) return;
    const game = slot.dataset.keptSlot;
    const here = model.kept.filter((e) => e.game === game && e.state !== "gone");
    const gone = model.kept.filter((e) => e.state === "gone");
    const away = game ? [] : model.kept.filter((e) => e.state !== "gone" && M.STATES[e.state].offers.length);
    const sig = JSON.stringify([here, gone, away].map((list) =>
      list.map((e) => [e.id, e.hand, e.state, e.words])).concat(Boolean(form())));
    const box = document.getElementById("outbox");
    if (sig === drawn && (box ? box.isConnected : !here.length && !gone.length && !away.length) &&
        document.querySelectorAll("#sheet .waiting-hand").length === here.length) return;
    drawn = sig;
    card(slot, here, gone, away);
    rows(here);
  }

  document.addEventListener("click", (event) => {
    const b = event.target.closest && event.target.closest("#outbox button[data-act]");
    if (!b) return;
    const entry = outbox.load().kept.find((e) => e.id === b.dataset.id);
    if (!entry) return;
    if (b.dataset.act === "compare") {
      S.record.ask({ id: entry.id, game: entry.game, hand: entry.hand, token: entry.token, values: entry.body,
        url: entry.compare });
    } else { // a fix takes the number the sheet on this page takes next (a hand held behind is fixed as that one)
      const f = form();
      outbox.act(b.dataset.act, { id: entry.id, sheetNext: f ? Number(f.dataset.sheetNext) || 0 : 0 });
    }
  });

  // Fix: the kept hand goes into the form, its number and token first (a draft saved while filling is then this
  // hand's), then what was typed for it; the cursor on the first field Scorepad named.
  outbox.on("fill", onGamePage((effect, model) => {
    const f = record.form(), entry = model.kept.find((e) => e.id === effect.id);
    if (!f || !entry) return;
    record.setNumber(f, entry.hand);
    f.elements.token.value = entry.token;
    const draft = model.drafts[M.draftKey(entry.game, entry.hand)];
    const pairs = draft && draft.token === entry.token ? draft.values :
      entry.body.filter((p) => record.BOOKKEEPING.indexOf(p[0]) < 0);
    record.unsay(f);
    record.fill(f, pairs);
    record.note(f, effect.from && effect.from !== entry.hand ?
      "Hand " + effect.from + " is back in the form as hand " + entry.hand + ", the next hand the sheet takes: " +
      "check it and record it. The hands kept after it move up with it." :
      "Hand " + entry.hand + " is back in the form: fix it and record it. Scorepad said: " + entry.words);
    const wrong = (entry.wrong || []).map((id) => document.getElementById(id)).filter(Boolean)
      .map((el) => (el.matches("input") ? el : el.querySelector("input"))).filter(Boolean);
    wrong.forEach((el) => el.setAttribute("aria-invalid", "true"));
    f.scrollIntoView({ block: "start" });
    record.focusOn(wrong[0] || f.querySelector(record.DOM.firstField));
  }));

  outbox.on("ask", onGamePage((effect, model) => {
    const f = record.form(), entry = model.kept.find((e) => e.id === effect.id);
    // where the form is being typed in, the card offers the question instead
    if (entry && entry.game === record.gameOf() && (!f || (f.hasAttribute("data-fresh") && f.dataset.typed !== "1"))) {
      record.ask({ id: entry.id, game: entry.game, hand: entry.hand, token: entry.token, values: entry.body,
        url: entry.compare });
    }
  }));

  // A kept hand of this game landed: the sheet has it, whatever the form was last told by the server; and the
  // phone says so, where a save is said (the kept card just goes, and the totals change: say why).
  outbox.on("on-sheet", onGamePage((effect) => {
    const f = record.form();
    if (f && f.dataset.game === effect.game && Number(f.dataset.sheetNext) <= effect.hand) {
      f.dataset.sheetNext = String(effect.hand + 1);
    }
    const slot = document.querySelector("[data-kept-slot]");
    if (effect.game !== record.gameOf() || !slot) return;
    const toast = Object.assign(document.createElement("div"), { id: "saved", className: "saved-toast no-print" });
    toast.setAttribute("role", "status");
    toast.append(Object.assign(document.createElement("p"), {
      textContent: "Hand " + effect.hand + " is saved: it was kept on this phone, and is on the sheet now." }));
    const old = document.getElementById("saved");
    if (old) old.replaceWith(toast);
    else slot.before(toast);
  }));

  outbox.on("question-gone", onGamePage((effect) => {
    const question = document.querySelector(record.DOM.question);
    if (question && question.dataset.clash === String(effect.hand) && effect.game === record.gameOf()) {
      location.reload();
    }
  }));

  document.addEventListener("scorepad:kept", (event) => show(event.detail));
  S.part("kept", { afterSettle: () => show(outbox.load()) });
  S.done("kept", { show, keep });
  show(outbox.load());
})();
