// Hands kept on this phone, and what is typed for a hand, in localStorage; every change to them goes through the
// save machine (save_machine.js), and this file carries out what it says. A kept hand is sent again by itself, in
// order, exactly once (each carries its form's one-time token, so a resend of a hand that did arrive stores
// nothing new): when the network comes back, on a timer, and whenever a Scorepad page is opened. No service
// worker: one cannot run on a plain-HTTP address on the home network.
(function () {
  "use strict";

  const S = window.Scorepad, M = window.ScorepadSave;
  const KEPT = "scorepad.outbox", DRAFTS = "scorepad.drafts";
  const doers = {}; // an effect's name -> what the page's parts do for it (see `S.outbox.on`)
  let sending = false, timer = null, paused = false;

  // Timings the server may set (a test drives time faster): data-retry="3000,5000,..." data-hold="30000".
  const html = document.documentElement.dataset;
  if (html.retry) M.timing.retry = html.retry.split(",").map(Number);
  if (html.hold) M.timing.hold = Number(html.hold);

  function read(key, empty) {
    try {
      return JSON.parse(localStorage.getItem(key)) || empty;
    } catch (e) {
      return empty;
    }
  }

  // A hand kept by a Scorepad of before the machine: {held: null | {kind, words}} is its state.
  const upgraded = (e) => (e.state ? e : Object.assign({}, e, {
    state: e.held ? (e.held.kind in M.STATES ? e.held.kind : "refused") : "waiting",
    words: e.held ? e.held.words : "", after: 0 }));

  function load() {
    const kept = read(KEPT, []);
    return { kept: Array.isArray(kept) ? kept.map(upgraded) : [], drafts: read(DRAFTS, {}) };
  }

  function store(key, value, some) {
    try {
      if (some) localStorage.setItem(key, JSON.stringify(value));
      else localStorage.removeItem(key);
    } catch (e) { /* storage full or off: the banner still says a hand was not saved */ }
  }

  // One event through the machine: stored, its effects carried out, and the page told (the card, the form).
  function act(type, fields) {
    if (!window.localStorage) return null;
    const out = M.step(load(), Object.assign({ type: type, now: Date.now() }, fields));
    store(KEPT, out.kept, out.kept.length);
    store(DRAFTS, out.drafts, Object.keys(out.drafts).length);
    out.effects.forEach((effect) => { if (doers[effect.do]) doers[effect.do](effect, out); });
    document.dispatchEvent(new CustomEvent("scorepad:kept", { detail: out })); // the form and the card follow
    cardNeeded(out);
    return out;
  }

  // The kept-hands card is run only while a hand is kept, on a page with a place for it.
  function cardNeeded(model) {
    if (model.kept.length && document.querySelector("[data-kept-slot]")) S.need("kept").catch(() => null);
  }

  // --- sending ----------------------------------------------------------------------------------------------
  function drain() {
    clearTimeout(timer);
    if (sending || paused || !window.fetch || !window.localStorage) return;
    const model = load(), entry = M.next(model, Date.now());
    if (!entry) {
      const at = M.wakeAt(model);
      if (at !== null) timer = setTimeout(drain, Math.max(0, at - Date.now()) + 20);
      return;
    }
    sending = true;
    act("sent", { id: entry.id });
    // the page's own CSRF token: the one kept with the hand may be older than this phone's session
    const csrf = document.querySelector("meta[name=csrf-token]");
    const body = entry.body.map((p) => (p[0] === "csrf_token" && csrf ? ["csrf_token", csrf.content] : p));
    // (said, so that what the answer would tell the page after it is not kept for the next page: it has none)
    fetch(entry.url, { method: "POST", body: new URLSearchParams(body), credentials: "same-origin",
      redirect: "manual", headers: { "Scorepad-Sent-By": "outbox" } })
      .then(answerOf, () => ({ kind: null }))
      .then((answer) => { sending = false; act("answer", Object.assign({ id: entry.id }, answer)); },
        () => { sending = false; act("answer", { id: entry.id, kind: null }); });
  }

  // Scorepad's answer to a kept hand: its kind (the Scorepad-Answer header; a redirect is a save), its words
  // and the fields it named.
  function answerOf(response) {
    if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
      return { kind: "saved" };
    }
    let kind = response.headers.get("Scorepad-Answer");
    if (!kind && response.status === 404) kind = "gone";
    if (!kind && (response.status >= 500 || response.status === 429 || !response.status)) return { kind: null };
    return response.text().then((html) => Object.assign({ kind: kind || "refused" }, said(html, response.status)));
  }

  function said(html, status) {
    const page = new DOMParser().parseFromString(html, "text/html");
    const box = ["#repeat-question strong", "#error-summary", "#form-message", "#alert-text", ".error-message", "main"]
      .map((where) => page.querySelector(where)).find((el) => el && el.textContent.trim());
    const wrong = Array.prototype.map.call(page.querySelectorAll("#error-summary a[href^='#']"),
      (a) => a.getAttribute("href").slice(1));
    const words = box ? box.textContent.replace(/\s+/g, " ").trim() : "";
    // a question asked before a hand is stored ("hand 6 again?", "a meld no hand melds?"): its yes is its button
    const yes = page.querySelector("#repeat-question button[name]");
    // the number the sheet takes next, as Scorepad knew it when it answered (a hand held behind is fixed as that)
    const next = page.querySelector("#expected");
    return { words: words || "Scorepad did not take it (" + status + ").", wrong: wrong, yes: yes && yes.name,
      next: next ? Number(next.value) : 0 };
  }

  doers.drain = () => setTimeout(drain, 0);
  // the sheet and scoreboard as they are now, through the page's own poll
  doers.refresh = () => {
    const live = document.getElementById("live");
    if (live && window.htmx) htmx.trigger(live, "refresh");
  };

  window.addEventListener("online", () => act("woke"));
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") act("woke");
  });

  S.part("outbox", {
    afterRequest(req) {
      if (!req.status || req.status >= 500 || !window.localStorage) return;
      const kept = load().kept;
      // any answer from Scorepad says it can be reached again; a sheet that changed may take a hand held behind
      if (kept.some((e) => e.state === "waiting" && e.after > Date.now())) act("woke");
      if (req.kind === "poll" && req.status === 200 && kept.some((e) => e.state === "behind")) act("sheetChanged");
    },
  });

  S.outbox = {
    act: act, load: load, drain: drain,
    // Nothing is sent while the page an answer brought is being put in: its form must first be numbered past
    // what was just settled, or a hand sent meanwhile lands under the number its fresh form shows.
    pause: () => { paused = true; setTimeout(() => paused && S.outbox.resume(), 2000); },
    resume: () => { paused = false; drain(); },
    on: (name, doer) => { doers[name] = doer; },
    newToken() {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      return Array.from(bytes, (b) => ("0" + b.toString(16)).slice(-2)).join("");
    },
  };

  // A page opened: what was on its way when the last page went is asked or sent again.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => act("opened"));
  else act("opened");
  S.part("kept-loader", { afterSettle: () => cardNeeded(load()) }); // a page swapped in with a place for the card
})();
