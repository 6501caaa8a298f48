// New game: the "Deals first" choices say the names just typed in the seats, not North, East, South and West.
// Without JavaScript they keep the seat words, which begin the label of the name field each one matches.
(function () {
  "use strict";

  function nameSeats() {
    document.querySelectorAll("[data-seat]").forEach(function (choice) {
      var field = document.getElementById("player_" + choice.dataset.seat);
      var name = field ? field.value.trim() : "";
      choice.textContent = name || choice.dataset.seatWord;
    });
  }

  document.addEventListener("input", function (event) {
    if (event.target.id && /^player_\d+$/.test(event.target.id)) nameSeats();
  });
  document.addEventListener("change", nameSeats); // a name picked from the list of known players
  nameSeats();
})();
