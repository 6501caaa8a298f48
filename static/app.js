// Every page's scripts meet here. The page's one listener for each htmx event: the request is described once
// (a save of the record form, an answer to the two-phone question, the poll; the kind of answer Scorepad gave,
// from its Scorepad-Answer header), then each part of the page hears it, in the written ORDER. A part is
// registered by its own file (Scorepad.part), and is only there on the pages that load it.
// Also here: a failed change is never silent (a banner at the top of the screen, the form kept as it was, the same
// one-time token so a second tap stores it once); a request in the background (the poll, the preview) only sets
// a quiet "offline" mark. Without JavaScript the browser shows the server's own page, which says the same.
(function () {
  "use strict";

  const ORDER = ["outbox", "record", "drafts", "kept", "kept-loader", "form", "answers", "islands", "banner"];
  const EVENTS = ["configRequest", "beforeRequest", "afterRequest", "sendError", "timeout", "responseError",
    "beforeSwap", "afterSwap", "afterSettle"];
  const parts = {};
  const S = (window.Scorepad = window.Scorepad || {});
  S.part = (name, handlers) => { parts[name] = handlers; };

  // Scripts a page runs only when they are needed (the two-phone question, the kept-hands card): S.need(name)
  // runs one once, from the address the page gives (data-scripts); the script says S.done(name, what it offers).
  const later = JSON.parse(document.documentElement.dataset.scripts || "{}"), needed = {}, ready = {};
  S.need = (name) => needed[name] || (needed[name] = new Promise((resolve, reject) => {
    ready[name] = resolve;
    const tag = Object.assign(document.createElement("script"), { src: later[name] });
    tag.onerror = () => { delete needed[name]; reject(new Error(name + " could not be loaded")); };
    document.head.append(tag);
  }));
  S.done = (name, offered) => (ready[name] ? ready[name](offered) : (needed[name] = Promise.resolve(offered)));
  // An island that brings its own script (the keep-awake switch, the share box): [data-needs=name], run once the
  // page is idle, or when a swap puts one in.
  const islands = () => document.querySelectorAll("[data-needs]").forEach((el) => {
    S.need(el.dataset.needs).catch(() => null);
  });
  (window.requestIdleCallback || setTimeout)(islands);
  S.part("islands", { afterSettle: islands });
  document.documentElement.classList.add("js"); // the banner's close button works only with this file

  // What a request is to the page: {elt: the element that sent it, kind: "save" | "answer" | "poll" | null,
  // answer: the kind of answer Scorepad gave (see shell/answers.py), status, xhr}.
  // (Asked once per request, before it is sent: after its answer is swapped in, its form is gone from the page.)
  function describe(detail) {
    const elt = (detail.requestConfig && detail.requestConfig.elt) || detail.elt;
    const xhr = detail.xhr;
    let kind = xhr && "scorepadKind" in xhr ? xhr.scorepadKind : null;
    if (!xhr || !("scorepadKind" in xhr)) {
      if (elt && elt.id === "live") kind = "poll";
      else if (S.record) kind = S.record.kindOf(elt, detail);
      if (xhr) xhr.scorepadKind = kind;
    }
    const done = xhr && xhr.readyState === 4;
    return { elt, kind, xhr, detail, status: done ? xhr.status : 0,
      answer: done ? xhr.getResponseHeader("Scorepad-Answer") : null };
  }

  EVENTS.forEach((name) => document.addEventListener("htmx:" + name, (event) => {
    const req = describe(event.detail || {});
    for (const part of ORDER) if (parts[part] && parts[part][name]) parts[part][name](req, event);
  }));

  // The answer to a poll or preview ([data-while-shown]) that left the page since it asked is older than the page
  // drawn since: dropped (the next poll brings what is newer). Its events now miss the document: heard on it.
  // (The same listener added again is not added twice.)
  const dropOffPage = (event) => { if (!event.currentTarget.isConnected) event.detail.shouldSwap = false; };
  document.addEventListener("htmx:beforeRequest", (event) => {
    const elt = event.detail.elt;
    if (elt.matches && elt.matches("[data-while-shown]")) elt.addEventListener("htmx:beforeSwap", dropOffPage);
  });

  // A part of the page swapped in by itself (the poll's sheet, a club screen's news) keeps open what the player
  // opened: a hand being looked at is not shut under a finger because another phone changed the page.
  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const old = event.detail.target, fresh = event.detail.fragment;
    if (!old || !fresh || !fresh.querySelector) return;
    old.querySelectorAll("details[open][id]").forEach((details) => {
      const again = fresh.querySelector("#" + CSS.escape(details.id));
      if (again) again.open = true;
    });
  });

  // --- a change that failed ---------------------------------------------------------------------------------
  const alertBox = () => document.getElementById("alert");

  function showAlert(text) {
    const box = alertBox();
    if (!box) return;
    box.querySelector("#alert-text").textContent = text;
    box.classList.add("floating");
    box.hidden = false;
    box.classList.remove("pulse"); // the same words a second time still catch the eye: the banner pulses again
    void box.offsetWidth;
    box.classList.add("pulse");
  }

  const offlineMark = () => document.getElementById("offline") || {}; // (base.html's; a page of before has none)

  function cause(failure, xhr) {
    if (failure === "sendError") return "no answer from Scorepad (is this phone still on the home Wi-Fi?)";
    if (failure === "timeout") {
      return "Scorepad did not answer within " + Math.round(htmx.config.timeout / 1000) + " seconds";
    }
    return "Scorepad ran into an error (" + (xhr ? xhr.status : "unknown") + ")";
  }

  // The sentence the server already wrote for this failure (its banner, or its error page); not a plain 500's.
  function serverWords(xhr) {
    if (!xhr || !xhr.responseText) return "";
    const page = new DOMParser().parseFromString(xhr.responseText, "text/html");
    const said = page.querySelector("#alert-text");
    if (said && said.textContent.trim()) return said.textContent.trim();
    const error = page.querySelector(".error-message");
    return error && xhr.status !== 500 ? error.textContent.trim() : "";
  }

  function failed(failure) {
    return (req) => {
      if (req.keptOnPhone) { offlineMark().hidden = false; return; } // the outbox keeps the hand and says so
      if (req.kind === "poll" && req.answer === "gone") { gone(req); return; }
      const verb = ((req.detail.requestConfig && req.detail.requestConfig.verb) || "get").toLowerCase();
      if (!req.detail.boosted && verb === "get") { offlineMark().hidden = false; return; } // the poll, a preview
      const said = failure === "responseError" && serverWords(req.xhr);
      const form = req.elt && req.elt.closest && req.elt.closest("form");
      const why = cause(failure, req.xhr);
      if (said) showAlert(said);
      else if (req.kind !== "save" && req.kind !== "answer") {
        showAlert("Nothing was saved: " + why + ". What you typed is still here: try again.");
      } else {
        showAlert(((form && form.dataset.saves) || "This change") + " may not have been saved: " + why + ". " +
          ((form && form.dataset.retry) || "Send it again") + " — it will be saved once, never twice.");
      }
    };
  }

  // Its game gone (an older backup put back): said; the poll's element goes, and htmx stops polling.
  function gone(req) {
    showAlert(serverWords(req.xhr) || "This game is gone.");
    req.elt.remove();
  }

  S.part("banner", {
    responseError: failed("responseError"), sendError: failed("sendError"), timeout: failed("timeout"),
    afterRequest(req) {
      const mark = document.getElementById("offline");
      if (mark && req.detail.successful) mark.hidden = true;
    },
  });
  S.showAlert = showAlert;

  document.addEventListener("click", (event) => {
    const target = event.target.closest ? event.target : null;
    if (target && target.closest("#alert-close")) alertBox().hidden = true;
    // the Print button (CSP forbids an inline onclick): the browser's own dialog, which also saves a PDF
    if (target && target.closest("[data-print]")) window.print();
  });

  // Words for a screen reader, said once: the announcer (base.html's) is on the page before its words change.
  S.announce = (words) => {
    const box = document.getElementById("announce");
    if (!box) return;
    box.textContent = "";
    setTimeout(() => { box.textContent = words; }, 50);
  };
})();
