// The club night's director: the copy button of the director's link (and of the results' summary), the cursor
// back in the Player field after a registration, the round's length labelled by how a round ends, and the poll
// that keeps the page fresh without losing what the director is typing in a form the poll swaps.
(function () {
  "use strict";

  // Copy the director's link. navigator.clipboard exists only on https or localhost; a phone on the home
  // network (http://192.168...) copies the selected text the old way.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy]");
    if (!button) return;
    var field = document.querySelector(button.dataset.copy);
    var said = document.getElementById(field.id + "-said");
    function say(text) {
      said.textContent = text;
      said.hidden = false;
    }
    function oldWay() {
      field.focus();
      field.select();
      var copied = false;
      try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
      say(copied ? "Copied: keep it in a note or a message to yourself."
                 : "The link is selected: copy it with your phone's own menu.");
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () {
        say("Copied: keep it in a note or a message to yourself.");
      }, oldWay);
    } else {
      oldWay();
    }
  });

  // After a registration, or a refused one, the cursor is where the next name goes: once the page is loaded,
  // when the browser has gone to the form's #anchor (which takes the focus away from a field focused before).
  window.addEventListener("load", function () {
    var form = document.getElementById("register-form");
    if (!form) return;
    var wrong = form.querySelector("[aria-invalid=true]");
    var target = wrong || (document.getElementById("registered") && form.querySelector("#player_0"));
    if (target) {
      target.focus();
      target.scrollIntoView({ block: "center" });
    }
  });

  // The length of a round, in the words of the way it ends.
  var SIZES = {
    hands: ["Hands a round", "4"],
    target: ["Target score", "500"],
    time: ["Minutes a round", "50"]
  };
  function labelSize(event) {
    var chosen = document.querySelector("input[name=round_end]:checked");
    var field = document.getElementById("round_size");
    var label = document.querySelector("label[for=round_size]");
    if (!chosen || !field || !label || !SIZES[chosen.value]) return;
    // a length left at the last way's default takes this way's: not "4" minutes because hands started at 4
    if (event.type === "change" && field.value === field.placeholder) field.value = SIZES[chosen.value][1];
    label.textContent = SIZES[chosen.value][0];
    field.placeholder = SIZES[chosen.value][1];
  }
  document.addEventListener("change", function (event) {
    if (event.target.name === "round_end") labelSize(event);
  });
  document.addEventListener("DOMContentLoaded", labelSize);

  // The poll swaps in the tables and the round card afresh. A form the director has typed in, or is in (a
  // "Change the result", the reason to start a round past tables still to confirm), is carried over into the
  // fresh part as it is (its values, its cursor); what was opened stays open (app.js: every part a poll swaps).
  var KEPT = ["tables", "round"];
  function keptPart(element) {
    return KEPT.some(function (id) { return element.closest("#" + id); });
  }
  document.addEventListener("input", function (event) {
    var form = event.target.form;
    if (form && keptPart(form)) form.dataset.typed = "1";
  }, true);

  var focused = null;
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var old = event.detail.target, fresh = event.detail.fragment;
    if (!old || KEPT.indexOf(old.id) < 0 || !fresh) return;
    var active = document.activeElement;
    focused = active && old.contains(active) && active.id ?
      { id: active.id, start: active.selectionStart, end: active.selectionEnd } : null;
    Array.prototype.forEach.call(old.querySelectorAll("form[id]"), function (form) {
      if (form.dataset.typed !== "1" && !form.contains(active) && !form.querySelector("[aria-invalid]")) return;
      var again = fresh.querySelector("#" + CSS.escape(form.id));
      if (again) again.replaceWith(form);
    });
  });
  document.addEventListener("htmx:oobAfterSwap", function () {
    var was = focused;
    focused = null;
    var field = was && document.getElementById(was.id);
    if (!field) return;
    field.focus({ preventScroll: true });
    if (typeof was.start === "number") {
      try { field.setSelectionRange(was.start, was.end); } catch (e) { /* a field without a text cursor */ }
    }
  });
})();
