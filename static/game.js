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
    last.value = whole && sum <= total ? String(total - sum) : "";
    if (last.value) last.dataset.auto = "1";
  });

  // The fields in the sides' order, whoever bid: bid, each side's meld, the counters of every side but the last
  // (the last fills in). Fields of another kind are skipped.
  function sequence(f) {
    const sides = f.querySelectorAll("input[name^=meld_]").length, names = ["bid"];
    for (let t = 0; t < sides; t++) names.push("meld_" + t);
    for (let t = 0; t < sides - 1; t++) names.push("counters_" + t);
    return names.map((name) => f.elements[name]).filter((el) => el && el.offsetParent);
  }
  const focusField = (el) => { if (el) { el.focus(); el.select(); } };
  // the next field still empty after the bid: a choice tapped late moves on to what is left to type
  const firstEmpty = (f) => sequence(f).slice(1).find((el) => el.value === "") || null;

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
  document.addEventListener("input", (event) => {
    if (!event.target.matches || !event.target.matches("#hand-form input[name=bid]")) return;
    const bid = event.target;
    bid.form.querySelectorAll(".chip[data-bid]").forEach((chip) => {
      chip.setAttribute("aria-pressed", String(bid.value === chip.dataset.bid));
    });
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
  const filledIn = (f) => Array.from(f.elements).filter((el) => el.name && el.type !== "hidden" &&
    el.type !== "submit" && (!/^(radio|checkbox)$/.test(el.type) || el.checked))
    .map((el) => el.name + "=" + el.value).join("&");
  let shown = null, untouched = null;

  function formRendered() {
    const f = document.getElementById("hand-form");
    if (!f || f === shown) return;
    shown = f;
    untouched = f.hasAttribute("data-fresh") ? filledIn(f) : null;
    labelEnterKeys(f);
    // the meld count brings the hand back in the address; once it is in the form a reload must not bring it again
    if (f.closest("#record") && location.search) history.replaceState(history.state, "", location.pathname + location.hash);
  }

  // Captured at the document, so neither the browser nor htmx ever sees the submit.
  document.addEventListener("submit", (event) => {
    const f = event.target, button = event.submitter;
    if (f !== shown || untouched === null || !button || filledIn(f) !== untouched) return;
    if (!button.classList.contains("save-button") && !button.classList.contains("default-save")) return;
    event.preventDefault();
    event.stopPropagation();
    record.focusOn(f.querySelector("input[name=bidder]"));
  }, true);

  // A refused save is seen where the eye is: the list of what to fix at the top of the form, the cursor on the
  // first wrong field, and that field on the screen.
  function showRefusal(f) {
    const summary = f.querySelector("#error-summary");
    if (!summary) return;
    const link = summary.querySelector("a[href^='#']");
    let target = link && document.getElementById(link.getAttribute("href").slice(1));
    if (target && !target.matches("input")) target = target.querySelector("input");
    summary.scrollIntoView({ block: "start" });
    if (!target) return;
    target.focus({ preventScroll: true });
    const box = target.getBoundingClientRect(), bar = f.querySelector(".action-bar");
    if (box.top < 0 || box.bottom > (bar ? bar.getBoundingClientRect().top : window.innerHeight)) {
      target.scrollIntoView({ block: "center" });
    }
  }

  // "This looks like hand 6 again — record it anyway?" is asked at the foot of the form: it is brought onto the
  // screen, clear of the Record bar, or the tap on Record would seem to have done nothing.
  function showQuestion(question) {
    question.scrollIntoView({ block: "center" });
    const bar = question.closest("form").querySelector(".action-bar");
    const under = bar ? question.getBoundingClientRect().bottom - bar.getBoundingClientRect().top : 0;
    if (under > 0) window.scrollBy(0, under + 8);
    const yes = question.querySelector("button");
    if (yes) yes.focus({ preventScroll: true });
  }

  // After a save the next hand starts at its bidder, on the screen (the keypad goes down), and the new totals are
  // said: "Hand 4 recorded: Us +54, Them +20".
  function afterSave(req) {
    if (req.kind !== "save") return;
    if (req.status === 422) { if (shown) queueMicrotask(() => showRefusal(shown)); return; }
    const question = shown && shown.querySelector("#repeat-question");
    if (question) { queueMicrotask(() => showQuestion(question)); return; }
    if (req.answer !== "saved") return;
    record.focusOn(shown && shown.querySelector("input[name=bidder]"));
    const said = document.querySelector("#saved p");
    if (said) S.announce(said.textContent);
  }

  // The preview's answer changes the height of the page above Record. Where the Record bar sits in the page (not
  // stuck to the bottom of the screen), that would move Record just as a finger comes down on it, and the tap
  // would land beside it. The page scrolls by as much instead, so Record stays where it was; never so far that
  // the field being typed in leaves the screen.
  let held = null; // where the form and its Record bar ended before the preview's answer
  function beforeSwap(req, event) {
    const target = event.detail && event.detail.target;
    held = null;
    if (!target || target.id !== "preview" || !target.isConnected) return; // (an answer for a page gone since)
    const f = target.closest("form"), bar = f && f.querySelector(".action-bar");
    if (!bar) return;
    const box = bar.getBoundingClientRect();
    if (box.bottom <= 0 || box.top >= window.innerHeight) return; // Record is not on the screen
    held = { target, form: f, bar, formBottom: f.getBoundingClientRect().bottom, barBottom: box.bottom };
  }

  // The bar sits at the end of the form, unless it is stuck to the bottom of the screen (the form goes on below
  // it), where the page can grow or shrink under it. Then the field being typed in is kept clear of the bar.
  function keepRecordStill(req, event) {
    const was = held;
    held = null;
    if (!was || !was.bar.isConnected || event.detail.target !== was.target) return;
    const formBottom = was.form.getBoundingClientRect().bottom;
    let moved = was.barBottom >= was.formBottom - 1 ? formBottom - was.formBottom :
      Math.min(0, formBottom - was.barBottom);
    let typing = document.activeElement;
    typing = typing && typing.form === was.form && !was.bar.contains(typing) ? typing : null;
    // the top of what can be seen (an iPhone's keyboard can scroll the visible part down the page)
    const seenTop = window.visualViewport ? window.visualViewport.offsetTop : 0;
    if (moved > 0 && typing) moved = Math.min(moved, Math.max(0, typing.getBoundingClientRect().top - seenTop - 8));
    if (moved) window.scrollBy(0, moved);
    // the bar stuck to the bottom grows by the result's line: a field just above it would be partly under it
    if (typing) {
      const box = typing.getBoundingClientRect(), bar = was.bar.getBoundingClientRect();
      if (box.bottom - bar.top > 0 && box.top < bar.top) window.scrollBy(0, box.bottom - bar.top + 8);
    }
  }

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

  S.part("form", {
    beforeSwap,
    afterSwap: keepRecordStill,
    afterSettle(req) { formRendered(); afterSave(req); liftBar(); },
  });
  formRendered();
})();
