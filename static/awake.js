// The screen stays on while a game is open: the phone lies on the table, and nobody touches it between hands.
// The Screen Wake Lock API where the browser offers it (a secure address: https, or localhost); on a plain-http
// home address, where it does not, the way players' apps do it: a muted video, one pixel, looping. The switch
// ("Keep the screen on") turns it off on this phone and is remembered here. Released when the game ends (its
// winner card, or it was ended unfinished), when the page is hidden, or when the switch is off; taken again when
// the page is back and the game is still on.
//
// An island: found by [data-keep-awake] (templates/games/_keep_awake.html), no globals. Without JavaScript nothing
// can keep a screen on, so the switch stays hidden.
(function () {
  "use strict";

  var STORED = "scorepad.keepAwake"; // "off" once a table turned it off on this phone
  if (!document.querySelector("[data-keep-awake]")) return;

  var lock = null; // the wake lock held, or the video playing
  var video = null;
  var waitingForTap = false;
  var held = "", words = ""; // how the screen is kept on, and what the switch says about it

  // The switch as the page has it now: a save or a poll may swap in a new one
  function island() { return document.querySelector("[data-keep-awake]"); }
  function toggle() { var here = island(); return here && here.querySelector("[data-keep-awake-switch]"); }

  function switchedOn() {
    try { return localStorage.getItem(STORED) !== "off"; } catch (e) { return toggle() ? toggle().checked : true; }
  }

  function wanted() {
    return switchedOn() && document.visibilityState === "visible" && !document.querySelector("[data-game-over]");
  }

  // The switch shows the state: its box, how the screen is kept on ("wake-lock", "video", "tap" or "") and why
  function show() {
    var here = island();
    if (!here) return;
    here.hidden = false;
    here.querySelector("[data-keep-awake-switch]").checked = switchedOn();
    here.dataset.held = held;
    var said = here.querySelector("[data-keep-awake-state]");
    if (said.textContent !== words) said.textContent = words; // a live region: said once, not at every poll
  }

  function state(how, sentence) {
    held = how;
    words = sentence;
    show();
  }

  function hold() {
    if (lock) return;
    if (navigator.wakeLock && navigator.wakeLock.request) {
      lock = "asking";
      navigator.wakeLock.request("screen").then(function (sentinel) {
        if (lock !== "asking" || !wanted()) { sentinel.release(); if (lock === "asking") lock = null; return; }
        lock = sentinel;
        sentinel.addEventListener("release", function () {
          if (lock === sentinel) { lock = null; update(); } // the browser let it go (the page was hidden)
        });
        state("wake-lock", "The screen stays on while this game is open.");
      }, function () { lock = null; holdWithVideo(); }); // refused (battery saver, a frame that may not): the video
      return;
    }
    holdWithVideo();
  }

  function holdWithVideo() {
    if (!video) {
      video = document.createElement("video");
      video.muted = true;
      video.loop = true;
      video.setAttribute("muted", "");
      video.setAttribute("playsinline", ""); // iPhones: in the page, not full screen
      video.setAttribute("aria-hidden", "true");
      video.setAttribute("tabindex", "-1");
      video.className = "awake-video";
      (island().dataset.videos || "").split(" ").forEach(function (address) {
        if (!address) return;
        var source = document.createElement("source");
        source.src = address;
        source.type = /\.webm(\?|$)/.test(address) ? "video/webm" : "video/mp4";
        video.appendChild(source);
      });
    }
    if (!video.isConnected) document.body.appendChild(video); // again after a swap of the whole page
    lock = video;
    var playing = video.play();
    if (playing && playing.then) {
      playing.then(function () {
        if (lock === video) state("video", "The screen stays on while this game is open.");
      }, function () {
        // the browser plays a video only after a tap on the page: the next tap starts it
        if (lock === video) lock = null;
        waitingForTap = true;
        state("tap", "Tap anywhere on the page to keep the screen on.");
      });
    } else {
      state("video", "The screen stays on while this game is open.");
    }
  }

  function letGo(sentence) {
    if (lock && lock.release) lock.release();
    if (video) video.pause();
    lock = null;
    waitingForTap = false;
    state("", sentence);
  }

  function update() {
    if (wanted()) { show(); hold(); return; }
    if (!switchedOn()) letGo("The screen may sleep as usual.");
    else if (document.querySelector("[data-game-over]")) letGo("The game is over: the screen may sleep again.");
    else letGo(""); // hidden: taken again when the page is back
  }

  document.addEventListener("change", function (event) {
    var box = event.target;
    if (!box.matches || !box.matches("[data-keep-awake-switch]")) return;
    try {
      if (box.checked) localStorage.removeItem(STORED); else localStorage.setItem(STORED, "off");
    } catch (e) { /* this page only */ }
    update();
  });
  document.addEventListener("visibilitychange", update);
  document.addEventListener("htmx:afterSettle", update); // a hand that won the game, or an edit that reopened it
  document.addEventListener("pointerdown", function () {
    if (waitingForTap && wanted()) { waitingForTap = false; holdWithVideo(); }
  }, true);
  update();
})();
