// What is typed for a hand is kept on this phone from the first keystroke until it is saved or cleared: a reload,
// a trip to History, Back from the meld calculator or a tab the browser dropped puts it back, saying so ("What you
// had typed for hand 7 is back in the form · Clear the form"). It is never put into another hand's form unsaid:
// when the hand it was typed for is on the sheet meanwhile, the two-phone question asks which hand it is, and
// when that question cannot be asked it stays under its own number. The save machine decides; this file tells it
// what was typed and shown, and puts back what it says.
(function () {
  "use strict";

  const S = window.Scorepad, outbox = S.outbox, record = S.record, M = window.ScorepadSave;

  // Every keystroke and tap in the record form is kept, under the form's game and number.
  function keepTyped(f) {
    const values = record.typed(f), game = f.dataset.game, hand = record.number(f);
    if (values.every((p) => p[0] === "kind" && p[1] === "played")) {
      outbox.act("cleared", { game: game, hand: hand });
      return;
    }
    const auto = Array.from(f.querySelectorAll("input[data-auto]")).filter((el) => el.value !== "")
      .map((el) => el.name);
    outbox.act("typed", { game: game, hand: hand,
      draft: { values: values, auto: auto, token: f.elements.token.value, at: Date.now() } });
  }
  function typed(event) {
    const f = event.target.form;
    if (f && f === record.form()) keepTyped(f);
  }
  document.addEventListener("input", typed);
  document.addEventListener("change", typed);

  // A form put on the page: one carrying what was typed (a refusal, the meld count, "go on with it") is kept as
  // it is; a fresh one gets back what was typed for its hand, as the machine says.
  let shown = null;
  function formRendered() {
    const f = record.form();
    if (!f || f === shown || !window.localStorage) return;
    shown = f;
    record.sync();
    if (!f.hasAttribute("data-fresh")) keepTyped(f);
    else outbox.act("shown", { game: f.dataset.game, hand: record.number(f) });
  }

  outbox.on("put-back", (effect, model) => {
    const f = record.form(), draft = model.drafts[M.draftKey(effect.game, effect.hand)];
    if (!f || !draft || f.dataset.game !== effect.game || record.number(f) !== effect.hand) return;
    record.fill(f, draft.values, draft.auto);
    if (draft.token) f.elements.token.value = draft.token;
    const moved = effect.from === effect.hand ? "" : effect.from > effect.hand ?
      ", as hand " + effect.hand + " now: a hand before it was deleted on another phone" :
      ", as hand " + effect.hand + " now";
    record.note(f, "What you had typed for hand " + effect.from + " is back in the form" + moved + ".", true);
  });

  outbox.on("ask-draft", (effect, model) => {
    const draft = model.drafts[M.draftKey(effect.game, effect.hand)], f = record.form();
    if (!draft || !f) return;
    record.ask({ game: effect.game, hand: effect.hand, token: draft.token, values: draft.values,
      to: record.number(f) });
  });

  // What was typed for a hand is that hand on the sheet: this phone's save, stored while its answer was lost.
  outbox.on("draft-saved", (effect) => {
    const f = record.form();
    if (f) record.note(f, "Hand " + effect.hand + " is saved: it is on the sheet, as this phone sent it.", false);
  });

  // The question could not be asked (no answer): the hand keeps its number, and is asked about again.
  outbox.on("not-compared", (effect) => {
    const f = record.form();
    if (!f || effect.id) return; // a kept hand's card says so itself
    const words = record.number(f) === effect.hand ?
      "Another phone recorded hand " + effect.hand + ": yours could not be compared with it yet. It stays hand " +
        effect.hand + " and is asked about again (or tap Record)." :
      "What you had typed for hand " + effect.hand + " is kept: it could not be compared with hand " + effect.hand +
        " on the sheet yet, and is asked about again.";
    record.note(f, words, false);
  });

  document.addEventListener("click", (event) => {
    const clear = event.target.closest && event.target.closest("[data-clear-draft]");
    const f = record.form();
    if (!clear || !f) return;
    outbox.act("cleared", { game: f.dataset.game, hand: record.number(f) });
    record.clear(f);
    f.dispatchEvent(new Event("change", { bubbles: true }));
    clear.closest("#draft-note").remove();
    record.focusOn(f.querySelector(record.DOM.firstField));
  });

  S.part("drafts", { afterSettle: formRendered });
  formRendered();
})();
