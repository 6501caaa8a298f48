// The hand form, made quicker: everything here is a convenience over a form that works without it.
(function () {
  "use strict";

  function numericInputs(form) {
    return Array.prototype.filter.call(form.querySelectorAll("input[inputmode=numeric]"), function (el) {
      return el.offsetParent !== null; // visible: fields of other kinds are hidden
    });
  }

  // A number field's content is selected on focus, so typing replaces the ready-made minimum bid.
  document.addEventListener("focusin", function (event) {
    var el = event.target;
    if (el.matches && el.matches("#hand-form input[inputmode=numeric]")) {
      setTimeout(function () { el.select(); }, 0);
    }
  });

  // Typing one team's counters fills in the other's: together they are the hand's counter points.
  document.addEventListener("input", function (event) {
    var el = event.target;
    if (!el.matches || !el.matches("#hand-form input[name^=counters_]")) return;
    var form = el.form;
    var total = Number(form.dataset.handPoints || el.closest("[data-hand-points]").dataset.handPoints);
    var other = form.elements[el.name === "counters_0" ? "counters_1" : "counters_0"];
    if (/^\d+$/.test(el.value) && Number(el.value) <= total) {
      other.value = String(total - Number(el.value));
    } else if (el.value === "") {
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
