"""The fair random steal: one card taken at random from another seat's hand,
known to thief and victim only, every cheat refused at its step with its author
named, by every seat that checks it.  (In memory: each seat keeps its own copy
of the hands and checks signed frames; the steal joins the game's log later.)"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from ankh.net.fair import deck as decks
from ankh.net.fair import group, steal
from ankh.net.wire.errors import LocalProtocolError, RemoteProtocolError, Stalled
from ankh.net.wire.envelope import open_frame, pack
from ankh.net.fair.seal import digest, open_disclosed
from .stealnet import StealTable, victims_swap_in_an_ore

from .nethelp import rigged_shadows

KINDS = ("brick", "lumber", "wool", "grain", "ore")


def _table(seed: str, seats: int = 4, **kw: Any) -> StealTable:
    return StealTable(seats, KINDS, seed=seed.encode(), **kw)


def _refused(t: StealTable, culprit: int | None, run: Any, *, by: set[int] | None = None) -> RemoteProtocolError:
    """``run()`` is refused, and every seat that checked it names ``culprit``."""
    with pytest.raises(RemoteProtocolError) as info:
        run()
    assert info.value.seat == culprit, str(info.value)
    reporters = {seat for seat, _ in t.alarms}
    assert {exc.seat for _, exc in t.alarms} == {culprit}, t.alarms
    if by is not None:
        assert reporters == by, t.alarms
    return info.value


def _same_everywhere(t: StealTable) -> None:
    first = t.seats[0].hands
    for seat in t.seats[1:]:
        assert seat.hands.slots == first.slots and seat.hands.held == first.held


def _judge(t: StealTable, st: Any, evidence: tuple[bytes, bytes]) -> int | None:
    """A bystander's verdict on seat 1's refusal of a private part from seat 0
    (``steal.judge_delivery``): the seat named, None when the evidence proves
    nothing.  This table binds a frame to its steal by the victim's sequence
    number (the log binds it by step and log hash: ``evidence.proven``)."""
    from ankh.net.wire.envelope import signed_slot

    from .stealnet import KINDS as FRAME_KINDS

    shown = evidence[0]
    if signed_slot(shown, t.seats[2].keyring, t.game_id) != signed_slot(t.last_open[1], t.seats[2].keyring, t.game_id):
        return None  # not the victim's steal-open of this steal
    env = open_frame(shown, game_id=t.game_id, keys=t.seats[2].keyring, kinds=FRAME_KINDS)
    verdict = steal.judge_delivery(st, t.game_id, env.seq, env.body, evidence, t.seats[1].secrets.box_public)
    return None if verdict is None else verdict.seat


def _cheat(t: StealTable, seat: int, kind: str, change: Any) -> None:
    def cheat(k: str, body: dict[str, Any]) -> dict[str, Any]:
        return change(dict(body)) if k == kind else body

    t.seats[seat].cheat = cheat


# -- an honest steal ---------------------------------------------------------------


def test_only_thief_and_victim_learn_the_card_and_the_hands_stay_in_step() -> None:
    t = _table("honest")
    t.give(0, ["brick", "brick", "ore", "wool"])
    t.give(1, ["grain"])
    before = t.seats[0].keys.hand()
    learned = t.steal(0, 1)
    _same_everywhere(t)
    taken, card = learned[1]
    old, lost = learned[0]
    assert card == lost and old in t.seats[2].hands.held[0] + [old]  # the victim knows which of its cards went
    assert learned[2] == (taken, None) and learned[3] == (taken, None)
    # the thief holds it, hidden from the public; the victim's remaining cards are hidden too
    assert t.seats[3].hands.public(1) == ["grain", None] and t.seats[3].hands.public(0) == [None] * 3
    assert Counter(t.seats[0].keys.hand()) + Counter([card]) == Counter(before)
    assert t.seats[1].keys.hand() == ["grain", card]
    # a public show later tells everyone, with a proof
    assert t.show(1, [taken]) == (card,)
    assert all(s.hands.public(1) == ["grain", card] for s in t.seats)


def test_a_later_steal_works_on_a_hand_that_holds_a_stolen_card() -> None:
    t = _table("twice")
    t.give(0, ["ore", "ore", "wool"])
    t.give(1, ["brick"])
    first = t.steal(0, 1)  # seat 1 now holds a hidden card
    second = t.steal(1, 2)  # and is robbed in turn: one of brick or the hidden card
    _same_everywhere(t)
    assert second[2][1] == second[1][1] in ("brick", first[1][1])
    third = t.steal(2, 3)  # a hand made only of a stolen card
    assert third[3][1] == second[2][1]
    assert t.seats[3].keys.hand() == [third[3][1]]
    assert t.show(3, [third[3][0]]) == (third[3][1],)
    assert t.spend(3, [third[3][0]]) == (third[3][1],)


def test_the_victims_own_view_follows_every_card() -> None:
    t = _table("views")
    t.give(2, ["brick", "lumber", "wool", "grain", "ore", "ore"])
    for thief in (0, 1, 3):
        t.steal(2, thief)
    everything = t.seats[2].keys.hand() + [t.seats[s].keys.hand()[0] for s in (0, 1, 3)]
    assert sorted(everything) == sorted(["brick", "lumber", "wool", "grain", "ore", "ore"])
    # the victim can show and spend what it still holds
    h = t.seats[2].hands.hand(2)
    assert sorted(t.show(2, h)) == sorted(t.seats[2].keys.hand())
    t.spend(2, h)
    assert t.seats[0].hands.hand(2) == ()


# -- the cheat catalogue -----------------------------------------------------------


def test_a_victim_that_commits_to_a_card_it_does_not_hold_is_refused_at_its_shuffle() -> None:
    t = _table("not-held")
    t.give(0, ["brick", "brick", "wool"])
    ore = t.seats[0].hands.points["ore"]

    def swap(body: dict[str, Any]) -> dict[str, Any]:
        # the first re-randomised slot becomes an ore, its proof left as it was
        body["Y"] = group.mul(12345, ore) + body["Y"][32:]
        return body

    _cheat(t, 0, "steal", swap)
    exc = _refused(t, 0, lambda: t.steal(0, 1), by={1, 2, 3})
    assert "re-randomised" in exc.message
    assert t.seats[1].hands.hand(0) == t.seats[0].hands.hand(0)  # nothing moved


def test_a_victim_whose_shuffle_swaps_in_another_card_is_refused_at_its_proof() -> None:
    t = _table("swap-in")
    t.give(0, ["brick", "brick", "wool", "grain"])
    ore = t.seats[0].hands.points["ore"]
    guess = [i % 2 for i in range(decks.SHADOWS)]
    rigged: dict[str, Any] = {}

    def swap(kind: str, body: dict[str, Any]) -> dict[str, Any]:
        st = t.seats[0].steal
        assert st is not None
        body = dict(body)
        if kind == "steal":
            Y = group.split_points(body["Y"])
            Z = group.split_points(body["Z"])
            Z[0] = group.mul(777, ore)  # an ore it could open for the thief
            ctx = steal.shadow_context(st.context, body["E"])
            body["C"], rigged["openings"] = rigged_shadows(ctx, steal.hand_spec(st.n), Y, Z, body["E"], guess, b"v")
            body["Z"] = b"".join(Z)
        if kind == "steal-open":
            body["f"] = b"".join(f for f, _ in rigged["openings"])
            body["perms"] = b"".join(p for _, p in rigged["openings"])
        return body

    t.seats[0].cheat = swap
    exc = _refused(t, 0, lambda: t.steal(0, 1), by={1, 2, 3})
    assert "shuffle proof fails" in exc.message


def test_a_victim_that_opens_the_picked_slot_as_another_card_is_caught_by_the_thief_and_judged() -> None:
    t = _table("other-card")
    t.give(0, ["brick", "wool", "ore"])

    def wrong_key(body: dict[str, Any]) -> dict[str, Any]:
        v = t.seats[0]
        st = v.steal
        assert st is not None and st.pick is not None
        sec = steal.StealSecrets(v.secrets.master, st.context, st.n)
        keys = steal.victim_keys(st, v.keys, sec)
        other = next(m for m in range(st.n) if keys[m][0] != keys[st.pick][0])  # a slot with another card
        plaintext = group.scalar_to_bytes(keys[other][1])
        seq = v.seq
        eph, ct = v.boxes.seal(0, 1, seq, t.seats[1].secrets.box_public, plaintext, v.secrets.ephemeral(seq, 1))
        body.update(eph=eph, ct=ct, h=digest(plaintext))
        return body

    _cheat(t, 0, "steal-open", wrong_key)
    exc = _refused(t, 0, lambda: t.steal(0, 1), by={1})
    frame, plaintext = exc.evidence
    assert frame == t.last_open[1]
    # anyone can settle it from the public log and the thief's evidence
    st = t.seats[3].steal
    assert st is not None
    assert _judge(t, st, (frame, plaintext)) == 0
    # a plaintext the victim never sealed is anyone's making: it names nobody, the victim least
    made_up = steal.group.scalar_to_bytes(12345)
    assert _judge(t, st, (frame, made_up)) is None


def test_a_private_part_that_does_not_open_is_judged_from_the_thiefs_disclosure() -> None:
    t = _table("garbage")
    t.give(0, ["brick", "wool"])
    _cheat(t, 0, "steal-open", lambda body: {**body, "ct": bytes(48)})
    exc = _refused(t, 0, lambda: t.steal(0, 1), by={1})
    _, disclosure = exc.evidence
    st = t.seats[2].steal
    assert st is not None
    assert _judge(t, st, exc.evidence) == 0
    # a false disclosure, made with another box key, never names the victim; it is
    # nobody's signed word (the relay could make it up), so it names nobody
    false = t.seats[2].boxes.disclose(st.delivered[0])  # type: ignore[index]
    assert _judge(t, st, (t.last_open[1], false)) is None


def test_an_honest_victim_cannot_be_framed_by_the_thief() -> None:
    t = _table("frame-up")
    t.give(0, ["brick", "wool", "ore"])
    seen: dict[str, Any] = {}

    def keep(body: dict[str, Any]) -> dict[str, Any]:
        seen["st"] = t.seats[2].steal  # a bystander's view of the steal
        return body

    _cheat(t, 0, "steal-open", keep)
    t.steal(0, 1)
    st = seen["st"]
    seq, box = t.last_open[0], t.seats[1].secrets.box_public
    eph, h, ct = st.delivered
    true_plaintext = t.seats[1].boxes.open(0, 1, seq, eph, ct)
    # whatever the thief shows, the true plaintext or the message's true key, clears the victim
    # (and names nobody: evidence handed on is no one's signed word)
    assert _judge(t, st, (t.last_open[1], true_plaintext)) is None
    assert _judge(t, st, (t.last_open[1], t.seats[1].boxes.disclose(eph))) is None


def test_a_thief_cannot_frame_the_victim_with_a_disclosed_key_off_by_a_small_order_point() -> None:
    """The disclosure proves ``K = box*eph`` with multiplications by clamped integers,
    which wipe out a small-order part: ``K + T`` (``T`` of order 2: ``u -> 1/u``) would
    pass the proof and then fail to decrypt an honest message.  Such a K is refused
    as a false disclosure: the thief lied."""
    t = _table("small-order-disclosure")
    t.give(0, ["brick", "wool", "ore"])
    seen: dict[str, Any] = {}

    def keep(body: dict[str, Any]) -> dict[str, Any]:
        seen["st"] = t.seats[2].steal
        return body

    _cheat(t, 0, "steal-open", keep)
    t.steal(0, 1)
    st = seen["st"]
    seq, box = t.last_open[0], t.seats[1].secrets.box_public
    eph = st.delivered[0]
    private = t.seats[1].secrets.box_private
    scalar, clamped = group.clamp(private)
    true_k = group.mul_n(clamped, eph)
    shifted = pow(group.to_int(true_k), -1, group.P).to_bytes(32, "little")  # K plus the point of order 2
    label = b"ankh/v1/seal/disclose" + eph
    A, As, s = group.dleq_prove(label, scalar, box, [eph], [shifted], private)
    assert not group.dleq_verify(label, box, [eph], [shifted], A, [As], s)  # the proof alone lets it through
    forged = pack({"K": shifted, "A": A, "As": As, "s": s})
    assert _judge(t, st, (t.last_open[1], forged)) is None  # a false disclosure: never the victim


def test_a_victim_that_reuses_an_earlier_ephemeral_key_is_refused_before_the_thief_discloses_anything() -> None:
    """A private part under the ephemeral key of an earlier private message to the
    same thief, with a ciphertext that does not open: the thief's defence, the
    disclosure of that key, would open the earlier message to everyone (its key
    depends on ``eph`` alone).  Every seat refuses a reused ephemeral key first."""
    from .nethelp import decode

    t = _table("eph-reuse")
    t.give(0, ["brick", "wool", "ore"])
    t.give(2, ["grain", "lumber"])
    first = t.steal(0, 1)  # seat 1 takes a card from seat 0, privately
    seq, frame = t.last_open
    earlier = decode(frame)["body"]
    # what the reuse is after: that message's key opens the first steal's private part
    disclosure = t.seats[1].boxes.disclose(earlier["eph"])
    box = t.seats[1].secrets.box_public
    plaintext = open_disclosed(t.game_id, 0, 1, seq, box, earlier["eph"], earlier["ct"], disclosure)
    assert plaintext == group.scalar_to_bytes(t.seats[1].keys.of(first[1][0])[1])
    _cheat(t, 2, "steal-open", lambda body: {**body, "eph": earlier["eph"], "ct": bytes(48)})
    exc = _refused(t, 2, lambda: t.steal(2, 1), by={0, 1, 3})
    assert "ephemeral key" in exc.message and len(exc.evidence) == 1  # the signed frame, and no disclosure


def test_a_victim_that_tells_the_thief_another_story_than_the_others_is_the_one_judged() -> None:
    """The victim signs two steal-opens for one slot: a good one for the others, one
    that does not open for the thief.  Judged on its own copy alone, a bystander would
    find the thief's evidence false; the frame the thief shows is judged first, and two
    signed frames for one slot name the victim.  A thief that shows a frame the victim
    signed for another slot is the one judged."""
    from .nethelp import resign

    sent: list[bytes] = []

    def wire(frame: bytes, sender: int, recipient: int) -> bytes:
        if sender == 0:
            sent.append(frame)
        if sender == 0 and recipient == 1 and b"steal-open" in frame:
            return resign(frame, t.seats[0].secrets.identity, lambda body: body.update(ct=bytes(48)))
        return frame

    t = _table("two-stories", wire=wire)
    t.give(0, ["brick", "wool", "ore"])
    exc = _refused(t, 0, lambda: t.steal(0, 1), by={1})
    st = t.seats[2].steal
    assert st is not None and st.delivered is not None  # the bystander took the good story
    shown, disclosure = exc.evidence
    assert shown != t.last_open[1]
    assert _judge(t, st, (shown, disclosure)) == 0
    # the victim's own frame of another slot (its shuffle), or one it did not sign, proves nothing
    assert _judge(t, st, (sent[0], disclosure)) is None
    assert _judge(t, st, (shown[:-1] + bytes([shown[-1] ^ 1]), disclosure)) is None  # not signed


@pytest.mark.parametrize("who", [0, 1, 3], ids=["victim", "thief", "bystander"])
def test_a_biased_pick_is_refused_at_the_beacon(who: int) -> None:
    t = _table(f"bias-{who}")
    t.give(0, ["brick", "wool", "ore"])
    _cheat(t, who, "dice", lambda body: {**body, "v": bytes(32)})  # a value of its choosing
    exc = _refused(t, who, lambda: t.steal(0, 1), by={s for s in range(4) if s != who})
    assert "preimage" in exc.message


def test_a_replayed_pick_is_refused() -> None:
    t = _table("replay")
    t.give(0, ["brick", "wool", "ore", "grain"])
    t.steal(0, 1)
    used: dict[str, bytes] = {}
    old = t.seats[2].chains[2].anchor  # the value seat 2 revealed last time
    used["v"] = old
    _cheat(t, 2, "dice", lambda body: {**body, "v": used["v"]})
    exc = _refused(t, 2, lambda: t.steal(0, 3), by={0, 1, 3})
    assert "preimage" in exc.message


def test_a_relay_replaying_an_earlier_frame_is_the_links_fault_not_the_victims() -> None:
    frames: list[bytes] = []

    def wire(frame: bytes, sender: int, recipient: int) -> bytes:
        if recipient == 1 and sender == 0 and len(frames) == 1 and b"steal-open" in frame:
            return frames[0]  # the victim's steal-open of the previous steal
        if sender == 0 and recipient == 1 and b"steal-open" in frame:
            frames.append(frame)
        return frame

    t = _table("relay-replay", wire=wire)
    t.give(0, ["brick", "wool", "ore", "grain"])
    t.steal(0, 1)
    _refused(t, None, lambda: t.steal(0, 1), by={1})


def test_a_biased_pick_is_impossible_before_the_shuffle_and_the_pick_ignores_the_order() -> None:
    t = _table("order")
    t.give(0, ["brick", "wool"])
    st = steal.begin(t.seats[0].hands, 0, 1, b"ctx")
    with pytest.raises(LocalProtocolError):
        steal.draw(st, t.game_id, 0, [bytes(32)] * 4)
    # the pick is a function of the beacon alone: any Z gives the same j
    values = [bytes([i]) * 32 for i in range(4)]
    picks = set()
    for fake in range(3):
        st.Z = [group.mul(fake + 2, p) for p in st.X]
        picks.add(steal.draw(st, t.game_id, 7, values))
    assert len(picks) == 1


def test_a_thief_that_claims_a_card_it_was_not_dealt_is_refused_at_its_show() -> None:
    t = _table("claim")
    t.give(0, ["brick", "brick", "brick"])
    taken, card = t.steal(0, 1)[1]
    assert card == "brick"
    s1 = t.seats[1]
    s1.keys.learn(taken, "ore", s1.keys.of(taken)[1])  # it says "ore"
    exc = _refused(t, 1, lambda: t.show(1, [taken]), by={0, 2, 3})
    assert "does not hold 'ore'" in exc.message
    assert t.seats[0].hands.public(1) == [None]  # nothing applied


def test_a_hidden_card_spent_twice_is_refused() -> None:
    t = _table("twice-spent")
    t.give(0, ["ore", "wool"])
    taken, card = t.steal(0, 1)[1]
    t.show(1, [taken])
    t.spend(1, [taken])
    with pytest.raises(LocalProtocolError):
        t.spend(1, [taken])  # the rules cannot spend it again
    # nor can the seat show it again to spend it
    s1 = t.seats[1]
    s1.keys.learn(taken, card, 1)
    s1.hands.slots[taken] = steal.Slot(t.seats[0].hands.points[card])
    s1.hands.owner[taken] = 1
    s1.hands.held[1].append(taken)  # its own copy of the hands is doctored
    exc = _refused(t, 1, lambda: t.show(1, [taken]), by={0, 2, 3})
    assert "not in this hand" in exc.message


def test_a_hidden_card_spent_after_it_was_stolen_away_is_refused() -> None:
    t = _table("stolen-away")
    t.give(0, ["ore", "wool", "brick"])
    old = t.seats[0].hands.hand(0)
    t.steal(0, 1)
    v = t.seats[0]
    taken = t.seats[1].hands.hand(1)[0]
    # the victim still knows the key of the slot it lost: it tries to show it as its own
    sec_card = t.seats[1].keys.of(taken)
    v.keys.learn(taken, *sec_card)
    v.hands.owner[taken] = 0
    exc = _refused(t, 0, lambda: t.show(0, [taken]), by={1, 2, 3})
    assert "not in this hand" in exc.message
    # and its handles from before the steal are retired everywhere
    with pytest.raises(LocalProtocolError):
        t.seats[2].hands.spend(0, [old[0]])


def test_the_steal_from_a_hand_with_a_stolen_card_refuses_the_same_cheats() -> None:
    t = _table("nested-cheat")
    t.give(0, ["ore", "wool"])
    t.give(1, ["brick"])
    t.steal(0, 1)
    ore = t.seats[1].hands.points["ore"]

    def swap(body: dict[str, Any]) -> dict[str, Any]:
        body["Y"] = body["Y"][:32] + group.mul(99, ore)  # the stolen card made into an ore
        return body

    _cheat(t, 1, "steal", swap)
    _refused(t, 1, lambda: t.steal(1, 2), by={0, 2, 3})


def test_a_relay_that_tampers_with_the_private_part_is_blamed_not_the_victim() -> None:
    def wire(frame: bytes, sender: int, recipient: int) -> bytes:
        if recipient == 1 and b"steal-open" in frame:
            return frame[:-5] + bytes(5)  # the tail of the ciphertext
        return frame

    t = _table("tamper", wire=wire)
    t.give(0, ["brick", "wool", "ore"])
    exc = _refused(t, None, lambda: t.steal(0, 1), by={1})
    assert "signature" in exc.message


def test_a_relay_that_withholds_the_private_part_only_delays_the_steal() -> None:
    held = {"on": True}

    def wire(frame: bytes, sender: int, recipient: int) -> bytes | None:
        if recipient == 1 and b"steal-open" in frame and held["on"]:
            return None
        return frame

    t = _table("withhold", wire=wire)
    t.give(0, ["brick", "wool", "ore"])
    with pytest.raises(Stalled) as info:
        t.steal(0, 1)
    assert info.value.seats == (0,) and t.waiting() == {1: [0]}
    # the private part is inside the victim's signed public frame: the others have
    # it, and the same frame, sent again, completes the steal
    held["on"] = False
    learned = t.resend()
    assert learned[1][1] == learned[0][1]
    _same_everywhere(t)


# -- uniformity ---------------------------------------------------------------------------

HAND = ["brick", "brick", "ore", "wool"]
CHI2_3DOF_P001 = 16.27  # the chi-square bound with 3 degrees of freedom at p = 0.001


def _chi2(counts: Counter, expected: dict[Any, float]) -> float:
    return sum((counts[k] - e) ** 2 / e for k, e in expected.items())


def test_each_slot_is_taken_with_the_same_frequency() -> None:
    t = _table("uniform", seats=2)
    trials = 160
    counts: Counter[int] = Counter()
    for _ in range(trials):
        t.new_hands()
        handles = t.give(0, HAND)
        old, _ = t.steal(0, 1)[0]
        counts[handles.index(old)] += 1
    assert _chi2(counts, {k: trials / 4 for k in range(4)}) < CHI2_3DOF_P001, counts


@pytest.mark.parametrize("order", [[0, 1, 2, 3], [3, 2, 1, 0], [2, 3, 0, 1]], ids=["kept", "reversed", "ore-first"])
def test_the_thiefs_card_does_not_depend_on_the_victims_order(order: list[int], monkeypatch: Any) -> None:
    """A victim that arranges its hand as it likes still loses a uniformly random card,
    and the slot picked is the same whatever the order."""

    class Chosen(steal.StealSecrets):
        def __init__(self, master: bytes, context: bytes, n: int) -> None:
            super().__init__(master, context, n)
            self.perm = list(order)

    monkeypatch.setattr(steal, "StealSecrets", Chosen)
    t = _table("independent", seats=2)
    trials = 120
    cards: Counter[str] = Counter()
    for _ in range(trials):
        t.new_hands()
        t.give(0, HAND)
        cards[t.steal(0, 1)[1][1]] += 1  # type: ignore[index]
    expected = {c: trials * n / len(HAND) for c, n in Counter(HAND).items()}
    assert _chi2(cards, expected) < 13.82, cards  # 2 degrees of freedom, p = 0.001


def test_the_pick_is_the_same_whatever_order_the_victim_chose(monkeypatch: Any) -> None:
    picks = {}
    for name, order in (("kept", [0, 1, 2, 3]), ("reversed", [3, 2, 1, 0])):

        class Chosen(steal.StealSecrets):
            def __init__(self, master: bytes, context: bytes, n: int, order: list[int] = order) -> None:
                super().__init__(master, context, n)
                self.perm = list(order)

        monkeypatch.setattr(steal, "StealSecrets", Chosen)
        t = _table("same-pick", seats=2)  # the same beacon
        lost = []
        for _ in range(8):
            t.new_hands()
            handles = t.give(0, HAND)
            lost.append(handles.index(t.steal(0, 1)[0][0]))
        picks[name] = t.picks
        # the card lost is the one the victim's own order put at the picked slot
        assert lost == [order[j] for j in t.picks]
    assert picks["kept"] == picks["reversed"]


_P = 2**255 - 19
SMALL = (1).to_bytes(32, "little")  # a point of small order
OFF = (_P - 5).to_bytes(32, "little")  # not a canonical point of the group
TWIN = (steal.L - 5).to_bytes(32, "little")  # a scalar above (L - 1) / 2: its twin is the accepted form

GARBAGE = {
    "Z cut short": ("steal", lambda b: {**b, "Z": b["Z"][:32]}),
    "Z of small order": ("steal", lambda b: {**b, "Z": SMALL + b["Z"][32:]}),
    "Z off the group": ("steal", lambda b: {**b, "Z": OFF + b["Z"][32:]}),
    "E of small order": ("steal", lambda b: {**b, "E": SMALL}),
    "Y cut short": ("steal", lambda b: {**b, "Y": b["Y"][32:]}),
    "a proof's scalar's twin": ("steal", lambda b: {**b, "s": TWIN + b["s"][32:]}),
    "a proof's commitment off the group": ("steal", lambda b: {**b, "A": OFF + b["A"][32:]}),
    "openings cut short": ("steal-open", lambda b: {**b, "perms": b["perms"][:-1]}),
    "an opening's twin scalar": ("steal-open", lambda b: {**b, "f": TWIN + b["f"][32:]}),
    "an ephemeral key of small order": ("steal-open", lambda b: {**b, "eph": SMALL}),
}


@pytest.mark.parametrize("garbage", list(GARBAGE))
def test_garbage_in_a_steal_is_the_victims_fault_and_nothing_else_breaks(garbage: str) -> None:
    kind, change = GARBAGE[garbage]
    t = _table(f"garbage-{garbage}")
    t.give(0, ["brick", "wool", "ore"])
    _cheat(t, 0, kind, change)
    _refused(t, 0, lambda: t.steal(0, 1), by={1, 2, 3})
    assert t.seats[2].hands.hand(0) == t.seats[1].hands.hand(0)  # nothing moved


@pytest.mark.parametrize("garbage", ["unknown kind", "proofs cut short", "twin scalar"])
def test_garbage_in_a_show_is_the_showers_fault(garbage: str) -> None:
    t = _table(f"show-{garbage}")
    t.give(0, ["brick", "wool"])
    taken, _ = t.steal(0, 1)[1]
    change = {
        "unknown kind": lambda b: {**b, "cards": ["gold"]},
        "proofs cut short": lambda b: {**b, "A": b["A"] + b["A"]},
        "twin scalar": lambda b: {**b, "s": TWIN},
    }[garbage]
    _cheat(t, 1, "show", change)
    _refused(t, 1, lambda: t.show(1, [taken]), by={0, 2, 3})


def test_a_hand_too_small_or_a_self_steal_is_our_mistake() -> None:
    t = _table("local")
    with pytest.raises(LocalProtocolError):
        t.steal(0, 1)  # nothing to steal
    t.give(0, ["ore"])
    with pytest.raises(LocalProtocolError):
        t.steal(0, 0)


# -- in the game's log: SeatProtocol, the ledger, the offline verifier, resuming --------------


def _log_table(seed: str) -> Any:
    from ankh.net.play.table import Table

    return Table.new(["Ann", "Bob", "Cid", "Dee"], seed=seed.encode())


def _knows(seat: Any, handle: int) -> str | None:
    try:
        return seat.ledger.hand_keys["res"].of(handle)[0]
    except LocalProtocolError:
        return None


def test_a_steal_in_the_log_tells_thief_and_victim_only_and_verifies_offline() -> None:
    from ankh.net.files.verify import verify_transcript

    t = _log_table("log")
    first = t.steal("res", KINDS, 0, 1, ["brick", "ore", "ore", "wool"])
    old, card = t.seats[0].ledger.results[-1].lost
    assert _knows(t.seats[1], first.taken) == card and old in first.retired
    assert _knows(t.seats[2], first.taken) is None and _knows(t.seats[3], first.taken) is None
    assert t.seats[2].ledger.results[-1].lost is None
    assert sorted(_knows(t.seats[0], h) for h in first.kept) == sorted(
        ["brick", "ore", "ore", "wool"][:old] + ["brick", "ore", "ore", "wool"][old + 1 :]
    )
    # a steal from a hand that holds the stolen card, then the card shown to be used
    second = t.steal("res", KINDS, 1, 2, ["grain", first.taken])
    got = _knows(t.seats[2], second.taken)
    assert got in ("grain", card)
    key = group.scalar_to_bytes(t.seats[2].ledger.hand_keys["res"].of(second.taken)[1])
    assert t.show_slots("res", 2, [second.taken]) == (got,)
    assert all(s.ledger.hands["res"].hidden(2) == () for s in t.seats)  # public now: the rules keep it
    report = verify_transcript(t.transcript(3).to_bytes())
    assert report.status == "incomplete" and not report.violations  # every proof checks out offline
    assert report.steals == 2 and "2 random steals proven" in str(report)
    # the saved game carries no key in the clear: a spectator learns the card only from the show
    assert key not in t.transcript(3).to_bytes()


def test_a_spent_or_stolen_slot_cannot_be_shown_in_the_log() -> None:
    from ankh.net.wire.envelope import seal
    from ankh.net.play.ops import ShowSlots, to_wire
    from ankh.net.files.transcript import Transcript
    from ankh.net.files.verify import verify_transcript

    t = _log_table("log-spent")
    r = t.steal("res", KINDS, 0, 1, ["brick", "ore"])
    card, key = t.seats[1].ledger.hand_keys["res"].of(r.taken)
    t.show_slots("res", 1, [r.taken])
    with pytest.raises(LocalProtocolError):  # the rules cannot ask to show (and spend) it again
        t.show_slots("res", 1, [r.taken])
    with pytest.raises(LocalProtocolError):  # nor the victim to show what it lost
        t.show_slots("res", 0, [r.taken])
    # A seat that puts such a show in the log anyway (it kept the key) is named by the verifier.
    L, thief = t.seats[1].ledger, t.seats[1]
    op = ShowSlots("res", 1, (r.taken,))
    ctx = steal.show_context(t.roster.game_id, L.basis, L.hands["res"], 1, r.taken, card)
    A, s = group.dlog_prove(ctx, key, L.hands["res"].points[card], steal.Hands("res", KINDS, 4).points[card], b"k")
    body = {"op": to_wire(op, L.index), "basis": L.basis, "slots": [r.taken], "cards": [card], "A": A, "s": s}
    frame = seal(thief.secrets.identity, 1, t.roster.game_id, thief._seq_out, "show", body)
    saved = t.transcript(3)
    report = verify_transcript(Transcript(t.roster, saved.ops, [frame]).to_bytes())
    assert [v.seat for v in report.violations] == [1] and "not hidden cards" in report.violations[0].message


def test_a_cheating_victim_is_refused_in_the_log_and_by_the_verifier(monkeypatch: Any) -> None:
    from ankh.net.files.verify import verify_transcript

    t = _log_table("log-cheat")
    victims_swap_in_an_ore(monkeypatch, KINDS)
    with pytest.raises(RemoteProtocolError) as info:
        t.steal("res", KINDS, 0, 1, ["brick", "wool"])
    assert info.value.seat == 0 and "re-randomised" in info.value.message
    report = verify_transcript(t.transcript(0).to_bytes())
    assert [v.seat for v in report.violations] == [0]


@pytest.mark.parametrize("cut", [1, 2], ids=["after the shuffle", "after the pick"])
def test_a_seat_resumes_in_the_middle_of_a_steal(cut: int) -> None:
    from ankh.net.play.seat import SeatProtocol
    from ankh.net.files.transcript import Transcript

    done = _log_table("resume-steal")
    result = done.steal("res", KINDS, 0, 1, ["brick", "ore", "wool"])
    full = done.transcript(0)
    start = len(full.ops) - 3  # the steal's three steps
    for who in (0, 1):  # the victim, then the thief
        saved = Transcript(done.roster, full.ops[: start + cut])
        seat = SeatProtocol.resume(done.roster, done.seats[who].secrets, saved)
        sent = seat.data_to_send()
        for op in full.ops[start + cut :]:
            for frame in op:
                if frame[0] != who:
                    seat.receive(frame, via=frame[0])
                    sent += seat.data_to_send()
        # it carried on exactly as the seat that never crashed, and knows what it knew
        assert sent == [f for op in full.ops[start + cut :] for f in op if f[0] == who]
        assert seat.ledger.basis == done.seats[who].ledger.basis and not seat.busy()
        mine = seat.ledger.hand_keys["res"]
        if who == 1:
            assert mine.of(result.taken) == done.seats[1].ledger.hand_keys["res"].of(result.taken)
        else:
            theirs = done.seats[0].ledger.hand_keys["res"]
            assert [mine.of(h) for h in result.kept] == [theirs.of(h) for h in result.kept]


def test_in_the_log_a_rigged_shuffle_or_a_wrong_key_names_the_victim() -> None:
    from .nethelp import cheat_body

    t = _log_table("log-rigged")
    ore = steal.Hands("res", KINDS, 4).points["ore"]
    guess = [1] * decks.SHADOWS
    rigged: dict[str, Any] = {}

    def rig(body: dict[str, Any]) -> None:
        st = t.seats[0].ledger.steal
        Y, Z = group.split_points(body["Y"]), group.split_points(body["Z"])
        Z[1] = group.mul(31337, ore)
        ctx = steal.shadow_context(st.context, body["E"])
        body["C"], rigged["openings"] = rigged_shadows(ctx, steal.hand_spec(st.n), Y, Z, body["E"], guess, b"log")
        body["Z"] = b"".join(Z)

    def opening(body: dict[str, Any]) -> None:
        body["f"] = b"".join(f for f, _ in rigged["openings"])
        body["perms"] = b"".join(p for _, p in rigged["openings"])

    cheat_body(t, 0, "steal", rig)
    cheat_body(t, 0, "steal-open", opening)
    with pytest.raises(RemoteProtocolError) as info:
        t.steal("res", KINDS, 0, 1, ["brick", "wool", "grain"])
    assert info.value.seat == 0 and "shuffle proof fails" in info.value.message

    t = _log_table("log-wrong-key")

    def wrong_key(body: dict[str, Any]) -> None:
        v = t.seats[0]
        seq, box = v._seq_out, v.ledger.box[1]
        plaintext = group.scalar_to_bytes(4242)
        _, body["ct"] = v.boxes.seal(0, 1, seq, box, plaintext, v.secrets.ephemeral(seq, 1))
        body["h"] = digest(plaintext)

    cheat_body(t, 0, "steal-open", wrong_key)
    with pytest.raises(RemoteProtocolError) as info:
        t.steal("res", KINDS, 0, 1, ["brick", "wool"])
    exc = info.value
    assert exc.seat == 0 and exc.reporter == 1  # type: ignore[attr-defined]
    # a bystander judges the thief's evidence against its own log, before it took the frame and after
    from ankh.net.fair.evidence import proven

    bystander = t.seats[2]
    step = bystander.ledger.index
    for _ in range(2):
        verdict = proven(t.roster, [f for _, frames in bystander.ledger.log for f in frames], exc.evidence)
        assert verdict is not None and verdict.seat == 0 and "does not open the picked slot" in verdict.message
        if bystander.ledger.index == step:
            bystander.receive(exc.evidence[0], via=0)  # the public part is good: the step is done here
    assert bystander.ledger.index == step + 1 and bystander.ledger.steal is None


def test_nothing_else_happens_in_the_log_while_a_steal_is_under_way() -> None:
    from ankh.net.wire.envelope import open_frame
    from ankh.net.play.ledger import BODIES, Ledger
    from ankh.net.play.ops import Roll, StealCard, StealOpen, StealPick

    t = _log_table("log-order")
    first = t.steal("res", KINDS, 0, 1, ["brick"])
    t.steal("res", KINDS, 1, 2, ["ore", first.taken])
    ops = t.transcript(3).ops

    def verifier(steps: int) -> Ledger:  # a verifier's ledger, following the log that far
        L = Ledger(t.roster)
        for frames in ops[:steps]:
            for frame in frames:
                L.follow(open_frame(frame, game_id=t.game_id, keys=L.keyring, kinds=BODIES))
        return L

    L = verifier(len(ops) - 3)  # between the two steals
    assert L.problem(StealCard("res", ("brick", "brick"), 1, 2, ("brick",))) is not None  # a kind twice
    assert L.problem(StealCard("res", KINDS, 1, 1, (first.taken,))) is not None  # from oneself
    assert L.problem(StealCard("res", KINDS, 1, 2, ("brick",))) is not None  # its hidden card left out
    assert L.problem(StealCard("res", KINDS, 0, 2, (first.taken,))) is not None  # someone else's
    assert L.problem(StealPick("res", 1, 2)) is not None  # no steal under way
    assert L.problem(StealCard("res", KINDS, 1, 2, ("ore", first.taken))) is None
    L = verifier(len(ops) - 2)  # the second steal's shuffle is in
    assert L.problem(Roll("x")) is not None and L.problem(StealOpen("res", 1, 2)) is not None
    assert L.problem(StealPick("res", 1, 2)) is None


def test_the_largest_hand_a_steal_takes_fits_the_frame_and_one_more_card_is_refused() -> None:
    from ankh.net.play.table import Table

    t = Table.new(["Ann", "Bob"], seed=b"largest")
    hand = [KINDS[i % len(KINDS)] for i in range(steal.MAX_HAND)]
    with pytest.raises(LocalProtocolError):
        t.steal("res", KINDS, 0, 1, [*hand, "ore"])
    stolen = t.steal("res", KINDS, 0, 1, hand)
    assert len(stolen.kept) == steal.MAX_HAND - 1
    assert max(len(f) for step in t.transcript(1).ops[-3:] for f in step) < 64 * 1024


def test_in_the_log_a_reused_ephemeral_key_names_the_victim_everywhere() -> None:
    from ankh.net.files.verify import verify_transcript

    from .nethelp import cheat_body, decode

    t = _log_table("log-eph-reuse")
    t.steal("res", KINDS, 0, 1, ["brick", "ore"])
    earlier = decode(t.transcript(3).ops[-1][0])["body"]  # the first steal's private part, to seat 1
    cheat_body(t, 2, "steal-open", lambda body: body.update(eph=earlier["eph"], ct=bytes(48)))
    with pytest.raises(RemoteProtocolError) as info:
        t.steal("res", KINDS, 2, 1, ["wool", "grain"])
    assert info.value.seat == 2 and "ephemeral key used before" in info.value.message
    report = verify_transcript(t.transcript(2).to_bytes())
    assert [v.seat for v in report.violations] == [2] and "ephemeral key" in report.violations[0].message
