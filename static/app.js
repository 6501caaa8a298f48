// A failed save is never silent. When a form that htmx sends (the hand form) gets an error, no answer, or no
// answer in time, a banner at the top of the screen says so, and the form stays as it was: every value typed,
// and the same one-time token, so tapping again stores the hand once. Requests in the background (the poll,
// the preview) only set a quiet "offline" mark that clears itself at the next answer. Without JavaScript the
// browser shows the server's own page, which says the same.
(function () {
  "use strict";

  document.documentElement.classList.add("js"); // the banner's close button works only with this file

  function cause(kind, xhr) {
    if (kind === "offline") return "no answer from Scorepad (is this phone still on the home Wi-Fi?)";
    if (kind === "timeout") {
      return "Scorepad did not answer within " + Math.round(htmx.config.timeout / 1000) + " seconds";
    }
    return "Scorepad ran into an error (" + (xhr ? xhr.status : "unknown") + ")";
  }

  function capital(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function alertBox() {
    return document.getElementById("alert");
  }

  function showAlert(text) {
    var box = alertBox();
    if (!box) return;
    box.querySelector("#alert-text").textContent = text;
    box.classList.add("floating");
    box.hidden = false;
    // the same words a second time still catch the eye: the banner pulses again
    box.classList.remove("pulse");
    void box.offsetWidth;
    box.classList.add("pulse");
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("#alert-close")) alertBox().hidden = true;
  });

  // The Print button (CSP forbids an inline onclick): the browser's own dialog, which also saves a PDF.
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-print]")) window.print();
  });

  function offlineMark() {
    var mark = document.getElementById("offline");
    if (!mark) {
      mark = document.createElement("p");
      mark.id = "offline";
      mark.className = "offline";
      mark.setAttribute("role", "status");
      mark.textContent = "Offline";
      mark.title = "No answer from Scorepad: the score may be out of date until it answers again";
      mark.hidden = true;
      document.body.appendChild(mark);
    }
    return mark;
  }

  function formOf(detail) {
    var elt = detail.elt;
    return elt && elt.closest ? elt.closest("form") : null;
  }

  // A form sent by htmx, or any request that changes something, is the player's own action: it gets the
  // banner. A GET that htmx makes by itself (poll, preview, a row's story, the meld count) does not.
  function isAction(detail) {
    var verb = (detail.requestConfig && detail.requestConfig.verb) || "get";
    return detail.boosted || verb.toLowerCase() !== "get";
  }

  // Whether the request is the form's own save (not its Check or Count cards button, which store nothing).
  function isSave(detail, form) {
    if (!form || !detail.pathInfo) return false;
    var sent = new URL(detail.pathInfo.requestPath, location.href).pathname;
    return sent === new URL(form.action, location.href).pathname;
  }

  // The sentence the server already wrote for this failure: its banner, or its error page. Not the page of a
  // plain 500 (a bug), whose words know nothing of the hand: the phone says it better.
  function serverWords(xhr) {
    if (!xhr || !xhr.responseText) return "";
    var page = new DOMParser().parseFromString(xhr.responseText, "text/html");
    var said = page.querySelector("#alert-text");
    if (said && said.textContent.trim()) return said.textContent.trim();
    said = page.querySelector(".error-message");
    return said && xhr.status !== 500 ? said.textContent.trim() : "";
  }

  function sentence(kind, detail) {
    var form = formOf(detail);
    if (kind === "status") {
      var said = serverWords(detail.xhr);
      if (said) return said;
    }
    var why = cause(kind, detail.xhr);
    if (!isSave(detail, form)) return "Nothing was saved: " + why + ". What you typed is still here: try again.";
    return capital(form.dataset.saves || "this change") + " may not have been saved: " + why + ". " +
      capital(form.dataset.retry || "send it again") + " — it will be saved once, never twice.";
  }

  function failed(kind) {
    return function (event) {
      var detail = event.detail || {};
      if (detail.keptOnPhone) offlineMark().hidden = false; // outbox.js keeps the hand and says so
      else if (isAction(detail)) showAlert(sentence(kind, detail));
      else offlineMark().hidden = false;
    };
  }

  document.addEventListener("htmx:responseError", failed("status"));
  document.addEventListener("htmx:sendError", failed("offline"));
  document.addEventListener("htmx:timeout", failed("timeout"));

  document.addEventListener("htmx:afterRequest", function (event) {
    var mark = document.getElementById("offline");
    if (mark && event.detail && event.detail.successful) mark.hidden = true;
  });
})();
