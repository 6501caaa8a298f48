// A model of Scorepad's server and of the phones' pages around the save machine, for the model-based test
// (test_save_model.py): random sequences of what a family does on two or three phones, checked after every step.
// The server's side follows services.games.record_hand and the two-phone question; each phone's page follows
// what outbox.js, record.js, drafts.js and live.js do with the machine's effects. Test code only.
(function (root) {
  "use strict";
  const M = root.ScorepadSave;

  function simulate(actions, phonesCount) {
    // --- the server ----------------------------------------------------------------------------------------
    let games = [], uids = 0, backup = null;
    const newUid = () => "u" + ++uids;
    function newGame() {
      const id = games.reduce((n, g) => Math.max(n, g.id), 0) + 1; // ids are reused after a restore
      const game = { id, uid: newUid(), hands: [] };
      games.push(game);
      return game;
    }
    const byId = (id) => games.find((g) => g.id === id);
    const stored = () => games.flatMap((g) => g.hands.map((h, i) => ({ game: g, hand: h, number: i + 1 })));

    // services.record_hand, as far as the phone can tell: the answer's kind
    function record(gameId, body, who) {
      const b = Object.fromEntries(body), game = byId(gameId);
      if (!game || (b.game && b.game !== game.uid)) return "gone";
      const found = stored().find((s) => s.hand.token === b.token);
      if (found) return found.game === game ? "saved" : "elsewhere";
      const expected = Number(b.expected);
      if (expected <= game.hands.length) {
        const there = game.hands[expected - 1];
        // a phone is never asked about a hand of its own: its kept hands go past the ones it recorded
        if (who !== undefined && there.label && fate[there.label] && fate[there.label].phone === who &&
            fate[there.label].state !== "restored away") {
          violations.push("phone " + who + " is asked whether " + b.label + " is its own " + there.label);
        }
        return "clash";
      }
      if (expected > game.hands.length + 1) return "behind";
      if (b.label === "bad") return "refused";
      const last = game.hands[game.hands.length - 1];
      if (last && last.value === b.value && b.repeat !== "1") return "repeat";
      game.hands.push({ token: b.token, label: b.label, value: b.value });
      return "saved";
    }

    // --- the phones ----------------------------------------------------------------------------------------
    let now = 1e6, labels = 0;
    const fate = {}; // typed hand (label) -> {game: uid typed for, state: "typed" | "kept" | "dropped"}
    const violations = [], trace = [];
    const phones = [];
    for (let i = 0; i < phonesCount; i++) phones.push({ i, model: { kept: [], drafts: {} }, online: true,
      page: null, form: null, question: null });

    function step(phone, type, fields) {
      const out = M.step(phone.model, Object.assign({ type, now }, fields));
      phone.model = { kept: out.kept, drafts: out.drafts };
      out.effects.forEach((fx) => carry(phone, fx));
      sync(phone);
      return out;
    }
    const game = (phone) => byId(phone.page);
    const sheetNext = (phone) => (game(phone) ? game(phone).hands.length + 1 : 1);

    // The form numbered as record.js's sync numbers it (from the sheet it last saw, past the kept hands).
    function sync(phone) {
      if (!phone.form) return;
      phone.form.number = M.formNumber(phone.model, phone.form.game, phone.form.sheetNext);
    }
    function freshForm(phone) {
      const g = game(phone);
      if (!g) { phone.form = null; return; }
      phone.form = { game: g.uid, sheetNext: g.hands.length + 1, number: 0, token: "t" + ++labels, label: null,
        value: null };
      phone.question = null;
      sync(phone);
      step(phone, "shown", { game: g.uid, hand: phone.form.number });
    }
    function typeHand(phone, value) {
      const f = phone.form;
      if (!f || phone.question) return;
      if (!f.label) { f.label = "h" + ++labels; fate[f.label] = { game: f.game, state: "typed", phone: phone.i }; }
      f.value = value;
      step(phone, "typed", { game: f.game, hand: f.number, draft: { values: [["label", f.label],
        ["value", value]], auto: [], token: f.token, at: now } });
    }
    const bodyOf = (phone) => [["token", phone.form.token], ["expected", String(phone.form.number)],
      ["game", phone.form.game], ["label", phone.form.label], ["value", phone.form.value]];

    // the effects, as the page carries them out
    function carry(phone, fx) {
      const f = phone.form;
      if (fx.do === "clear-form" && f) {
        Object.assign(f, { label: null, value: null, token: "t" + ++labels });
      } else if (fx.do === "fill" && f) {
        const e = phone.model.kept.find((k) => k.id === fx.id);
        const b = Object.fromEntries(e.body);
        Object.assign(f, { token: e.token, label: b.label, value: b.value });
      } else if (fx.do === "put-back" && f && f.game === fx.game) {
        const d = phone.model.drafts[M.draftKey(fx.game, fx.hand)];
        if (d && !f.label) {
          const v = Object.fromEntries(d.values);
          Object.assign(f, { label: v.label, value: v.value, token: d.token });
        }
      } else if (fx.do === "ask-draft" && f && phone.online) {
        const d = phone.model.drafts[M.draftKey(fx.game, fx.hand)];
        if (d) ask(phone, { game: fx.game, hand: fx.hand, token: d.token, values: d.values, to: f.number });
      } else if (fx.do === "question-gone" && phone.question && phone.question.hand === fx.hand) {
        phone.question = null; // the page is loaded again: nothing is left to ask about it
        freshForm(phone);
      } else if (fx.do === "on-sheet" && f && f.game === fx.game) {
        f.sheetNext = Math.max(f.sheetNext, fx.hand + 1);
      }
    }

    function ask(phone, subject) {
      const g = byId(phone.page);
      let result;
      if (!phone.online) result = "failed";
      else if (!g || g.uid !== subject.game) result = "gone";
      else if (g.hands.some((h) => h.token === subject.token)) result = "saved"; // its own save, on the sheet
      else if (subject.hand > g.hands.length) result = "none";
      else result = "question";
      if (result === "question") phone.question = subject;
      step(phone, "compared", { id: subject.id || null, game: subject.game, hand: subject.hand, to: subject.to,
        result });
    }

    function drain(phone) {
      if (!phone.online) return;
      const e = M.next(phone.model, now);
      if (!e) return;
      step(phone, "sent", { id: e.id });
      const kind = record(Number(e.url), e.body, phone.i);
      const out = step(phone, "answer", { id: e.id, kind, words: kind });
      if (out.effects.some((fx) => fx.do === "ask") && phone.form && !phone.form.label && phone.page === Number(e.url)) {
        ask(phone, { id: e.id, game: e.game, hand: e.hand, token: e.token, values: e.body });
      }
    }

    function recordForm(phone) {
      const f = phone.form;
      if (!f || !f.label || phone.question) return;
      const entry = { id: "e" + ++labels, game: f.game, url: String(phone.page), body: bodyOf(phone), token: f.token,
        hand: f.number, summary: f.label, at: now };
      if (M.queued(phone.model, f.game, f.token, f.number) || !phone.online) {
        fate[f.label].state = "kept";
        step(phone, "kept", { entry });
        return;
      }
      const kind = record(phone.page, entry.body, phone.i);
      if (kind === "saved") {
        step(phone, "formSaved", { game: f.game, hand: f.number, token: f.token });
        freshForm(phone);
      } else if (kind === "clash") {
        phone.question = { game: f.game, hand: f.number, token: f.token, values: entry.body };
      } else if (kind === "gone" || kind === "elsewhere") {
        freshForm(phone);
      } // refused, repeat, behind: the form stays as typed, with the words
    }

    // The question on screen answered `how`.
    function answer(phone, how) {
      const q = phone.question, g = game(phone);
      if (!q || !g) return;
      const kept = phone.model.kept.find((e) => e.token === q.token);
      const b = Object.fromEntries(q.values);
      if (how === "same" || how === "goOn") {
        step(phone, "answered", { game: q.game, hand: q.hand, token: q.token, how, keepAs: g.hands.length + 1 });
        if (how === "same" && b.label) fate[b.label].state = "dropped"; // the family said so
        freshForm(phone);
        if (how === "goOn" && phone.form) { // the typed hand comes back in the form, as the next one
          Object.assign(phone.form, { label: b.label, value: b.value });
          if (b.label) fate[b.label].state = "typed";
          typeHand(phone, b.value);
        }
        return;
      }
      step(phone, "answered", { game: q.game, hand: q.hand, token: q.token, how, keepAs: g.hands.length + 1 });
      let kind;
      if (!phone.online) kind = null;
      else if (how === "mine") { // the hand on the sheet becomes this one
        const h = g.hands[q.hand - 1];
        if (h && h.token !== q.token && !stored().some((s) => s.hand.token === q.token)) {
          fate[h.label] && (fate[h.label].state = "dropped"); // overwritten, as the family chose
          Object.assign(h, { token: q.token, label: b.label, value: b.value });
          kind = "saved";
        } else kind = h ? "saved" : "refused";
      } else {
        kind = record(phone.page, q.values.map((p) => (p[0] === "expected" ? ["expected", String(g.hands.length + 1)] : p))
          .concat([["repeat", "1"]]));
      }
      step(phone, "landed", { token: q.token, kind, now });
      if (kind === "saved" && !kept && b.label) step(phone, "formSaved", { game: q.game, hand: q.hand, token: q.token });
      freshForm(phone);
    }

    function poll(phone) {
      const g = game(phone);
      if (!phone.online || !g || !phone.form) return;
      step(phone, "sheetChanged", {});
      const f = phone.form;
      if (f.label && f.number <= g.hands.length && !phone.question) {
        const mine = phone.model.kept.some((e) => e.game === f.game && e.state !== "gone");
        if (!mine) ask(phone, { game: f.game, hand: f.number, token: f.token, values: bodyOf(phone) });
      } else if (!f.label) {
        f.sheetNext = g.hands.length + 1;
        sync(phone);
      }
    }

    // --- checks after every step ---------------------------------------------------------------------------
    function check(where) {
      const seen = {};
      stored().forEach((s) => {
        const l = s.hand.label;
        if (!l) return;
        if (seen[l]) violations.push(where + ": " + l + " is on a sheet twice");
        seen[l] = true;
        if (fate[l] && fate[l].game !== s.game.uid) violations.push(where + ": " + l + " landed in another game");
      });
      phones.forEach((p, i) => p.model.kept.forEach((e) => {
        const said = e.body.find((x) => x[0] === "expected")[1];
        if (Number(said) !== e.hand) violations.push(where + ": phone " + i + " says hand " + e.hand + " but sends " + said);
      }));
      Object.keys(fate).forEach((l) => {
        if (fate[l].state !== "kept" || seen[l]) return;
        const held = phones.some((p) => p.model.kept.some((e) => e.summary === l));
        if (!held) violations.push(where + ": kept hand " + l + " is lost");
      });
    }

    // --- the sequence ------------------------------------------------------------------------------------------
    const first = newGame();
    phones.forEach((p) => { p.page = first.id; freshForm(p); });
    const DO = [
      (p, n) => typeHand(p, "v" + (n % 3)),
      (p) => recordForm(p),
      (p) => drain(p),
      (p) => { p.online = !p.online; if (p.online) step(p, "woke", {}); },
      (p) => poll(p),
      (p, n) => answer(p, ["same", "mine", "keep", "goOn"][n % 4]),
      (p) => { step(p, "opened", {}); p.question = null; freshForm(p); }, // a reload
      (p, n) => { now += [500, 3000, 31000][n % 3]; },
      (p, n) => { // a button of the kept-hands card
        const held = p.model.kept.filter((e) => M.STATES[e.state].offers.length);
        const e = held[n % Math.max(1, held.length)];
        if (!e) return;
        const offer = M.STATES[e.state].offers[n % M.STATES[e.state].offers.length];
        if (offer === "discard") { fate[e.summary].state = "dropped"; step(p, "discard", { id: e.id }); }
        else if (offer === "anyway") step(p, offer, { id: e.id });
        else if (offer === "fix") step(p, offer, { id: e.id, sheetNext: p.form ? p.form.sheetNext : 0 });
        else if (offer === "compare" && p.online && p.page === Number(e.url)) ask(p, { id: e.id, game: e.game,
          hand: e.hand, token: e.token, values: e.body });
      },
      (p) => { // the fixed form recorded
        if (p.form && p.model.kept.some((e) => e.state === "fixing")) recordForm(p);
      },
      () => { backup = JSON.parse(JSON.stringify({ games, uids })); }, // a backup is made
      () => { // an older backup restored: the hands saved since are in the before-restore copy, not on any sheet
        if (!backup) return;
        const before = stored().map((x) => x.hand.label);
        games = JSON.parse(JSON.stringify(backup.games));
        const after = stored().map((x) => x.hand.label);
        before.filter((l) => l && after.indexOf(l) < 0).forEach((l) => { fate[l].state = "restored away"; });
      },
      (p) => { p.page = newGame().id; freshForm(p); }, // a new game (its id may be a gone game's)
      (p, n) => { // the evening's rush: this phone, offline, keeps hands while another records the same numbers
        const other = phones[(p.i + 1) % phones.length];
        p.online = false;
        for (let k = 0; k <= n % 3; k++) { typeHand(p, "r" + k); recordForm(p); }
        if (other.page === p.page && other.online) { poll(other); typeHand(other, "o" + n); recordForm(other); }
        p.online = true;
        step(p, "woke", {});
      },
    ];
    // How often each is done, of 100: typing and recording most, the network and the question often, a restore
    // or a new game now and then.
    const WEIGHTS = [14, 14, 10, 8, 8, 14, 3, 6, 8, 3, 1, 3, 2, 6];
    const pick = (w) => { let at = 0; for (let i = 0; i < WEIGHTS.length; i++) { at += WEIGHTS[i]; if (w < at) return i; } return 0; };
    actions.forEach(([w, who, n], i) => {
      const what = pick(w % 100);
      const phone = phones[who % phones.length];
      DO[what](phone, n);
      trace.push(i + ": phone " + (who % phones.length) + " " + ["type", "record", "drain", "network", "poll",
        "answer", "reload", "time", "card", "fix-record", "backup", "restore", "new game", "rush"][what] + " " + n);
      check(trace[trace.length - 1]);
    });
    // then every phone online, for long enough: what is kept goes or waits for a person's answer, never stuck
    phones.forEach((p) => { p.online = true; step(p, "woke", {}); });
    for (let round = 0; round < 60; round++) {
      now += 31000;
      phones.forEach((p) => { poll(p); drain(p); });
    }
    check("settled");
    phones.forEach((p, i) => {
      const stuck = M.next(p.model, now + 1e9);
      // (one held behind a hand a restore took away waits for the family's Fix, which its card offers)
      if (stuck && stuck.state === "waiting") violations.push("settled: phone " + i + " still has hand " + stuck.hand + " to send");
      if (p.model.kept.some((e) => e.state === "sending")) violations.push("settled: phone " + i + " still sending");
    });
    return { violations: violations.slice(0, 5), trace };
  }

  root.ScorepadSimulation = { simulate, ACTIONS: 14 };
})(globalThis);
