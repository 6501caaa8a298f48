// The phone's save protocol as one machine (h11's _state.py is the model). Everything that decides what happens
// to a hand kept on this phone (Scorepad could not be reached, or hands kept before it still wait) and to what is
// typed for a hand (its draft) is here: the states in one table, and one function per event that takes the kept
// hands and the drafts and returns them changed, with the effects for the page to carry out. Renumbering happens
// here and nowhere else. Pure: no DOM, no storage, no network, no clock (the time comes with the event), so
// tests/phone runs it in V8 by itself. outbox.js, record.js, drafts.js, live.js and kept.js carry it out.
(function (root) {
  "use strict";

  // Every state of a kept hand. blocks: the hands kept after it in its game wait for it; retried: sent again by
  // itself once its `after` has come; offers: what the kept-hands card offers for it.
  const STATES = {
    waiting: { blocks: true, retried: true, offers: [] }, // not sent yet, or no answer: it goes in its turn
    sending: { blocks: true, retried: false, offers: [] },
    passcode: { blocks: true, retried: true, offers: ["unlock", "discard"] }, // typed on any page, then it goes
    behind: { blocks: true, retried: true, offers: ["fix", "discard"] }, // a hand before it was deleted elsewhere
    clash: { blocks: true, retried: false, offers: ["compare", "discard"] }, // another phone recorded its number
    repeat: { blocks: true, retried: false, offers: ["anyway", "discard"] }, // the same as the hand before it
    refused: { blocks: true, retried: false, offers: ["fix", "discard"] }, // not taken as it is: the words say why
    answering: { blocks: true, retried: false, offers: [] }, // an answer to the question about it is on its way
    fixing: { blocks: true, retried: false, offers: ["discard"] }, // in the form, to be fixed and recorded
    elsewhere: { blocks: true, retried: false, offers: ["discard"] }, // stored already, in another game
    gone: { blocks: false, retried: false, offers: ["discard"] }, // its game is no longer here
  };
  // The server's answer to a kept hand sent (its Scorepad-Answer header) and the state it leads to; "saved" ends
  // it, "fault" (or no answer at all) tries again later.
  const ANSWERS = { saved: null, fault: "waiting", clash: "clash", repeat: "repeat", passcode: "passcode",
    behind: "behind", refused: "refused", gone: "gone", elsewhere: "elsewhere" };
  const timing = { retry: [3000, 5000, 10000, 20000, 30000], hold: 30000, stale: 3 * 24 * 3600 * 1000 };

  // --- reading the kept hands and drafts ------------------------------------------------------------------
  const ofGame = (kept, game) => kept.filter((e) => e.game === game && e.state !== "gone");
  const lastKept = (kept, game) => ofGame(kept, game).reduce((n, e) => Math.max(n, e.hand), 0);
  const fixing = (kept, game) => ofGame(kept, game).find((e) => e.state === "fixing");
  const draftKey = (game, hand) => game + " " + hand;
  const draftsOf = (drafts, game) => Object.keys(drafts).filter((k) => k.startsWith(game + " "))
    .map((k) => Number(k.slice(game.length + 1))).sort((a, b) => a - b);

  // Whether the two-phone question about kept hand `id` still stands (the card offers to compare it): Scorepad's
  // answer to the asking may come after the hand was discarded or answered here, and then takes no card's place.
  function asked(model, id) {
    const e = (model.kept || []).find((k) => k.id === id);
    return Boolean(e) && STATES[e.state].offers.indexOf("compare") >= 0;
  }

  // The number the record form of `game` is for: past the hands kept here, or the kept hand it is fixing. When
  // the sheet lost hands before the kept ones (taken back on another phone, an older backup put back: Scorepad
  // held one behind, and they are `short`), the first hand lost, whatever the kept hands do meanwhile (sent again,
  // renumbered by a discard): this phone can record it again, and the kept hands then go after it. `lost`: the
  // sheet's next as the page heard it while a form typed in kept its own number (0: as `sheetNext`).
  function formNumber(model, game, sheetNext, lost) {
    const fix = fixing(model.kept, game), first = ofGame(model.kept, game)[0];
    const back = first && first.short && [sheetNext, lost].find((n) => n > 0 && n < first.hand);
    return fix ? fix.hand : back || Math.max(sheetNext, lastKept(model.kept, game) + 1);
  }
  // Short until one of them is on the sheet, or the sheet has one's number again (another phone's hand there).
  const short = (m, game, is) => ofGame(m.kept, game).forEach((k) => { k.short = is; });

  // Whether a save of the form (its token, its number) waits behind the hands kept here: hands go in the order
  // played: it waits behind those played before it (a hand the sheet lost goes first). The fix of a kept hand
  // goes at once (the ones after it wait for it).
  function queued(model, game, token, number) {
    const fix = fixing(model.kept, game);
    if (fix && (fix.token === token || fix.hand === number)) return false;
    return ofGame(model.kept, game).some((e) => e.token !== token && e.hand <= number);
  }

  // The kept hand to send now: the first of its game that is due, never past one that blocks; one at a time.
  function next(model, now) {
    if (model.kept.some((e) => e.state === "sending")) return null;
    const blocked = {};
    for (const e of model.kept) {
      if (blocked[e.game]) continue;
      const s = STATES[e.state];
      if (s.retried && (e.after || 0) <= now) return e;
      if (s.blocks) blocked[e.game] = true;
    }
    return null;
  }

  // When to look again for a hand to send: the soonest `after` of the hands that go by themselves and wait for
  // nothing but it (null: none will be due by itself).
  function wakeAt(model) {
    const blocked = {}, due = [];
    model.kept.forEach((e) => {
      if (blocked[e.game]) return;
      if (STATES[e.state].retried) due.push(e.after || 0);
      if (STATES[e.state].blocks) blocked[e.game] = true;
    });
    return due.length ? Math.min(...due) : null;
  }

  // --- changes every transition may make ------------------------------------------------------------------
  function forgetDraft(m, game, hand, token) {
    delete m.drafts[draftKey(game, hand)];
    if (token) draftsOf(m.drafts, game).forEach((n) => {
      if (m.drafts[draftKey(game, n)].token === token) delete m.drafts[draftKey(game, n)];
    });
  }

  // A kept hand found on the sheet (its answer, or the question about it, said so): it and its draft go.
  function onSheet(m, e, fx) {
    remove(m, e.id);
    short(m, e.game, false);
    forgetDraft(m, e.game, e.hand, e.token);
    fx.push({ do: "on-sheet", game: e.game, hand: e.hand }, { do: "refresh" });
  }

  // The kept hands and drafts of `game` numbered after `after` move by `by` (a hand before them went another way).
  function renumber(m, game, after, by) {
    if (!by) return;
    m.kept.forEach((e) => {
      if (e.game !== game || e.hand <= after) return;
      e.hand += by;
      e.body = e.body.map((p) => (p[0] === "expected" ? ["expected", String(e.hand)] : p));
    });
    const moving = draftsOf(m.drafts, game).filter((n) => n > after);
    (by > 0 ? moving.reverse() : moving).forEach((n) => {
      const to = draftKey(game, n + by);
      if (m.drafts[to]) return; // never over another draft: kept where it was
      m.drafts[to] = m.drafts[draftKey(game, n)];
      delete m.drafts[draftKey(game, n)];
    });
  }

  // Kept hand `e` becomes hand `to`, and the hands and drafts of its game after it move as far.
  function moveTo(m, e, to) {
    renumber(m, e.game, e.hand, to - e.hand);
    e.hand = to;
    e.body = e.body.map((p) => (p[0] === "expected" ? ["expected", String(e.hand)] : p));
  }

  const find = (m, id) => m.kept.find((e) => e.id === id);
  const remove = (m, id) => { m.kept = m.kept.filter((e) => e.id !== id); };
  // A hand held in `state`; one tried again by itself waits a while first (a waiting one goes at once).
  const hold = (e, state, now, words) => {
    const wait = STATES[state].retried && state !== "waiting";
    Object.assign(e, { state, words: words || "", after: wait ? now + timing.hold : 0 });
  };

  // --- the events --------------------------------------------------------------------------------------------
  const ON = {
    // A save of the record form got no answer, or waits behind kept hands: it is kept, in its place (a second
    // tap of the same form, or the fix of a held hand of its number, takes that one's place), and the form moves
    // on to the next hand.
    kept(m, ev, fx) {
      const e = Object.assign({}, ev.entry, { state: "waiting", words: "", after: 0, tries: 0 });
      m.kept = m.kept.filter((k) => !(k.token === e.token ||
        (k.game === e.game && k.hand === e.hand && /^(refused|behind|fixing)$/.test(k.state))));
      const at = m.kept.findIndex((k) => k.game === e.game && k.hand > e.hand);
      m.kept.splice(at < 0 ? m.kept.length : at, 0, e);
      forgetDraft(m, e.game, e.hand, e.token);
      fx.push({ do: "clear-form" }, { do: "drain" });
    },
    sent(m, ev) {
      const e = find(m, ev.id);
      if (e) e.state = "sending";
    },
    // Scorepad's answer to a kept hand sent.
    answer(m, ev, fx) {
      const e = find(m, ev.id);
      if (!e) return;
      const state = ev.kind in ANSWERS ? ANSWERS[ev.kind] : ev.kind ? "refused" : "waiting";
      if (state === null) { // on the sheet now: the form of its game is numbered past it even before the poll
        onSheet(m, e, fx);
      } else if (state === "waiting") {
        e.state = "waiting";
        e.tries = (e.tries || 0) + 1;
        e.after = ev.now + timing.retry[Math.min(e.tries, timing.retry.length) - 1];
      } else {
        hold(e, state, ev.now, ev.words);
        e.wrong = ev.wrong || [];
        e.yes = ev.yes || "repeat"; // what "record it anyway" says yes with (repeat, or meld_ok)
        e.next = ev.next || 0; // the number the sheet took next then
        if (/^(behind|clash|repeat)$/.test(state)) short(m, e.game, state === "behind");
        if (state === "clash") fx.push({ do: "ask", id: e.id }); // at once, where nothing is being typed
      }
      fx.push({ do: "drain" });
    },
    // The card's answers.
    discard(m, ev, fx) {
      const e = find(m, ev.id);
      if (!e) return;
      remove(m, e.id);
      // its number is free for the hands kept after it, unless another phone's hand is there (or its game is gone)
      if (e.state !== "clash" && e.state !== "gone") renumber(m, e.game, e.hand, -1);
      fx.push({ do: "question-gone", game: e.game, hand: e.hand }, { do: "drain" });
    },
    anyway(m, ev, fx) {
      const e = find(m, ev.id);
      if (!e || e.state !== "repeat") return;
      const yes = e.yes || "repeat";
      e.body = e.body.filter((p) => p[0] !== yes).concat([[yes, "1"]]);
      hold(e, "waiting", ev.now);
      fx.push({ do: "drain" });
    },
    // A hand held behind (the sheet lost a hand since it was typed: deleted on another phone, or an older backup
    // put back) is fixed as the next hand the sheet takes, as its card says: the page's, or if the page has not
    // heard yet, the one Scorepad named when it held the hand. The hands kept after it move with it.
    fix(m, ev, fx) {
      const e = find(m, ev.id);
      if (!e || STATES[e.state].offers.indexOf("fix") < 0) return;
      m.kept.forEach((k) => { if (k.state === "fixing") k.state = "refused"; });
      fx.push({ do: "fill", id: e.id, from: e.hand });
      const to = [ev.sheetNext, e.next].find((n) => n > 0 && n < e.hand);
      if (e.state === "behind" && to) moveTo(m, e, to);
      e.state = "fixing";
    },
    // The two-phone question about hand `hand` (typed with `token`) answered: its draft goes. A kept hand the
    // answer discards goes at once; one the answer sends ("mine is right", "keep it as hand 8") waits, held,
    // until the answer has landed, and the hands kept after it wait with it.
    answered(m, ev, fx) {
      forgetDraft(m, ev.game, ev.hand, ev.token);
      const e = m.kept.find((k) => k.game === ev.game && k.token === ev.token);
      if (!e) return ON.sheetChanged(m, ev, fx); // its page may bring the hand a hand held behind waits for
      if (ev.how === "mine" || ev.how === "keep") {
        e.state = "answering";
        e.keepAs = ev.how === "keep" ? ev.keepAs : null;
        return;
      }
      if (ev.how === "goOn" && ev.keepAs) { // still to be finished: in the form as that hand, the later ones after it
        moveTo(m, e, ev.keepAs);
        e.state = "fixing";
        return;
      }
      remove(m, e.id); // the same hand
      fx.push({ do: "drain" });
    },
    landed(m, ev, fx) {
      const e = m.kept.find((k) => k.token === ev.token && k.state === "answering");
      if (!e) return;
      if (ev.kind === "behind") { // the hand it answered about was deleted meanwhile: it goes as it was typed
        hold(e, "waiting", ev.now);
        return fx.push({ do: "clear-form" }, { do: "drain" });
      }
      if (ev.kind !== "saved") { // refused, or asked again: asked about again, the hands after it still wait
        hold(e, "clash", ev.now, e.words);
        return;
      }
      remove(m, e.id);
      if (e.keepAs) renumber(m, e.game, e.hand, e.keepAs - e.hand);
      fx.push({ do: "drain" });
    },
    // The record form's own save is on the sheet (its answer, or the poll saw its token): its draft goes, and
    // the kept hand it was (its token) or was fixing (its number).
    formSaved(m, ev, fx) {
      forgetDraft(m, ev.game, ev.hand, ev.token);
      m.kept = m.kept.filter((e) => !(e.token === ev.token ||
        (e.game === ev.game && e.hand === ev.hand && e.state === "fixing")));
      ON.sheetChanged(m, ev, fx); // it may be the hand a hand held behind waits for
    },
    // Scorepad can be reached again (the network is back, the phone woke, an answer came): what waits for an
    // answer goes now, not after its wait.
    woke(m, ev, fx) {
      m.kept.forEach((e) => { if (e.state === "waiting") e.after = 0; });
      fx.push({ do: "drain" });
    },
    // The poll brought a sheet that changed: a hand waiting for a hand to be back may fit now.
    sheetChanged(m, ev, fx) {
      m.kept.forEach((e) => { if (e.state === "behind") e.after = 0; });
      fx.push({ do: "drain" });
    },
    // A page opened (a reload, another page of Scorepad): what was on its way when the last page went is asked
    // or sent again, and a hand held for the passcode (it may have been typed) or behind (its sheet may be whole
    // again) tries again.
    opened(m, ev, fx) {
      m.kept.forEach((e) => {
        if (e.state === "answering") hold(e, "clash", ev.now, e.words);
        else if (e.state === "sending") e.state = "waiting";
        else if (e.state === "fixing") e.state = "refused";
        if (/^(passcode|waiting|behind)$/.test(e.state)) e.after = 0;
      });
      Object.keys(m.drafts).forEach((k) => { if (ev.now - m.drafts[k].at > timing.stale) delete m.drafts[k]; });
      fx.push({ do: "drain" });
    },

    // --- drafts ------------------------------------------------------------------------------------------
    typed(m, ev) {
      forgetDraft(m, ev.game, 0, ev.draft.token); // a form renumbered takes its draft along
      m.drafts[draftKey(ev.game, ev.hand)] = ev.draft;
    },
    cleared(m, ev) {
      forgetDraft(m, ev.game, ev.hand);
    },
    // A fresh form for hand `hand` is on the page: what was typed for it comes back; what was typed for a hand
    // on the sheet now is asked about; what was typed for a later hand (hands deleted elsewhere) comes back
    // under this number, saying so.
    shown(m, ev, fx) {
      const { game, hand } = ev;
      if (m.drafts[draftKey(game, hand)]) return fx.push({ do: "put-back", game, hand, from: hand });
      const tokens = m.kept.map((e) => e.token);
      const others = draftsOf(m.drafts, game).filter((n) => tokens.indexOf(m.drafts[draftKey(game, n)].token) < 0);
      const earlier = others.filter((n) => n < hand).pop();
      if (earlier !== undefined) return fx.push({ do: "ask-draft", game, hand: earlier });
      const later = others.find((n) => n > hand);
      if (later === undefined) return;
      m.drafts[draftKey(game, hand)] = m.drafts[draftKey(game, later)];
      delete m.drafts[draftKey(game, later)];
      fx.push({ do: "put-back", game, hand, from: later });
    },
    // What the question about a draft (`hand`) or a kept hand (`id`) came to: asked (its answer settles it),
    // no such hand on the sheet after all, this phone's own hand on the sheet (saved while its answer was lost:
    // a reload mid-save), or not asked at all (no answer): then nothing is moved, and it is asked again later. A
    // typed hand is never renumbered because a question could not be asked.
    compared(m, ev, fx) {
      const e = ev.id && find(m, ev.id);
      if (ev.result === "question") return;
      if (ev.result === "saved") {
        if (e) return onSheet(m, e, fx);
        const draft = m.drafts[draftKey(ev.game, ev.hand)];
        forgetDraft(m, ev.game, ev.hand, draft && draft.token);
        return fx.push({ do: "draft-saved", game: ev.game, hand: ev.hand }, { do: "drain" });
      }
      if (e && ev.result === "gone") return hold(e, "gone", ev.now, ev.words);
      if (e && ev.result === "none") { // the sheet has no such hand any more: it can go as it was typed
        hold(e, "waiting", ev.now);
        return fx.push({ do: "drain" });
      }
      const from = draftKey(ev.game, ev.hand), to = ev.to && draftKey(ev.game, ev.to);
      if (!e && ev.result === "none") {
        if (!to || !m.drafts[from] || m.drafts[to]) return;
        m.drafts[to] = m.drafts[from];
        delete m.drafts[from];
        return fx.push({ do: "put-back", game: ev.game, hand: ev.to, from: ev.hand });
      }
      fx.push({ do: "not-compared", game: ev.game, hand: e ? e.hand : ev.hand, id: ev.id || null });
    },
  };

  // One event: the kept hands and drafts after it, and what the page is to do. The model given is not changed.
  function step(model, event) {
    const m = { kept: (model.kept || []).map((e) => Object.assign({}, e)), drafts: Object.assign({}, model.drafts) };
    const fx = [];
    if (!ON[event.type]) throw new Error("no such event: " + event.type);
    ON[event.type](m, event, fx);
    return { kept: m.kept, drafts: m.drafts, effects: fx };
  }

  root.ScorepadSave = { STATES, ANSWERS, timing, step, next, wakeAt, formNumber, queued, draftKey, asked };
})(typeof window !== "undefined" ? window : globalThis);
