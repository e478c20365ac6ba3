"""Order of the suite across parallel workers (pytest-xdist, as scripts/test runs it)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# The folders whose tests wait longest on real processes, terminals and sockets: handed out
# first, so that the quick rules tests fill the gaps at the end instead of one slow test
# holding up the whole run on its own.
SLOW_FIRST = ("tests/tui/", "tests/net/")
# Before those, the longest tests of all, longest first (measured: each holds a worker for
# 25 s to 2 min on a loaded two-core machine, mostly whole games played through screens and
# processes): started last, any one of them would be the whole run's tail.  A test missing
# here only starts later; a name here that no longer matches any test changes nothing.
LONGEST_FIRST = (
    "tests/tui/guilds/test_netplay.py::test_a_guild_table_hosted_on_screen_is_played_to_the_end",
    "tests/net/test_simulator.py::test_a_fixed_sweep_of_tables_through_faults_breaks_nothing",
    "tests/tui/test_netplay.py::test_host_a_table_a_headless_peer_joins_and_the_game_is_played_to_the_end",
    "tests/tui/guilds/test_screens.py::test_whole_game_from_the_title_to_the_end_screen",
    "tests/net/test_lan.py::test_three_namespaces_find_the_table_by_mdns_and_survive_a_cut_cable",
    "tests/tui/test_stats.py::test_a_spectator_reaches_the_statistics_from_the_end_screen",
    "tests/tui/test_review.py::test_after_the_audit_a_networked_game_is_also_reviewed_with_every_card_known",
    "tests/net/test_peer.py::test_links_that_drop_and_repeat_frames_lose_nothing",
    "tests/tui/test_review.py::test_the_end_screen_of_a_networked_seat_reviews_its_save",
    "tests/tui/test_play.py::test_a_whole_game_against_two_bots",
    "tests/tui/test_review.py::test_the_end_screen_reviews_the_game_just_played_and_leaving_the_review",
    "tests/net/test_leave.py::test_the_host_leaving_pauses_the_table_and_its_return_carries_the_game_on",
    "tests/tui/test_play.py::test_a_whole_game_as_green_against_three_random_bots",
    "tests/tui/guilds/test_tmux_trade.py::test_a_multi_kind_trade_composed_once_and_dealt_between",
    "tests/net/test_lan.py::test_a_game_in_progress_verifies_as_incomplete_from_its_journal",
    "tests/net/test_lan.py::test_simulated_peers_play_a_whole_game",
    "tests/tui/test_serve_ssh.py::test_a_guest_who_drops_out_of_a_game_takes_the_seat_back",
    "tests/tui/guilds/test_screens.py::test_the_titles_r_chooses_whose_rules_and_both_read_to_their_end",
    "tests/net/test_guilds_lan.py::test_headless_guild_peers_play_a_whole_game_among_thieves",
    "tests/tui/test_leave_screens.py::test_the_seats_left_see_who_is_gone_and_e_ends_the_table",
    "tests/tui/test_session.py::test_a_saved_game_resumes_exactly_and_bots_play_on_the_same[search]",
    "tests/tui/test_review.py::test_a_networked_game_is_reviewed_from_the_seat_s_own_view",
    "tests/net/test_watch.py::test_spectators_follow_the_game_and_learn_nothing_secret",
    "tests/net/test_lan.py::test_headless_peers_play_a_whole_game",
    "tests/tui/test_review.py::test_a_review_in_two_processes_is_the_review_of_one",
    "tests/net/test_peer.py::test_a_whole_game_through_the_star",
    "tests/net/test_strangers.py::test_a_real_joiner_gets_in_through_a_flood_of_1100_links",
    "tests/net/test_steal.py::test_each_slot_is_taken_with_the_same_frequency",
    "tests/net/test_peer.py::test_a_seat_that_sends_before_it_goes_on_plays_the_same_game",
    "tests/net/test_strangers.py::test_a_spectator_that_does_not_read_is_cut_off_and_the_game_finishes",
    "tests/test_compat.py::test_old_seats_killed_mid_game_carry_on_from_their_saves_to_a_fair_end",
    "tests/tui/test_review.py::test_the_costliest_decisions_are_named_on_a_firmer_search",
)


def pytest_collection_modifyitems(config, items):
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: every worker sorts alike
        def rank(item) -> tuple[int, int]:
            longest = next((i for i, name in enumerate(LONGEST_FIRST) if item.nodeid.startswith(name)), None)
            if longest is not None:
                return (0, longest)
            return (1, next((i for i, top in enumerate(SLOW_FIRST) if item.nodeid.startswith(top)),
                            len(SLOW_FIRST)))
        items.sort(key=rank)


@pytest.fixture(scope="session")
def pure_wheel(tmp_path_factory):
    """The wheel built with ANKH_PURE set, once a session (a build takes the processor for many
    seconds): its path and what pip said (verbose, so the build's own lines are in it). The tests
    that use it share the xdist_group "wheel-build", so they all run on one worker."""
    out = tmp_path_factory.mktemp("pure-wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--disable-pip-version-check",
         "-w", str(out), str(ROOT)],
        env={**os.environ, "ANKH_PURE": "1"}, capture_output=True, text=True, timeout=300)
    return built, sorted(out.glob("*.whl"))
