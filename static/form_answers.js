// Where the page goes when Scorepad answers the record form: a refusal shows what to fix with the cursor on it,
// the repeat question comes onto the screen, a saved hand moves the cursor to the next one and says the new
// totals, and the preview's answer never moves Record under a finger. Run once the form is first touched
// (game.js), well before any answer comes.
(function () {
  "use strict";

  const S = window.Scorepad, record = S.record;

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
    const shown = record.form();
    if (req.status === 422) { if (shown) queueMicrotask(() => showRefusal(shown)); return; }
    const question = shown && shown.querySelector("#repeat-question");
    if (question) { queueMicrotask(() => showQuestion(question)); return; }
    if (req.answer !== "saved") return;
    record.focusOn(record.form() && record.form().querySelector("input[name=bidder]"));
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

  // A form refused once (it shows the list of what to fix) follows the typing: its preview asks with the fields it
  // says are wrong, and the answer says what a save would refuse now (forms.following). A box fixed loses its line
  // at once, a box typed wrong since gets its own, and the list says the same; with nothing left the list hides.
  const refusedForm = (elt) => {
    const f = elt && elt.id === "preview" && elt.closest("form");
    return f && f.querySelector("#error-summary") ? f : null;
  };
  const flaggedNames = (f) => Array.from(f.querySelectorAll(".field-error[id$='-error']"))
    .map((line) => line.id.slice(0, -"-error".length));
  function askWhatIsWrong(req, event) {
    const f = refusedForm(req.elt);
    if (f) event.detail.parameters.shown = flaggedNames(f).join(",");
  }

  // The element that carries a field's aria-invalid: its input, or the fieldset of a group of radios.
  function boxOf(f, name) {
    const el = f.elements[name];
    if (el && el.nodeType === 1) return el;
    const field = document.getElementById("field-" + name);
    return field && field.matches("fieldset") ? field : null;
  }
  function sayLine(f, name, words) {
    const field = document.getElementById("field-" + name), box = boxOf(f, name), id = name + "-error";
    let line = document.getElementById(id);
    if (!words) {
      if (line) line.remove();
      if (box) { box.removeAttribute("aria-invalid"); box.removeAttribute("aria-describedby"); }
      return;
    }
    if (!field) return;
    if (!line) { // (no role=alert: the preview beside it is what is heard, once)
      line = Object.assign(document.createElement("p"), { className: "field-error", id });
      field.append(line);
    }
    line.textContent = words;
    if (box) { box.setAttribute("aria-invalid", "true"); box.setAttribute("aria-describedby", id); }
  }
  function followTyping(f, now) {
    const names = new Set([...flaggedNames(f), ...Object.keys(now.lines)]);
    names.forEach((name) => sayLine(f, name, now.lines[name]));
    const summary = f.querySelector("#error-summary"), list = summary.querySelector("ul");
    list.replaceChildren(...now.list.map(([target, words]) => {
      const item = document.createElement("li");
      item.append(Object.assign(document.createElement("a"), { href: "#" + target, textContent: words }));
      return item;
    }));
    const count = summary.querySelector(".error-count");
    if (count) count.textContent = now.count;
    summary.hidden = now.list.length === 0;
  }
  function followRefusal(req, event) {
    const target = event.detail && event.detail.target, f = target && refusedForm(target);
    const carried = f && target.querySelector("[data-follow]");
    if (!carried) return;
    try { followTyping(f, JSON.parse(carried.dataset.follow)); } catch (e) { /* an answer of an older page */ }
  }

  S.part("answers", {
    configRequest: askWhatIsWrong, beforeSwap,
    afterSwap(req, event) { followRefusal(req, event); keepRecordStill(req, event); }, afterSettle: afterSave,
  });
  S.done("answers", {});
})();
