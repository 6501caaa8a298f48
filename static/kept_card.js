// The hands kept on this phone, shown: a card above the record form (on the home page, the hands kept for a game
// that is no longer here) with what each waits for and the answers the save machine offers for it, and on the
// sheet a line for each hand waiting to be saved. Loaded only while a hand is kept.
(function () {
  "use strict";

  const S = window.Scorepad, M = window.ScorepadSave, outbox = S.outbox;
  const el = (tag, props) => Object.assign(document.createElement(tag), props);
  // What a held hand waits for, in the phone's words where Scorepad's were written for a form being typed in.
  const WORDS = {
    clash: (e) => "hand " + e.hand + " was recorded on another phone meanwhile.",
    behind: () => "the sheet has fewer hands than when it was typed (a hand was deleted or taken back on another " +
      "phone). It goes by itself once that hand is back; or record it now as the next hand with Fix.",
    passcode: () => "type the table's passcode to save it.",
    answering: () => "your answer about it is on its way.",
  };
  const words = (e) => (WORDS[e.state] ? WORDS[e.state](e) : e.words);
  const LABELS = { compare: "Compare hand ", anyway: "Record it anyway", fix: "Fix hand ", discard: "Discard hand " };

  function handsWords(list) {
    const n = list.map((e) => e.hand);
    return n.length === 1 ? "Hand " + n[0] + " is" :
      "Hands " + n.slice(0, -1).join(", ") + " and " + n[n.length - 1] + " are";
  }

  function buttons(entry) {
    const row = el("div", { className: "button-row" });
    M.STATES[entry.state].offers.forEach((offer, i) => {
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

  function card(slot, here, gone) {
    let box = document.getElementById("outbox");
    if (!here.length && !gone.length) { if (box) box.remove(); return; }
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
    const sig = JSON.stringify([here, gone].map((list) => list.map((e) => [e.id, e.hand, e.state, e.words])));
    const box = document.getElementById("outbox");
    if (sig === drawn && (box ? box.isConnected : !here.length && !gone.length) &&
        document.querySelectorAll("#sheet .waiting-hand").length === here.length) return;
    drawn = sig;
    card(slot, here, gone);
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
    } else {
      outbox.act(b.dataset.act, { id: entry.id });
    }
  });

  document.addEventListener("scorepad:kept", (event) => show(event.detail));
  S.part("kept", { afterSettle: () => show(outbox.load()) });
  S.keptCard = { show };
  show(outbox.load());
})();
