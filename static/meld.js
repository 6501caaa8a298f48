// Meld calculator: a tap updates the grid and the card list at once, on the phone, so fast taps are never
// lost to a slow answer; the server is then asked only for the count. Without this file (or htmx) every
// button is a plain form submit and the server does the same work.
(function () {
  "use strict";
  var SUITS = "SHDC", RANKS = "ATKQJ9";

  function render(cell, n) {
    cell.dataset.count = String(n);
    cell.querySelector(".count").textContent = n ? "×" + n : "";
    cell.classList.toggle("held", n > 0);
    cell.querySelector("button.add").disabled = n >= Number(cell.dataset.max);
    cell.querySelector("button.take").disabled = n === 0;
  }

  function order(a, b) {
    var x = a.dataset.code, y = b.dataset.code;
    return (SUITS.indexOf(x[1]) - SUITS.indexOf(y[1])) || (RANKS.indexOf(x[0]) - RANKS.indexOf(y[0]));
  }

  function textOf(grid) {
    var out = [];
    Array.prototype.slice.call(grid.querySelectorAll(".card-cell")).sort(order).forEach(function (cell) {
      for (var i = 0; i < Number(cell.dataset.count); i++) out.push(cell.dataset.face);
    });
    return out.join(" ");
  }

  // A new trump changes the count, not the cards: ask for the result only, so that cards tapped meanwhile
  // are never overwritten by an older copy of the hand.
  document.addEventListener("change", function (event) {
    var live = document.getElementById("meld-live");
    if (live && window.htmx && event.target.name === "trump" && event.target.closest("#meld-calc")) {
      live.dispatchEvent(new Event("tapped"));
    }
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest("#meld-grid button");
    var live = document.getElementById("meld-live");
    if (!button || !live || !window.htmx) return;
    var text = button.form.elements.cards;
    if (text.getAttribute("aria-invalid") === "true") return; // the server sorts out a hand it could not read
    event.preventDefault();
    var cell = button.closest(".card-cell");
    var n = Number(cell.dataset.count) + (button.classList.contains("add") ? 1 : -1);
    if (n < 0 || n > Number(cell.dataset.max)) return;
    render(cell, n);
    text.value = textOf(button.closest("#meld-grid"));
    live.dispatchEvent(new Event("tapped"));
  });
})();
