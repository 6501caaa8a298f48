// The game page kept fresh from other phones (run the first time a poll brings news: record.js). The poll (see _poller.html) swaps in the scoreboard and the sheet by
// itself; what depends on the hand number in the record card is done here, because only the page knows whether
// the player has started typing a hand:
// - a form nobody has typed in, or the winner card, is replaced by the fresh one the poll brought;
// - a form being typed in keeps every value and its one-time token (a retry of a hand that may have been saved
//   must reuse it), and takes the new heading, bidder buttons, hand number and Record label;
// - a form typed for a hand that is on the sheet now is asked about (the two-phone question), never moved on;
// - a won game shows the winner card, whatever was being typed: it takes no more hands;
// - a rematch started on another phone is followed: the page goes on to it.
// The poll also carries this form's token: when the hand this phone is saving is on the sheet, the wait ends and
// the phone says it was saved. The notice says what happened, then leaves by itself.
(function () {
  "use strict";

  const S = window.Scorepad, record = S.record, outbox = S.outbox;
  const NOTICE_MS = 5000;
  const typedIn = record.typedIn;
  const waiting = (f) => f.classList.contains("htmx-request");

  // What the record card is about: the hand it records, the two-phone question, or the game's end.
  function about(card) {
    if (card.hasAttribute("data-clash")) return "the question about hand " + card.dataset.clash;
    const expected = card.querySelector("input[name=expected]");
    return expected ? "hand " + expected.value : "won " + (card.dataset.gameOver || "") +
      (card.dataset.rematch ? ", rematch started" : "");
  }
  const won = (card) => about(card).indexOf("won") === 0;
  const replace = (card, fresh) => htmx.swap(card, fresh.outerHTML, { swapStyle: "outerHTML", swapDelay: 0,
    settleDelay: 0 });

  // The bidder buttons of the next hand, the one picked kept picked.
  function freshBidders(f, freshForm) {
    const old = f.querySelector("#field-bidder");
    let next = freshForm.querySelector("#field-bidder");
    if (!old || !next) return;
    const picked = old.querySelector("input[name=bidder]:checked"), focused = old.contains(document.activeElement);
    next = document.importNode(next, true);
    old.replaceWith(next);
    const again = picked && next.querySelector("input[name=bidder][value='" + picked.value + "']");
    if (again) {
      again.checked = true;
      if (focused) again.focus({ preventScroll: true });
    }
  }

  function patch(f, freshForm) {
    f.querySelector("#record-heading").innerHTML = freshForm.querySelector("#record-heading").innerHTML;
    f.dataset.sheetNext = freshForm.dataset.sheetNext;
    delete f.dataset.sheetLost;
    f.dataset.ahead = freshForm.dataset.ahead;
    record.setNumber(f, record.number(freshForm));
    freshBidders(f, freshForm);
    record.sync();
  }

  let unasked = null; // a fresh card held back while the question about the typed form could not be asked

  // Returns whether the typed form stays (the notice then says to check the hand being typed).
  function update(fresh, savedToken) {
    const card = document.getElementById("record");
    if (!card || !fresh) return false;
    // the two-phone question waits for its answer, unless the game is won meanwhile (a question asked about a
    // game already over stays: it is about a hand on its sheet)
    if (card.hasAttribute("data-clash") && (!won(fresh) || card.dataset.over)) return false;
    const f = record.form();
    // a poll sent just before this phone's save was answered speaks of the form that is gone: not of this one
    if (savedToken && f && f.elements.token.value === savedToken) {
      if (waiting(f)) htmx.trigger(f, "htmx:abort"); // its answer is no longer awaited: the poll told
      outbox.act("formSaved", { game: f.dataset.game, hand: record.number(f), token: savedToken });
      const alert = document.getElementById("alert");
      if (alert) alert.hidden = true; // a failed save's "may not have been saved" is now known to be wrong
      replace(card, fresh);
      return false;
    }
    if (f && waiting(f)) return false; // the save's own answer will redraw the page
    const keptHere = f && outbox.load().kept.some((e) => e.game === f.dataset.game && e.state !== "gone");
    // a rematch started on another phone: this phone follows it there, unless a hand is being typed here
    if (fresh.dataset.rematchUrl && !(f && typedIn(f))) {
      location.assign(fresh.dataset.rematchUrl);
      return false;
    }
    if (keptHere && !won(fresh)) { // numbered past the kept hands, not by the poll
      const freshForm = fresh.querySelector("#hand-form");
      if (freshForm && !typedIn(f)) {
        f.dataset.sheetNext = freshForm.dataset.sheetNext;
        delete f.dataset.sheetLost;
        record.sync(); // (the hand the sheet lost, recorded on another phone: the form goes past it)
      }
      return false;
    }
    if (about(card) === about(fresh)) return false;
    const freshForm = fresh.querySelector("#hand-form");
    if (f && typedIn(f)) {
      const mine = record.number(f), next = freshForm ? record.number(freshForm) : Infinity;
      if (next > mine) { // the hand this form was started for is on the sheet: asked, never moved on unsaid
        unasked = fresh;
        askAboutForm(f);
        return true;
      }
      // the sheet lost hands (taken back on another phone, an older backup put back): what is typed keeps its
      // number, never renumbered unsaid; its save is told the sheet has fewer hands, and says so. The form still
      // learns the lost hand (sheetLost): once its hand is kept and held behind, it goes there (the polls after
      // this one are "not modified", and tell it nothing)
      if (freshForm && next < mine) {
        f.dataset.sheetLost = freshForm.dataset.sheetNext;
        return true;
      }
      if (freshForm) {
        patch(f, freshForm);
        return true;
      }
    }
    cardInstead(card, fresh, Boolean(f && typedIn(f)));
    return false;
  }

  // (No such hand on the sheet after all, as when a club's round is called before it was played: the fresh card
  // takes the form's place, saying the hand was not recorded.)
  function askAboutForm(f) {
    const snapshot = { game: f.dataset.game, hand: record.number(f), token: f.elements.token.value,
      values: record.fields(f) };
    record.ask(snapshot).then((result) => {
      const fresh = unasked;
      if (result !== "failed") unasked = null;
      const card = document.getElementById("record");
      if (result === "none" && fresh && card) cardInstead(card, fresh, true);
    });
  }

  // The fresh record card in place of this one; one that takes the place of a form typed in (a club round's
  // time called) says the hand was not saved.
  function cardInstead(card, fresh, lost) {
    replace(card, fresh);
    const said = lost && document.querySelector("#record [data-if-typed]");
    if (said) said.hidden = false;
  }

  let hideLater = null;
  // `lost`: the sheet's next hand, when the sheet has fewer hands than the page showed. Unless Scorepad marked its
  // notice data-deleted (a hand was deleted on another phone), an older copy was put back, which "updated from
  // another phone" does not say.
  function noticeShown(typing, lost) {
    const notice = document.getElementById("live-notice");
    if (!notice || notice.hidden) return;
    const advice = notice.querySelector("[data-typing]");
    if (advice) advice.hidden = !typing;
    if (lost && !notice.hasAttribute("data-deleted")) notice.replaceChildren("The sheet has fewer hands (deleted, or " +
      "an older copy put back): next is hand " + lost + "." + (typing ? " Check it before you record this one." : ""));
    clearTimeout(hideLater);
    hideLater = setTimeout(() => {
      const shown = document.getElementById("live-notice");
      if (shown) shown.hidden = true;
    }, NOTICE_MS);
  }

  // "Hand 2 recorded … Undo" offers to take back the last hand: once the fresh sheet has a hand after it (recorded
  // on another phone), the offer goes; Scorepad would refuse it. The button keeps its place (the toast leaves by
  // itself): nothing below it moves under a finger on its way to it. A sheet without the hand (taken back on
  // another phone, or an older backup put back) takes the toast away: the hand it speaks of is not recorded now.
  // (A poll's answer heard here is never older than the page: app.js drops those.)
  function undoneElsewhere(page) {
    const undo = document.querySelector("#saved form[action$='/undo']");
    const hand = undo && /\/hands\/(\d+)\/undo$/.exec(undo.getAttribute("action"));
    const row = hand && page.getElementById("hand-" + hand[1]), last = page.querySelector("#sheet details.hand");
    if (hand && !row) document.getElementById("saved").hidden = true;
    else if (row && row !== last) undo.style.visibility = "hidden";
  }

  // The poll's news (a 200), and after a question that could not be asked, any answer from Scorepad.
  function heard(req) {
    if (req.kind === "poll" && req.status === 200) {
      const page = new DOMParser().parseFromString(req.xhr.responseText, "text/html");
      const template = page.querySelector("template#fresh-record");
      const fresh = template && template.content.querySelector("#record");
      const saved = page.querySelector("#live-notice[data-saved]");
      const sent = req.detail.requestConfig.headers && req.detail.requestConfig.headers["X-Hand-Token"];
      const f = record.form(), freshForm = fresh && fresh.querySelector("#hand-form");
      const lost = f && freshForm && Number(freshForm.dataset.sheetNext) < Number(f.dataset.sheetNext);
      noticeShown(update(fresh, saved ? sent : null), lost && freshForm.dataset.sheetNext);
      undoneElsewhere(page);
    } else if (unasked && req.status && req.status < 500 && record.form() && !document.querySelector("#record[data-clash]")) {
      askAboutForm(record.form()); // Scorepad answers again: the question that could not be asked is asked now
    }
  }

  S.done("live", { heard, waiting: () => Boolean(unasked) });
})();
