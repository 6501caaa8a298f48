// Meld calculator: a tap updates the grid and the card list at once, on the phone, so fast taps are never
// lost to a slow answer; the server is then asked only for the count. Without this file (or htmx) every
// button is a plain form submit and the server does the same work.
// What was counted for a hand's side is kept on the phone (sessionStorage, by the form it goes back to): Back to
// the hand and Count cards again bring the same cards back, until they are used or cleared.
(function () {
  "use strict";
  if (window.ScorepadMeld) return; // brought again by a page htmx swapped in: its listeners are already here
  window.ScorepadMeld = true;
  var SUITS = "SHDC", RANKS = "ATKQJ9";
  var KEPT = "scorepad:meld:";

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

  function storage() {
    try { return window.sessionStorage; } catch (e) { return null; }
  }

  // The count as the calculator's form holds it (its cards, a partner's carried before it, trump), kept for the
  // side it counts; nothing tapped and nothing carried from a partner, nothing to keep.
  function keep() {
    var form = document.getElementById("meld-calc"), store = storage();
    if (!form || !store || !form.dataset.countKey) return;
    var cards = form.elements.cards ? form.elements.cards.value.trim() : "";
    var carried = form.elements.counted ? form.elements.counted.value : "";
    if (!cards && !carried) {
      store.removeItem(KEPT + form.dataset.countKey);
      return;
    }
    var state = new URLSearchParams(new FormData(form));
    store.setItem(KEPT + form.dataset.countKey, form.getAttribute("action") + "?" + state.toString());
  }

  // A calculator opened afresh for a side counted before on this phone goes back to that count.
  function restore() {
    var form = document.getElementById("meld-calc"), store = storage();
    if (!form || !store || !form.dataset.countKey) return;
    var params = new URLSearchParams(location.search);
    if (params.get("cards") || params.get("carried") || params.get("restored")) return;
    var kept = store.getItem(KEPT + form.dataset.countKey);
    if (kept) location.replace(kept + (kept.indexOf("?") < 0 ? "?" : "&") + "restored=1");
  }

  // A page htmx brought whole (Count cards from a hand form) is a calculator opened afresh; every answer after it
  // replaces the address, which is then the count to keep.
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.tagName === "BODY") restore();
  });
  document.addEventListener("htmx:afterSettle", function () { keep(); });

  // Use takes the count to the hand: it is the hand's now, not the phone's to bring back.
  document.addEventListener("click", function (event) {
    var use = event.target.closest && event.target.closest("#meld-calc button[name=use]");
    var form = use && use.form, store = storage();
    if (form && store && form.dataset.countKey) store.removeItem(KEPT + form.dataset.countKey);
  }, true);

  // A new trump changes the count, not the cards: ask for the result only, so that cards tapped meanwhile
  // are never overwritten by an older copy of the hand.
  document.addEventListener("change", function (event) {
    var live = document.getElementById("meld-live");
    if (live && window.htmx && event.target.name === "trump" && event.target.closest("#meld-calc")) {
      keep();
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
    keep();
    live.dispatchEvent(new Event("tapped"));
  });

  restore();
  keep();
})();
