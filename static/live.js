// The game page kept fresh from other phones. The poll (see _poller.html) swaps in the scoreboard and the sheet by
// itself; what depends on the hand number in the record card is done here, because only the page knows whether
// the player has started typing a hand:
// - a form nobody has typed in, or the winner card, is replaced by the fresh one the poll brought;
// - a form being typed in keeps every value and its one-time token (a retry of a hand that may have been saved
//   must reuse it), and takes the new heading, bidder buttons, hand number and Record label;
// - a won game shows the winner card, whatever was being typed: it takes no more hands;
// - a rematch started on another phone is followed: the page goes on to it.
// The poll also carries this form's token: when the hand this phone is saving (or failed to save) is on the
// sheet, the wait ends and the phone says it was saved. The notice says what happened, then leaves by itself.
(function () {
  "use strict";

  var NOTICE_MS = 5000;

  function handForm() {
    var form = document.getElementById("hand-form");
    return form && form.closest("#record") ? form : null;
  }

  function isPoll(elt) {
    return Boolean(elt && elt.id === "live");
  }

  // A fresh form carries data-fresh; one the player touched, or one the server re-rendered with what was typed
  // (a refusal, the meld count), is being typed in.
  document.addEventListener("input", markTyped, true);
  document.addEventListener("change", markTyped, true);
  function markTyped(event) {
    var form = event.target.form;
    if (form && form.id === "hand-form") form.dataset.typed = "1";
  }

  function typedIn(form) {
    return !form.hasAttribute("data-fresh") || form.dataset.typed === "1";
  }

  function waiting(form) {
    return form.classList.contains("htmx-request");
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var form = handForm();
    if (isPoll(event.detail.elt) && form && form.elements.token) {
      event.detail.headers["X-Hand-Token"] = form.elements.token.value;
    }
  });

  // What the record card is about: the hand it records, the two-phone question, or the game's end.
  function about(record) {
    if (record.hasAttribute("data-clash")) return "the question about hand " + record.dataset.clash;
    var expected = record.querySelector("input[name=expected]");
    return expected ? "hand " + expected.value : "won" + (record.dataset.rematch ? ", rematch started" : "");
  }

  function replace(record, fresh) {
    htmx.swap(record, fresh.outerHTML, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 });
  }

  // The bidder buttons of the next hand, the one picked kept picked.
  function freshBidders(form, freshForm) {
    var old = form.querySelector("#field-bidder"), next = freshForm.querySelector("#field-bidder");
    if (!old || !next) return;
    var picked = old.querySelector("input[name=bidder]:checked");
    var focused = old.contains(document.activeElement);
    next = document.importNode(next, true);
    old.replaceWith(next);
    var again = picked && next.querySelector("input[name=bidder][value='" + picked.value + "']");
    if (again) {
      again.checked = true;
      if (focused) again.focus({ preventScroll: true });
    }
  }

  function patch(form, freshForm) {
    form.querySelector("#record-heading").innerHTML = freshForm.querySelector("#record-heading").innerHTML;
    form.elements.expected.value = freshForm.elements.expected.value;
    var button = form.querySelector(".save-button"), freshButton = freshForm.querySelector(".save-button");
    if (button && freshButton) button.textContent = freshButton.textContent;
    freshBidders(form, freshForm);
  }

  // Hands this phone keeps until Scorepad takes them: the form is numbered after them, not by the poll.
  function keptHere(form) {
    return Boolean(form && window.ScorepadOutbox && ScorepadOutbox.ofGame(form.dataset.game).length);
  }

  function update(fresh, savedToken) {
    var record = document.getElementById("record");
    if (!record || !fresh) return false;
    // the two-phone question waits for its answer, unless the game is won meanwhile: it takes no more hands
    // (a question asked about a game already over stays: it is about a hand on its sheet)
    if (record.hasAttribute("data-clash") && (about(fresh).indexOf("won") !== 0 || record.dataset.over)) return false;
    var form = handForm();
    // a poll sent just before this phone's save was answered speaks of the form that is gone: not of this one
    if (savedToken && form && form.elements.token && form.elements.token.value === savedToken) {
      if (waiting(form)) htmx.trigger(form, "htmx:abort"); // its answer is no longer awaited: the poll told
      document.dispatchEvent(new CustomEvent("scorepad:saved", {
        // its draft goes, and a refused kept hand it was fixing
        detail: { game: form.dataset.game, hand: form.elements.expected.value, token: savedToken }
      }));
      var alert = document.getElementById("alert");
      if (alert) alert.hidden = true; // a failed save's "may not have been saved" is now known to be wrong
      replace(record, fresh);
      return false;
    }
    if (form && waiting(form)) return false; // the save's own answer will redraw the page
    if (keptHere(form) && about(fresh).indexOf("won") !== 0) return false; // a won game takes no more hands
    // a rematch started on another phone: this phone follows it there, unless a hand is being typed here
    if (fresh.dataset.rematchUrl && !(form && typedIn(form))) {
      location.assign(fresh.dataset.rematchUrl);
      return false;
    }
    if (about(record) === about(fresh)) return false;
    var freshForm = fresh.querySelector("#hand-form");
    if (form && typedIn(form)) {
      var mine = Number(form.elements.expected.value);
      var next = freshForm ? Number(freshForm.elements.expected.value) : Infinity;
      if (next > mine && window.ScorepadDrafts) {
        // the hand this form was started for is on the sheet: never moved on silently, asked
        ScorepadDrafts.askAbout(form, function () { cardInstead(document.getElementById("record"), fresh, true); });
        return false;
      }
      if (freshForm) {
        patch(form, freshForm);
        return true;
      }
    }
    cardInstead(record, fresh, Boolean(form && typedIn(form)));
    return false;
  }

  // The fresh record card in place of this one; one that takes the place of a form typed in (a club round's
  // time called) says the hand was not saved.
  function cardInstead(record, fresh, lost) {
    replace(record, fresh);
    var note = lost && document.querySelector("#record [data-if-typed]");
    if (note) note.hidden = false;
  }

  var hideLater = null;
  function noticeShown(typing) {
    var notice = document.getElementById("live-notice");
    if (!notice || notice.hidden) return;
    var advice = notice.querySelector("[data-typing]");
    if (advice) advice.hidden = !typing;
    clearTimeout(hideLater);
    hideLater = setTimeout(function () {
      var shown = document.getElementById("live-notice");
      if (shown) shown.hidden = true;
    }, NOTICE_MS);
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail || {};
    if (!isPoll(detail.requestConfig && detail.requestConfig.elt) || !detail.xhr || detail.xhr.status !== 200) {
      return;
    }
    var page = new DOMParser().parseFromString(detail.xhr.responseText, "text/html");
    var template = page.querySelector("template#fresh-record");
    var fresh = template && template.content.querySelector("#record");
    var saved = page.querySelector("#live-notice[data-saved]");
    var sent = detail.requestConfig.headers && detail.requestConfig.headers["X-Hand-Token"];
    noticeShown(update(fresh, saved ? sent : null));
  });
})();
