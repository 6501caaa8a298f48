"""The phone's save protocol as rows of steps, one per scenario the browser tests play on two phones and per
seam between them, and how a row is run against the machine: shared by the machine's tests and by the test of
its lean copy."""

from __future__ import annotations

from tests.phone.machine import Phone

# A row is a list of steps; a step is a tuple: an event the phone meets, or something that must hold then.
#   ("keep", label, number)                       a save kept on the phone (no answer, or behind kept hands)
#   ("send", label, answer[, {fields}])           `label` is the one sent next, and gets `answer` (None: none)
#   ("nothing to send",)                          every kept hand waits
#   ("discard" | "fix" | "anyway", label)         a button of the kept-hands card
#   ("fix", label, sheet_next)                    Fix, on a page whose sheet takes hand `sheet_next` next
#   ("answered", label, how[, keep_as])           the two-phone question about a kept hand answered
#   ("answered draft", number, token, how)        ... about what is typed in the form
#   ("landed", label, saved[, kind])              that answer's own answer (its Scorepad-Answer kind)
#   ("form saved", token, number)                 the record form's save is on the sheet
#   ("typed", number, token) / ("shown", number)  the form typed in / a fresh form on the page
#   ("compared", number, result, form_number)     what asking about a draft came to
#   ("sheet changed",) / ("opened",) / ("later", ms)
#   ("kept", [(label, number, state), ...])       the kept hands, in the order they go
#   ("drafts", {number: token})                   the drafts
#   ("form number", sheet_next, number)           the number the record form shows
#   ("queued", token, number, bool)               whether a save of the form waits behind kept hands
#   ("did", effect, {fields})  /  ("did not", effect)


def run(phone: Phone, steps) -> None:
    for step in steps:
        verb, *args = step
        where = f"at {step!r}: {phone.kept()} {phone.drafts()} {phone.effects}"
        if verb == "keep":
            phone.keep(args[0], args[1])
        elif verb == "send":
            phone.send(args[0], args[1], words="said", wrong=["counters_0"], **(args[2] if len(args) > 2 else {}))
        elif verb == "nothing to send":
            assert phone.next() is None, where
        elif verb in ("discard", "fix", "anyway"):
            phone.on(verb, id=phone.id(args[0]), **({"sheetNext": args[1]} if len(args) > 1 else {}))
        elif verb == "answered":
            entry = phone.entry(args[0])
            phone.on("answered", game=phone.game, hand=entry["hand"], token=entry["token"], how=args[1],
                     keepAs=args[2] if len(args) > 2 else None)
        elif verb == "answered draft":
            phone.on("answered", game=phone.game, hand=args[0], token=args[1], how=args[2])
        elif verb == "landed":
            phone.on("landed", token=phone.entry(args[0])["token"],
                     kind=args[2] if len(args) > 2 else "saved" if args[1] else "clash")
        elif verb == "form saved":
            phone.on("formSaved", game=phone.game, token=args[0], hand=args[1])
        elif verb == "typed":
            phone.type(args[0], args[1], bid="55")
        elif verb == "shown":
            phone.on("shown", game=phone.game, hand=args[0])
        elif verb == "compared":
            phone.on("compared", game=phone.game, hand=args[0], result=args[1], to=args[2])
        elif verb == "sheet changed":
            phone.on("sheetChanged")
        elif verb in ("opened", "woke"):
            phone.on(verb)
        elif verb == "later":
            phone.later(args[0])
        elif verb == "kept":
            assert phone.kept() == args[0], where
        elif verb == "drafts":
            assert phone.drafts() == args[0], where
        elif verb == "form number":
            assert phone.form_number(args[0]) == args[1], where
        elif verb == "queued":
            assert phone.queued(args[0], args[1]) is args[2], where
        elif verb == "did":
            assert any(all(e.get(k) == v for k, v in args[1].items()) for e in phone.did(args[0])), where
        elif verb == "did not":
            assert phone.did(args[0]) == [], where
        else:
            raise AssertionError(f"no such step: {verb}")


# --- test_kept_hands_settled_browser.py ---------------------------------------------------------------------
ROWS = {
    "discarding a kept hand another phone recorded leaves the next kept hand its number": [
        ("keep", "a", 2), ("keep", "b", 3),
        ("send", "a", "clash"), ("did", "ask", {}), ("nothing to send",),
        ("discard", "a"), ("kept", [("b", 3, "waiting")]), ("did", "question-gone", {"hand": 2}),
        ("send", "b", "saved"), ("kept", []),
    ],
    "the hands kept behind an answered question land after it": [
        ("keep", "a", 2), ("keep", "b", 3), ("send", "a", "clash"),
        ("answered", "a", "keep", 3), ("kept", [("a", 2, "answering"), ("b", 3, "waiting")]),
        ("nothing to send",),
        ("landed", "a", True), ("kept", [("b", 4, "waiting")]), ("send", "b", "saved"),
    ],
    "a refused kept hand fixed in the form lands before the hands kept after it": [
        ("keep", "a", 1), ("keep", "b", 2), ("send", "a", "refused"), ("nothing to send",),
        ("form number", 1, 3),
        ("fix", "a"), ("did", "fill", {}), ("kept", [("a", 1, "fixing"), ("b", 2, "waiting")]),
        ("form number", 1, 1), ("queued", "a", 1, False), ("queued", "new", 1, False),
        ("form saved", "a", 1), ("kept", [("b", 2, "waiting")]), ("form number", 2, 3),
        ("send", "b", "saved"),
    ],
    "mine is right about a hand deleted on the other phone meanwhile sends the kept hand as it was typed": [
        ("keep", "a", 3), ("keep", "b", 4), ("send", "a", "clash"), ("answered", "a", "mine"),
        ("landed", "a", False, "behind"), ("did", "clear-form", {}),
        ("kept", [("a", 3, "waiting"), ("b", 4, "waiting")]),
        ("send", "a", "saved"), ("send", "b", "saved"), ("kept", []),
    ],
    "a kept copy of the hand that won on the other phone is asked about": [
        ("keep", "a", 3), ("send", "a", "clash"), ("answered", "a", "same"), ("kept", []), ("form number", 4, 4),
    ],
    "kept hands wait while the answer to the question is asked again": [
        ("keep", "a", 2), ("keep", "b", 3), ("send", "a", "clash"),
        ("answered", "a", "keep", 3), ("landed", "a", False), ("kept", [("a", 2, "clash"), ("b", 3, "waiting")]),
        ("later", 4000), ("nothing to send",),
        ("answered", "a", "keep", 4), ("landed", "a", True), ("kept", [("b", 5, "waiting")]),
    ],
    "a hand brought back from the meld count waits behind the kept hands under the next number": [
        ("keep", "a", 2), ("keep", "b", 3), ("send", "a", "clash"),
        ("form number", 2, 4), ("queued", "meld", 4, True), ("keep", "c", 4),
        ("kept", [("a", 2, "clash"), ("b", 3, "waiting"), ("c", 4, "waiting")]),
        ("answered", "a", "keep", 3), ("landed", "a", True),
        ("kept", [("b", 4, "waiting"), ("c", 5, "waiting")]),
        ("send", "b", "saved"), ("send", "c", "saved"),
    ],
    "a fixed kept hand leaves no copy of itself in the next hand's form": [
        ("keep", "a", 2), ("send", "a", "refused"), ("fix", "a"), ("typed", 2, "a"),
        ("form saved", "a", 2), ("kept", []), ("drafts", {}), ("shown", 3), ("did not", "put-back"),
    ],
    "a kept hand waits for a hand taken back on the other phone and lands after it": [
        ("keep", "a", 3), ("send", "a", "behind"), ("kept", [("a", 3, "behind")]), ("nothing to send",),
        ("later", 10_000), ("nothing to send",),  # not on every poll: only when the sheet changed, or in 30 s
        ("sheet changed",), ("send", "a", "saved"),
    ],
    "a hand held behind, fixed, goes as the sheet's next hand and the hands kept after it move up with it": [
        ("keep", "a", 3), ("keep", "b", 4), ("send", "a", "behind"), ("form number", 2, 2),
        ("fix", "a", 2), ("did", "fill", {"from": 3}), ("kept", [("a", 2, "fixing"), ("b", 3, "waiting")]),
        ("form number", 2, 2), ("queued", "a", 2, False), ("queued", "new", 2, False),
        ("form saved", "a", 2), ("kept", [("b", 3, "waiting")]), ("form number", 3, 4), ("send", "b", "saved"),
    ],
    "a hand held behind a hand the sheet lost: the form is for the lost hand, whose save goes first, then the kept": [
        ("keep", "a", 4), ("keep", "b", 5), ("send", "a", "behind"), ("form number", 3, 3), ("queued", "new", 3, False),
        ("queued", "new", 4, True), ("form saved", "new", 3), ("kept", [("a", 4, "behind"), ("b", 5, "waiting")]),
        ("form number", 4, 6), ("send", "a", "saved"), ("send", "b", "saved"), ("kept", []),
    ],
    "the form stays on the lost hand while the held hand is sent again, and after a discard renumbers the kept": [
        ("keep", "a", 4), ("keep", "b", 5), ("send", "a", "behind"), ("later", 30_000), ("send", "a", None),
        ("form number", 3, 3), ("discard", "a"), ("kept", [("b", 4, "waiting")]), ("form number", 3, 3),
        ("queued", "new", 3, False),
    ],
    "a hand held behind goes again when the question about what was typed is answered, and when a page opens": [
        ("keep", "a", 4), ("send", "a", "behind"), ("nothing to send",), ("typed", 3, "t3"),
        ("answered draft", 3, "t3", "same"), ("send", "a", "behind"), ("nothing to send",), ("opened",),
        ("send", "a", "saved"),
    ],
    "a hand held behind, on a page whose sheet has not heard of the lost hand, leaves the form past the kept": [
        ("keep", "a", 3), ("send", "a", "behind"), ("form number", 3, 4), ("queued", "new", 4, True),
    ],
    "a hand held behind, fixed on a page that has not heard of the lost hand yet, goes as Scorepad's next": [
        ("keep", "a", 3), ("send", "a", "behind", {"next": 2}), ("fix", "a", 3), ("kept", [("a", 2, "fixing")]),
    ],
    "a refused kept hand, fixed, keeps its number: only a hand held behind takes the sheet's next": [
        ("keep", "a", 3), ("send", "a", "refused"), ("fix", "a", 2), ("kept", [("a", 3, "fixing")]),
    ],
    "a hand held behind is tried again by itself after a while": [
        ("keep", "a", 3), ("send", "a", "behind"), ("later", 30_000), ("send", "a", "saved"),
    ],
    "the next hand's form does not carry the refusal of the hand kept": [
        ("keep", "a", 1), ("did", "clear-form", {}),
    ],
    "a hand being typed when the question is answered stays in the form past the kept hands": [
        ("keep", "a", 2), ("keep", "b", 3), ("send", "a", "clash"), ("typed", 4, "t4"),
        ("answered", "a", "keep", 3), ("landed", "a", True),
        ("kept", [("b", 4, "waiting")]), ("drafts", {5: "t4"}), ("form number", 2, 5),
        ("shown", 5), ("did", "put-back", {"hand": 5, "from": 5}),
    ],
    # --- test_two_phones_browser.py -------------------------------------------------------------------------
    "the same hand typed on two phones: 'same hand' forgets what was typed": [
        ("typed", 1, "t1"), ("answered draft", 1, "t1", "same"), ("drafts", {}), ("shown", 2), ("did not", "ask-draft"),
    ],
    "a form being typed is asked about when the poll brings its hand, and goes on as the next hand": [
        ("typed", 1, "t1"), ("shown", 2), ("did", "ask-draft", {"hand": 1}),
        ("answered draft", 1, "t1", "goOn"), ("drafts", {}),
    ],
    "a half-typed hand survives a reload": [
        ("typed", 1, "t1"), ("opened",), ("shown", 1), ("did", "put-back", {"hand": 1, "from": 1}),
    ],
    "a hand typed for a later hand comes back as this one when hands were deleted on another phone": [
        ("typed", 3, "t3"), ("shown", 2), ("did", "put-back", {"hand": 2, "from": 3}), ("drafts", {2: "t3"}),
    ],
    "hands saved with the network cut land once and in order": [
        ("keep", "a", 1), ("keep", "b", 2), ("keep", "c", 3), ("form number", 1, 4),
        ("send", "a", None), ("kept", [("a", 1, "waiting"), ("b", 2, "waiting"), ("c", 3, "waiting")]),
        ("nothing to send",), ("later", 3000),
        ("send", "a", "saved"), ("send", "b", "saved"), ("send", "c", "saved"), ("kept", []),
    ],
    "hands saved while the server is down wait longer each time, and go once it is back": [
        ("keep", "a", 1), ("send", "a", "fault"), ("later", 3000), ("send", "a", None), ("later", 3000),
        ("nothing to send",), ("later", 2000), ("send", "a", "saved"),
    ],
    "a kept hand goes at once when the network comes back": [
        ("keep", "a", 1), ("send", "a", None), ("nothing to send",), ("woke",), ("send", "a", "saved"),
    ],
    "a kept hand goes when the page is next opened": [
        ("keep", "a", 1), ("send", "a", None), ("nothing to send",), ("opened",), ("send", "a", "saved"),
    ],
    # --- test_failed_save_browser.py ------------------------------------------------------------------------
    "a save with no answer is kept on the phone and lands once by itself": [
        ("keep", "a", 1), ("did", "drain", {}), ("send", "a", None), ("later", 3000), ("send", "a", "saved"),
        ("did", "refresh", {}),
    ],
    # --- the seams ------------------------------------------------------------------------------------------
    "a typed hand is never renumbered because the question about it could not be asked": [
        ("typed", 1, "t1"), ("shown", 2), ("did", "ask-draft", {"hand": 1}),
        ("compared", 1, "failed", 2), ("did", "not-compared", {"hand": 1}), ("drafts", {1: "t1"}),
        ("shown", 2), ("did", "ask-draft", {"hand": 1}),  # asked again, never moved
    ],
    "a draft whose own save is on the sheet (a reload while its answer was lost) is said saved, not asked": [
        ("typed", 1, "t1"), ("shown", 2), ("did", "ask-draft", {"hand": 1}),
        ("compared", 1, "saved", 2), ("drafts", {}), ("did", "draft-saved", {"hand": 1}),
        ("shown", 2), ("did not", "ask-draft"),
    ],
    "a draft for a number the sheet does not have after all comes back under the form's number": [
        ("typed", 1, "t1"), ("compared", 1, "none", 3), ("drafts", {3: "t1"}),
        ("did", "put-back", {"hand": 3, "from": 1}),
    ],
    "a kept hand whose game is gone holds nothing else up and is never renumbered": [
        ("keep", "a", 2), ("keep", "b", 3), ("send", "a", "gone"), ("kept", [("a", 2, "gone"), ("b", 3, "waiting")]),
        ("form number", 1, 4), ("send", "b", "gone"), ("discard", "a"), ("kept", [("b", 3, "gone")]),
        ("form number", 1, 1),
    ],
    "a kept hand saved in another game already holds its game's later hands until it is seen to": [
        ("keep", "a", 2), ("keep", "b", 3), ("send", "a", "elsewhere"), ("nothing to send",),
        ("discard", "a"), ("kept", [("b", 2, "waiting")]),
    ],
    "a kept hand held for the passcode tries again once a page is opened": [
        ("keep", "a", 1), ("send", "a", "passcode"), ("nothing to send",), ("opened",), ("send", "a", "saved"),
    ],
    "an answer lost with the page is asked again": [
        ("keep", "a", 2), ("send", "a", "clash"), ("answered", "a", "mine"), ("opened",),
        ("kept", [("a", 2, "clash")]),
    ],
    "a hand held as a repeat goes when the table says it is another hand": [
        ("keep", "a", 2), ("send", "a", "repeat"), ("nothing to send",), ("anyway", "a"), ("send", "a", "saved"),
    ],
    "a discarded repeat frees its number for the hands after it": [
        ("keep", "a", 2), ("keep", "b", 3), ("send", "a", "repeat"), ("discard", "a"), ("kept", [("b", 2, "waiting")]),
    ],
    "a second failed tap of the same form is one kept hand": [
        ("keep", "a", 1), ("send", "a", None), ("keep", "a", 1), ("kept", [("a", 1, "waiting")]),
    ],
    "a fix that gets no answer takes the place of the hand it fixes, before the later ones": [
        ("keep", "a", 1), ("keep", "b", 2), ("send", "a", "refused"), ("fix", "a"), ("keep", "a2", 1),
        ("kept", [("a2", 1, "waiting"), ("b", 2, "waiting")]),
    ],
    "a fix whose form lost its token to the meld count still ends the hand it fixes": [
        ("keep", "a", 1), ("keep", "b", 2), ("send", "a", "refused"), ("fix", "a"),
        ("queued", "after-meld", 1, False), ("form saved", "after-meld", 1), ("kept", [("b", 2, "waiting")]),
    ],
    "a kept hand still to be finished goes on in the form as the next hand, the later ones after it": [
        ("keep", "a", 2), ("keep", "b", 3), ("send", "a", "clash"), ("answered", "a", "goOn", 3),
        ("kept", [("a", 3, "fixing"), ("b", 4, "waiting")]), ("form number", 3, 3), ("queued", "new", 3, False),
        ("form saved", "new", 3), ("kept", [("b", 4, "waiting")]), ("send", "b", "saved"),
    ],
    "a page opened while a hand was being fixed offers the fix again": [
        ("keep", "a", 1), ("send", "a", "refused"), ("fix", "a"), ("opened",), ("kept", [("a", 1, "refused")]),
    ],
    "the poll seeing the form's hand saved ends the kept copy and the draft": [
        ("keep", "a", 1), ("typed", 2, "t2"), ("form saved", "a", 1), ("kept", []), ("drafts", {2: "t2"}),
    ],
    "a draft older than three days is not tonight's": [
        ("typed", 1, "t1"), ("later", 3 * 24 * 3600 * 1000 + 1), ("opened",), ("drafts", {}),
    ],
}
