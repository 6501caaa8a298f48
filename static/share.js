// Share a game's result with one tap: the phone's share sheet (the Web Share API: the line, and the picture of the
// sheet as a PNG where the phone can send files) where the browser offers it, which is on https; on a plain-http
// home address, where it does not, the line is copied (the Clipboard API where allowed, else the old copy command,
// which works on http too) and the page says so. The picture's link downloads a PNG drawn from the server's SVG;
// without JavaScript it downloads the SVG, and the line waits in its box to be copied by hand.
//
// Islands: every [data-share] (templates/games/_share.html), the ones a poll or a save swaps in too; no globals.
(function () {
  "use strict";

  function said(island, words) {
    var line = island.querySelector("[data-share-said]");
    if (line) line.textContent = words;
  }

  // The picture as a PNG: the server's SVG drawn on a canvas at twice its size (sharp on a phone's screen)
  function pictureAsPng(address) {
    return new Promise(function (resolve, reject) {
      var image = new Image();
      image.onload = function () {
        var scale = 2, canvas = document.createElement("canvas");
        canvas.width = image.naturalWidth * scale;
        canvas.height = image.naturalHeight * scale;
        var context = canvas.getContext("2d");
        context.scale(scale, scale);
        context.drawImage(image, 0, 0);
        canvas.toBlob(function (blob) { if (blob) resolve(blob); else reject(new Error("no picture")); }, "image/png");
      };
      image.onerror = function () { reject(new Error("no picture")); };
      image.src = address;
    });
  }

  function copyWithCommand(box) {
    box.focus();
    box.select();
    box.setSelectionRange(0, box.value.length); // iPhones select only this way
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
    return copied;
  }

  function copy(island, box) {
    var done = function () { said(island, "Copied: paste it into the family chat."); };
    var byHand = function () {
      if (copyWithCommand(box)) { done(); return; }
      box.focus();
      box.select();
      said(island, "The line is selected: copy it, then paste it into the family chat.");
    };
    if (navigator.clipboard && navigator.clipboard.writeText && window.isSecureContext) {
      navigator.clipboard.writeText(box.value).then(done, byHand);
    } else {
      byHand();
    }
  }

  function share(island, box, png) {
    var data = { title: island.dataset.shareTitle || "Scorepad", text: box.value };
    if (png) {
      var file = new File([png], "scorepad.png", { type: "image/png" });
      if (navigator.canShare && navigator.canShare({ files: [file] })) data.files = [file];
    }
    navigator.share(data).then(function () {
      said(island, "Shared.");
    }, function (error) {
      if (error && error.name === "AbortError") return; // closed the share sheet: nothing to say
      copy(island, box);
    });
  }

  function start(island) {
    if (island.dataset.shareReady) return;
    island.dataset.shareReady = "true";
    var box = island.querySelector("[data-share-text]");
    var button = island.querySelector("[data-share-button]");
    var link = island.querySelector("[data-share-picture]");
    var png = null;
    if (link && link.dataset.picture) {
      // drawn now, so that a tap shares at once (a share sheet must open within the tap that asks for it)
      pictureAsPng(link.dataset.picture).then(function (blob) {
        png = blob;
        link.href = URL.createObjectURL(blob);
        link.download = link.download.replace(/\.svg$/, ".png");
        link.dataset.png = "true";
      }, function () { /* the link keeps the SVG */ });
    }
    var sharing = Boolean(navigator.share);
    button.textContent = sharing ? "Send the result" : "Copy the result";
    island.querySelector("[data-share-actions]").hidden = false;
    button.addEventListener("click", function () {
      if (sharing) share(island, box, png); else copy(island, box);
    });
    box.addEventListener("focus", function () { box.select(); });
  }

  function startAll(root) {
    (root.querySelectorAll ? root : document).querySelectorAll("[data-share]").forEach(start);
    if (root.matches && root.matches("[data-share]")) start(root);
  }

  document.addEventListener("htmx:load", function (event) { startAll(event.target); });
  startAll(document);
})();
