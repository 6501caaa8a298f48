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

  // Typing one team's counters fills in the other's: together they are the hand's counter points. What the
  // player typed in both is never overwritten; the preview then says what they add up to.
  document.addEventListener("input", function (event) {
    var el = event.target;
    if (!el.matches || !el.matches("#hand-form input[name^=counters_]")) return;
    delete el.dataset.auto;
    var total = Number(el.closest("[data-hand-points]").dataset.handPoints);
    var other = el.form.elements[el.name === "counters_0" ? "counters_1" : "counters_0"];
    if (other.value !== "" && !other.dataset.auto) return;
    if (/^\d+$/.test(el.value) && Number(el.value) <= total) {
      other.value = String(total - Number(el.value));
      other.dataset.auto = "1";
    } else {
      other.value = "";
    }
  });

  // Enter in a number field moves to the next one (the phone keypad's "next"), and saves from the last.
  document.addEventListener("keydown", function (event) {
    var el = event.target;
    if (event.key !== "Enter" || !el.matches || !el.matches("#hand-form input[inputmode=numeric]")) return;
    var inputs = numericInputs(el.form);
    var next = inputs[inputs.indexOf(el) + 1];
    if (next) {
      event.preventDefault();
      next.focus();
    }
  });
})();
