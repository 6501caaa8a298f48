// The hand form, made quicker: everything here is a convenience over a form that works without it.
(function () {
  "use strict";

  function numericInputs(form) {
    return Array.prototype.filter.call(form.querySelectorAll("input[inputmode=numeric]"), function (el) {
      return el.offsetParent !== null; // visible: fields of other kinds are hidden
    });
  }

  // A number field's content is selected on focus, so typing replaces the ready-made minimum bid. Selecting
  // at once (not later) means the first key typed is never lost; the tap's own mouseup must not undo it.
  var justFocused = null;
  document.addEventListener("focusin", function (event) {
    var el = event.target;
    if (el.matches && el.matches("#hand-form input[inputmode=numeric]")) {
      el.select();
      justFocused = el;
    }
  });
  document.addEventListener("mouseup", function (event) {
    if (justFocused && event.target === justFocused) event.preventDefault();
    justFocused = null;
  });

  // Typing all sides' counters but one fills in the last (with two teams: one fills the other): together they
  // are the hand's counter points. What the player typed is never overwritten; the preview then says what they
  // add up to.
  document.addEventListener("input", function (event) {
    var el = event.target;
    if (!el.matches || !el.matches("#hand-form input[name^=counters_]")) return;
    delete el.dataset.auto;
    var total = Number(el.closest("[data-hand-points]").dataset.handPoints);
    var fields = Array.prototype.slice.call(el.form.querySelectorAll("input[name^=counters_]"));
    var open = fields.filter(function (f) { return f !== el && (f.value === "" || f.dataset.auto); });
    if (open.length !== 1) return;
    var last = open[0], sum = 0, whole = true;
    fields.forEach(function (f) {
      if (f === last) return;
      if (/^\d+$/.test(f.value)) sum += Number(f.value); else whole = false;
    });
    if (whole && sum <= total) {
      last.value = String(total - sum);
      last.dataset.auto = "1";
    } else {
      last.value = "";
    }
  });

  // The fields in the sides' order, whoever bid (the same each hand, as they stand on the screen): bid, each
  // side's meld, the counters of every side but the last (the last fills in). Fields of another kind are skipped.
  function sequence(form) {
    var sides = form.querySelectorAll("input[name^=meld_]").length;
    var names = ["bid"];
    for (var t = 0; t < sides; t++) names.push("meld_" + t);
    for (t = 0; t < sides - 1; t++) names.push("counters_" + t);
    return names.map(function (name) {
      return form.elements[name];
    }).filter(function (el) { return el && el.offsetParent !== null; });
  }

  function focusField(el) {
    if (el) { el.focus(); el.select(); }
  }

  // The next field still empty after the bid, or null: a choice tapped late (trump after the first meld)
  // moves on to what is left to type, and one changed at the end moves nothing.
  function firstEmpty(form) {
    return sequence(form).slice(1).filter(function (el) { return el.value === ""; })[0] || null;
  }

  // One tap chooses and moves on: the bidder leads to the bid, trump to the first number still to type. Only a
  // tap or a click does: arrow keys (and Space) move through a group of radios one choice at a time, so a
  // keyboard or screen-reader user stays in the group until they Tab on (WCAG 3.2.2).
  var pointed = false;
  document.addEventListener("pointerdown", function () { pointed = true; }, true);
  document.addEventListener("keydown", function () { pointed = false; }, true);
  document.addEventListener("change", function (event) {
    var el = event.target;
    if (!el.form || el.form.id !== "hand-form" || (el.name !== "bidder" && el.name !== "trump")) return;
    if (!pointed) return; // (the field left behind has its own change, which must not use up the tap)
    pointed = false;
    if (el.name === "bidder") focusField(el.form.elements.bid);
    if (el.name === "trump") focusField(firstEmpty(el.form));
  });

  // The bids near the minimum, one tap each: the chip sets the bid (the preview hears it as typing) and the
  // cursor moves on, as Enter would.
  function markChips(form) {
    var bid = form.elements.bid;
    Array.prototype.forEach.call(form.querySelectorAll(".chip[data-bid]"), function (chip) {
      chip.setAttribute("aria-pressed", String(bid.value === chip.dataset.bid));
    });
  }

  document.addEventListener("click", function (event) {
    var chip = event.target.closest && event.target.closest("#hand-form .chip[data-bid]");
    if (!chip) return;
    var form = chip.form, bid = form.elements.bid;
    bid.value = chip.dataset.bid;
    bid.dispatchEvent(new Event("input", { bubbles: true }));
    focusField(firstEmpty(form));
  });

  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("#hand-form input[name=bid]")) markChips(event.target.form);
  });

  // The field Enter moves on to from this one, or null where Enter saves the hand.
  function fieldAfter(el) {
    var order = sequence(el.form);
    var at = order.indexOf(el);
    if (at >= 0) return order[at + 1] || null;
    var inputs = numericInputs(el.form);
    return inputs[inputs.indexOf(el) + 1] || null;
  }

  // Enter (the keypad's "next") moves along the sequence, and from its last field saves the hand.
  document.addEventListener("keydown", function (event) {
    var el = event.target;
    if (event.key !== "Enter" || !el.matches || !el.matches("#hand-form input[inputmode=numeric]")) return;
    event.preventDefault();
    var next = fieldAfter(el);
    if (next) focusField(next);
    else el.form.requestSubmit(el.form.querySelector(".save-button:not(.default-save)"));
  });

  // The keypad's Enter key says what it will do: "next" where it moves on, "done" where it saves. Which field
  // is last depends on the kind of hand, so the page's own hints are redone on a change.
  function labelEnterKeys(form) {
    numericInputs(form).forEach(function (el) {
      el.setAttribute("enterkeyhint", fieldAfter(el) ? "next" : "done");
    });
  }

  document.addEventListener("change", function (event) {
    var el = event.target;
    if (!el.form || el.form.id !== "hand-form") return;
    if (el.name === "kind") labelEnterKeys(el.form);
  });

  // A fresh form is not judged before the player has touched it: a second tap on Record just after a save
  // lands on the next hand's button, and must not paint that hand red. Only what a player can change counts
  // (the poll rewrites the hidden hand number).
  function filledIn(form) {
    return Array.prototype.filter.call(form.elements, function (el) {
      return el.name && el.type !== "hidden" && el.type !== "submit" &&
        (!/^(radio|checkbox)$/.test(el.type) || el.checked);
    }).map(function (el) { return el.name + "=" + el.value; }).join("&");
  }

  function isSaveButton(button) {
    return button.classList.contains("save-button") || button.classList.contains("default-save");
  }

  function firstBidder(form) {
    return form.querySelector("input[name=bidder]");
  }

  var shown = null; // the hand form now on the page
  var untouched = null; // what it held when it was rendered, while it is a fresh one

  // Run at load and after every swap; the form itself is new only after a page, a save or a refusal.
  function formRendered() {
    var form = document.getElementById("hand-form");
    if (!form || form === shown) return;
    shown = form;
    untouched = form.hasAttribute("data-fresh") ? filledIn(form) : null;
    labelEnterKeys(form);
    // The meld count brings the hand back in the address; once it is in the form, a reload must not bring
    // it back again later in the evening.
    if (form.closest("#record") && location.search) {
      history.replaceState(history.state, "", location.pathname + location.hash);
    }
  }

  // Captured at the document, so neither the browser nor htmx ever sees the submit.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form !== shown || untouched === null || !event.submitter) return;
    if (!isSaveButton(event.submitter) || filledIn(form) !== untouched) return;
    event.preventDefault();
    event.stopPropagation();
    var bidder = firstBidder(form);
    if (bidder) bidder.focus();
  }, true);

  // Whether an answer is the record form's own save (not its Check, not the preview or the poll).
  function isSave(detail) {
    var form = detail.requestConfig && detail.requestConfig.elt; // detail.elt is what was swapped
    if (!form || form.id !== "hand-form" || !form.closest("#record") || !detail.pathInfo) return false;
    return new URL(detail.pathInfo.requestPath, location.href).pathname === new URL(form.action).pathname;
  }

  // A refused save is seen where the eye is: the list of what to fix at the top of the form, the cursor on the
  // first wrong field, and that field on the screen. Run after htmx has scrolled a boosted page to its top.
  function showRefusal(form) {
    var summary = form.querySelector("#error-summary");
    if (!summary) return;
    var link = summary.querySelector("a[href^='#']");
    var target = link && document.getElementById(link.getAttribute("href").slice(1));
    if (target && !target.matches("input")) target = target.querySelector("input");
    summary.scrollIntoView({ block: "start" });
    if (!target) return;
    target.focus({ preventScroll: true });
    var box = target.getBoundingClientRect(), bar = form.querySelector(".action-bar");
    var bottom = bar ? bar.getBoundingClientRect().top : window.innerHeight;
    if (box.top < 0 || box.bottom > bottom) target.scrollIntoView({ block: "center" });
  }

  // "This looks like hand 6 again — record it anyway?" is asked at the foot of the form: it is brought onto the
  // screen, clear of the Record bar, or the tap on Record would seem to have done nothing.
  function showQuestion(question) {
    question.scrollIntoView({ block: "center" });
    var bar = question.closest("form").querySelector(".action-bar");
    var under = bar ? question.getBoundingClientRect().bottom - bar.getBoundingClientRect().top : 0;
    if (under > 0) window.scrollBy(0, under + 8);
    var yes = question.querySelector("button");
    if (yes) yes.focus({ preventScroll: true });
  }

  // After a save the next hand starts at its bidder: the cursor leaves the counters, so the keypad goes down.
  document.addEventListener("htmx:afterSettle", function (event) {
    formRendered();
    var detail = event.detail || {};
    if (!isSave(detail) || !detail.xhr) return;
    if (detail.xhr.status === 422) {
      var form = shown;
      if (form) queueMicrotask(function () { showRefusal(form); });
      return;
    }
    var question = shown && shown.querySelector("#repeat-question");
    if (question) {
      queueMicrotask(function () { showQuestion(question); });
      return;
    }
    if (detail.xhr.status >= 300) return;
    var bidder = shown && firstBidder(shown);
    if (bidder) bidder.focus({ preventScroll: true });
  });

  // The preview's answer changes the height of the page above Record. Where the Record bar sits in the page (not
  // stuck to the bottom of the screen), that would move Record just as a finger comes down on it, and the tap
  // would land beside it and save nothing. The page scrolls by as much instead, so Record stays where it was;
  // never so far that the field being typed in leaves the screen.
  var held = null; // {target, form, bar, formBottom, barBottom}: where the form and its Record bar ended before
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    held = null;
    if (!target || target.id !== "preview" || !target.isConnected) return; // (an answer for a page gone since)
    var form = target.closest("form"), bar = form && form.querySelector(".action-bar");
    if (!bar) return;
    var box = bar.getBoundingClientRect();
    if (box.bottom <= 0 || box.top >= window.innerHeight) return; // Record is not on the screen
    held = { target: target, form: form, bar: bar, formBottom: form.getBoundingClientRect().bottom,
             barBottom: box.bottom };
  });

  // How far to scroll so that Record is where it was: the bar sits at the end of the form, unless it is stuck to
  // the bottom of the screen (the form goes on below it), where the page can grow or shrink under it as long as
  // the form still reaches that far. Then the field being typed in is kept clear of the bar.
  function keepRecordStill(event) {
    var was = held, target = event.detail && event.detail.target;
    held = null;
    if (!was || !was.bar.isConnected || target !== was.target) return;
    var formBottom = was.form.getBoundingClientRect().bottom;
    var inPlace = was.barBottom >= was.formBottom - 1;
    var moved = inPlace ? formBottom - was.formBottom : Math.min(0, formBottom - was.barBottom);
    var typing = document.activeElement;
    typing = typing && typing.form === was.form && !was.bar.contains(typing) ? typing : null;
    // the top of what can be seen (an iPhone's keyboard can scroll the visible part down the page)
    var seenTop = window.visualViewport ? window.visualViewport.offsetTop : 0;
    if (moved > 0 && typing) moved = Math.min(moved, Math.max(0, typing.getBoundingClientRect().top - seenTop - 8));
    // (shorter, the page scrolls back as much: the bar is then in its place, below the field, on the screen)
    if (moved) window.scrollBy(0, moved);
    // The bar stuck to the bottom of the screen grows by the result's line: the field being typed in, just above
    // it, would be partly under it. (A field wholly below the bar, where the player scrolled away from it, stays.)
    if (typing) {
      var box = typing.getBoundingClientRect(), bar = was.bar.getBoundingClientRect();
      var under = box.bottom - bar.top;
      if (under > 0 && box.top < bar.top) window.scrollBy(0, under + 8);
    }
  }
  document.addEventListener("htmx:afterSwap", keepRecordStill);

  // The on-screen keyboard covers the bottom of the page without moving it (iPhone): the Record bar, stuck to
  // that bottom, would sit behind it. When the visible part of the page shrinks, the bar rises by as much.
  function barLift(layoutHeight, viewport) {
    return Math.max(0, Math.round(layoutHeight - viewport.height - viewport.offsetTop));
  }

  function liftBar() {
    var bar = document.querySelector("#hand-form .action-bar");
    if (!bar || !window.visualViewport) return;
    var lift = barLift(window.innerHeight, window.visualViewport);
    bar.style.bottom = lift ? lift + "px" : "";
  }

  if (window.visualViewport) {
    window.visualViewport.addEventListener("resize", liftBar);
    window.visualViewport.addEventListener("scroll", liftBar);
  }
  document.addEventListener("htmx:afterSettle", liftBar);

  formRendered();
})();
