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
# Before those, the longest tests of all, longest first (measured: each takes a worker for
# half a minute or more on a loaded two-core machine, whole games played through screens and
# processes): started last, any one of them would be the whole run's tail.  A test missing
# here only starts later; a name here that no longer matches any test changes nothing.
LONGEST_FIRST = (
    "tests/tui/guilds/test_netplay.py::test_a_guild_table_hosted_on_screen_is_played_to_the_end",
    "tests/tui/test_netplay.py::test_host_a_table_a_headless_peer_joins_and_the_game_is_played_to_the_end",
    "tests/tui/guilds/test_screens.py::test_whole_game_from_the_title_to_the_end_screen",
    "tests/tui/test_play.py::test_a_whole_game_against_two_bots",
    "tests/tui/test_play.py::test_a_whole_game_as_green_against_three_random_bots",
    "tests/tui/guilds/test_tmux_trade.py::test_a_multi_kind_trade_composed_once_and_dealt_between",
    "tests/net/test_lan.py::test_simulated_peers_play_a_whole_game",
    "tests/tui/guilds/test_screens.py::test_the_titles_r_chooses_whose_rules_and_both_read_to_their_end",
    "tests/net/test_guilds_lan.py::test_headless_guild_peers_play_a_whole_game_among_thieves",
    "tests/tui/test_leave_screens.py::test_the_seats_left_see_who_is_gone_and_e_ends_the_table",
    "tests/net/test_lan.py::test_headless_peers_play_a_whole_game",
    "tests/tui/test_netplay.py::test_a_seat_at_a_networked_table_is_offered_no_undo",
    "tests/tui/test_found_in_play.py::test_the_arrows_go_from_tab_to_tab_in_the_help",
    "tests/net/test_back_with_the_same_command.py::",
    "tests/tui/test_found_in_play.py::test_the_same_ankh_join_after_a_crash_puts_the_screen_back",
    "tests/tui/test_french.py::test_a_french_host_and_an_english_peer_play_at_one_table",
    "tests/tui/test_french.py::test_a_french_and_an_english_player_write_the_same_record",
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
