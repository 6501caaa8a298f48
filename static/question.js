// The two-phone question: the hand this phone has (typed, or kept) set beside the hand another phone recorded
// under its number, asked of Scorepad (GET .../hands/compare) and put in the record card's place; and the family's
// answer is heard by record.js (loaded with every game page: an answer tapped before this file is in is heard too).
// Run the first time a question is asked, or when a page opens on one.
(function () {
  "use strict";

  const S = window.Scorepad, outbox = S.outbox, record = S.record, DOM = record.DOM;

  // --- the two-phone question --------------------------------------------------------------------------------
  // Ask Scorepad to set the hand on the sheet beside `subject` (a kept hand, or what is typed for a hand); its
  // answer takes the record card's place. What came of it goes to the machine: asked, no such hand on the sheet,
  // the game gone, or no answer (then nothing is moved: it is asked again later).
  function ask(subject) {
    const query = new URLSearchParams(subject.values.filter((p) => record.BOOKKEEPING.indexOf(p[0]) < 0));
    query.set("expected", String(subject.hand));
    query.set("token", subject.token);
    query.set("game", subject.game);
    const url = subject.url || (record.form() && record.form().dataset.compare);
    const told = (result, words) => {
      outbox.act("compared", { id: subject.id || null, game: subject.game, hand: subject.hand,
        to: subject.to || null, result: result, words: words || "" });
      return result;
    };
    if (!url) return Promise.resolve(told("failed"));
    return fetch(url + "?" + query, { credentials: "same-origin", headers: { "HX-Request": "true" } })
      .then((response) => {
        const kind = response.headers.get("Scorepad-Answer");
        if (kind === "gone") return told("gone", GONE);
        if (kind === "saved") return told("saved"); // this phone's own save is the hand on the sheet
        if (response.status === 204) return told("none");
        if (response.status !== 200) return told("failed");
        return response.text().then((html) => {
          // a kept hand discarded (or answered) on this phone while Scorepad answered: nothing left to ask about
          if (subject.id && !window.ScorepadSave.asked(outbox.load(), subject.id)) return "dropped";
          const card = document.querySelector(DOM.record);
          if (!card) return told("failed");
          htmx.swap(card, html, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 });
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

  S.done("question", { ask, show: showQuestion });
})();
