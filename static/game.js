// The hand form, made quicker: everything here is a convenience over a form that works without it.
(function () {
  "use strict";

  const S = window.Scorepad, record = S.record;
  const visible = (f) => Array.from(f.querySelectorAll("input[inputmode=numeric]")).filter((el) => el.offsetParent);

  // A number field's content is selected on focus, so typing replaces the ready-made minimum bid. Selecting at
  // once (not later) means the first key typed is never lost; the tap's own mouseup must not undo it.
  let justFocused = null;
  document.addEventListener("focusin", (event) => {
    const el = event.target;
    if (el.matches && el.matches("#hand-form input[inputmode=numeric]")) { el.select(); justFocused = el; }
  });
  document.addEventListener("mouseup", (event) => {
    if (justFocused && event.target === justFocused) event.preventDefault();
    justFocused = null;
  });

  // Typing all sides' counters but one fills in the last (with two teams: one fills the other): together they are
  // the hand's counter points. What the player typed is never overwritten; the preview says what they add up to.
  document.addEventListener("input", (event) => {
    const el = event.target;
    if (!el.matches || !el.matches("#hand-form input[name^=counters_]")) return;
    delete el.dataset.auto;
    const total = Number(el.closest("[data-hand-points]").dataset.handPoints);
    const fields = Array.from(el.form.querySelectorAll("input[name^=counters_]"));
    const open = fields.filter((f) => f !== el && (f.value === "" || f.dataset.auto));
    if (open.length !== 1) return;
    const last = open[0];
    let sum = 0, whole = true;
    fields.forEach((f) => {
      if (f === last) return;
      if (/^\d+$/.test(f.value)) sum += Number(f.value); else whole = false;
    });
    // a box typed as no number ("3o") leaves the last one as it was: emptied, it was said to be wrong too (on an
    // edit, the hand's own counters there), though nobody had touched it
    if (!whole && el.value) return;
    last.value = whole && sum <= total ? String(total - sum) : "";
    if (last.value) last.dataset.auto = "1";
  });

  // The fields in the sides' order, whoever bid: bid, each side's meld, the counters of every side but the last
  // (the last fills in). Fields of another kind are skipped. The sides are counted by their counters: a meld
  // counted with the calculator brings a hidden meld_cards_ field beside its meld.
  function sequence(f) {
    const sides = f.querySelectorAll("input[name^=counters_]").length, names = ["bid"];
    for (let t = 0; t < sides; t++) names.push("meld_" + t);
    for (let t = 0; t < sides - 1; t++) names.push("counters_" + t);
    return names.map((name) => f.elements[name]).filter((el) => el && el.offsetParent);
  }
  const focusField = (el) => { if (el) { el.focus(); el.select(); } };
  // the next field still empty after the bid: a choice tapped late moves on to what is left to type
  const firstEmpty = (f) => sequence(f).find((el) => el.name !== "bid" && el.value === "") || null;
  if (record) record.firstEmpty = firstEmpty; // where a hand taken on goes on (record.js)

  // One tap chooses and moves on: the bidder leads to the bid, trump to the first number still to type. Only a
  // tap or a click does: arrow keys move through a group of radios one choice at a time, so a keyboard or
  // screen-reader user stays in the group until they Tab on (WCAG 3.2.2).
  let pointed = false;
  document.addEventListener("pointerdown", () => { pointed = true; }, true);
  document.addEventListener("keydown", () => { pointed = false; }, true);
  document.addEventListener("change", (event) => {
    const el = event.target;
    if (!el.form || el.form.id !== "hand-form") return;
    if (el.name === "kind") labelEnterKeys(el.form);
    // everyone passed: the dealer is stuck with the bid, so the dealer won it (unless another was picked)
    const dealer = el.name === "forced" && el.checked && !el.form.querySelector("input[name=bidder]:checked") &&
      el.form.querySelector("input[name=bidder][value='" + el.dataset.dealer + "']");
    if (dealer) {
      pointed = false; // (its change below is not a tap on a bidder: the cursor stays)
      dealer.checked = true;
      dealer.dispatchEvent(new Event("change", { bubbles: true }));
    }
    if (!pointed || (el.name !== "bidder" && el.name !== "trump")) return;
    pointed = false; // (the field left behind has its own change, which must not use up the tap)
    focusField(el.name === "bidder" ? el.form.elements.bid : firstEmpty(el.form));
  });

  // The bids near the minimum, one tap each: the chip sets the bid (the preview hears it as typing) and the
  // cursor moves on, as Enter would.
  document.addEventListener("click", (event) => {
    const chip = event.target.closest && event.target.closest("#hand-form .chip[data-bid]");
    if (!chip) return;
    chip.form.elements.bid.value = chip.dataset.bid;
    chip.form.elements.bid.dispatchEvent(new Event("input", { bubbles: true }));
    focusField(firstEmpty(chip.form));
  });
  // The chip of the bid in the field is pressed, however it got there: typed, tapped, or put back by drafts.js
  // (on a reload, before this file ran)
  function pressChips(f) {
    const bid = f.elements.bid;
    if (!bid) return;
    f.querySelectorAll(".chip[data-bid]").forEach((chip) => {
      chip.setAttribute("aria-pressed", String(bid.value === chip.dataset.bid));
    });
  }
  document.addEventListener("input", (event) => {
    if (event.target.matches && event.target.matches("#hand-form input[name=bid]")) pressChips(event.target.form);
  });

  // Enter (the keypad's "next") moves along the sequence, and from its last field saves the hand; the keypad's
  // Enter key says which it will do.
  function fieldAfter(el) {
    const order = sequence(el.form), at = order.indexOf(el);
    if (at >= 0) return order[at + 1] || null;
    const inputs = visible(el.form);
    return inputs[inputs.indexOf(el) + 1] || null;
  }
  document.addEventListener("keydown", (event) => {
    const el = event.target;
    if (event.key !== "Enter" || !el.matches || !el.matches("#hand-form input[inputmode=numeric]")) return;
    event.preventDefault();
    const next = fieldAfter(el);
    if (next) focusField(next);
    else el.form.requestSubmit(el.form.querySelector(".save-button:not(.default-save)"));
  });
  const labelEnterKeys = (f) => visible(f).forEach((el) => el.setAttribute("enterkeyhint", fieldAfter(el) ?
    "next" : "done"));

  // A fresh form is not judged before the player has touched it: a second tap on Record just after a save lands
  // on the next hand's button, and must not paint that hand red. Only what a player can change counts.
  // Touched is against the form as drawn (its defaults), not as it was when this file ran: on a slow phone a player
  // may type before the scripts have run, and that hand is theirs to save.
  const touched = (f) => Array.from(f.elements).some((el) => el.name && !/^(hidden|submit)$/.test(el.type) &&
    (/^(radio|checkbox)$/.test(el.type) ? el.checked !== el.defaultChecked : el.value !== el.defaultValue));
  let shown = null, fresh = false;

  function formRendered() {
    const f = document.getElementById("hand-form");
    if (!f || f === shown) return;
    shown = f;
    fresh = f.hasAttribute("data-fresh");
    labelEnterKeys(f);
    pressChips(f);
    // the meld count brings the hand back in the address; once it is in the form a reload must not bring it again
    if (f.closest("#record") && location.search) history.replaceState(history.state, "", location.pathname + location.hash);
  }

  // Captured at the document, so neither the browser nor htmx ever sees the submit.
  document.addEventListener("submit", (event) => {
    const f = event.target, button = event.submitter;
    if (f !== shown || !fresh || !button || touched(f)) return;
    if (!button.classList.contains("save-button") && !button.classList.contains("default-save")) return;
    event.preventDefault();
    event.stopPropagation();
    record.focusOn(f.querySelector("input[name=bidder]"));
  }, true);

  // The on-screen keyboard covers the bottom of the page without moving it (iPhone): the Record bar, stuck to
  // that bottom, rises by as much as the visible part of the page shrinks.
  function liftBar() {
    const bar = document.querySelector("#hand-form .action-bar"), v = window.visualViewport;
    if (!bar || !v) return;
    const lift = Math.max(0, Math.round(window.innerHeight - v.height - v.offsetTop));
    bar.style.bottom = lift ? lift + "px" : "";
  }
  if (window.visualViewport) {
    window.visualViewport.addEventListener("resize", liftBar);
    window.visualViewport.addEventListener("scroll", liftBar);
  }

  // Where the page goes when Scorepad answers the form (a refusal, the repeat question, a save, the preview) is
  // form_answers.js's, run once the form is first touched (its answers come later).
  document.addEventListener("focusin", (event) => {
    if (event.target.form && event.target.form.id === "hand-form") S.need("answers").catch(() => null);
  });
  S.part("form", { afterSettle() { formRendered(); liftBar(); } });
  formRendered();
})();
