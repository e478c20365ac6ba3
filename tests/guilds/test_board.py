"""The board regenerated from the geometry matches the spec's vertex table
(§3.4) and its properties."""
from ankh.core.guilds import board as b

# §3.4: vertex -> (districts, neighbours)
TABLE = """
V00 GRAIN|V04 V05; V01 ALCHEMISTS|V05 V06; V02 WOOL|V06 V07; V03 PALACE|V07 V08;
V04 GRAIN|V00 V09; V05 GRAIN ALCHEMISTS|V00 V01 V10; V06 ALCHEMISTS WOOL|V01 V02 V11;
V07 WOOL PALACE|V02 V03 V12; V08 PALACE|V03 V13; V09 GRAIN BEGGARS|V04 V14 V15;
V10 GRAIN ALCHEMISTS|V05 V15 V16; V11 ALCHEMISTS WOOL|V06 V16 V17; V12 WOOL PALACE|V07 V17 V18;
V13 PALACE BRICK|V08 V18 V19; V14 BEGGARS|V09 V20; V15 GRAIN BEGGARS|V09 V10 V21;
V16 ALCHEMISTS|V10 V11; V17 WOOL|V11 V12; V18 PALACE BRICK|V12 V13 V22; V19 BRICK|V13 V23;
V20 BEGGARS|V14 V24; V21 BEGGARS ORE|V15 V24 V25; V22 BRICK UU|V18 V26 V27; V23 BRICK|V19 V27;
V24 BEGGARS ORE|V20 V21 V28; V25 ORE|V21 V29; V26 UU|V22 V31; V27 BRICK UU|V22 V23 V32;
V28 ORE|V24 V33; V29 ORE THIEVES|V25 V33 V34; V30 SHADES|V34 V35; V31 UU LUMBER|V26 V35 V36;
V32 UU|V27 V36; V33 ORE THIEVES|V28 V29 V37; V34 THIEVES SHADES|V29 V30 V38;
V35 SHADES LUMBER|V30 V31 V39; V36 UU LUMBER|V31 V32 V40; V37 THIEVES|V33 V41;
V38 THIEVES SHADES|V34 V41 V42; V39 SHADES LUMBER|V35 V42 V43; V40 LUMBER|V36 V43;
V41 THIEVES|V37 V38; V42 SHADES|V38 V39; V43 LUMBER|V39 V40
"""


def expected():
    out = {}
    for entry in TABLE.replace("\n", " ").split(";"):
        head, nb = entry.strip().split("|")
        vid, *districts = head.split()
        out[vid] = (sorted(districts), nb.split())
    return out


def test_vertex_table_matches_the_spec():
    exp = expected()
    assert len(exp) == b.NUM_VERTICES == 44
    for v in range(b.NUM_VERTICES):
        vid = b.VERTEX_IDS[v]
        districts = sorted(b.DISTRICT_IDS[d] for d in b.VERTEX_DISTRICTS[v])
        nbrs = [b.VERTEX_IDS[w] for w in b.NBRS[v]]
        assert (districts, nbrs) == exp[vid], vid


def test_edges_degrees_and_diameter():
    assert len(b.EDGES) == 55
    doubles = [v for v in range(44) if len(b.VERTEX_DISTRICTS[v]) == 2]
    assert len(doubles) == 22
    for v in range(44):
        assert len(b.NBRS[v]) == (3 if len(b.VERTEX_DISTRICTS[v]) == 2 else 2)
    assert max(max(row) for row in b.DIST) == 12
    assert min(min(row) for row in b.DIST) == 0  # connected


def test_licence_vertices_and_no_two_resource_guilds():
    assert [b.VERTEX_IDS[v] for v in b.LICENCE_VERTICES] == ["V29", "V33", "V34", "V37", "V38", "V41"]
    for v in range(44):
        assert len(b.VERTEX_GUILDS[v]) <= 1


def test_tokens_and_pips():
    assert len(b.TOKENS) == 18
    assert sorted(v for _, v in b.TOKENS) == [2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12]
    pips = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
    for g in range(5):
        d = b.GUILD_DISTRICT[g]
        assert sum(pips[v] for dd, v in b.TOKENS if dd == d) == 7
    # every total but 2, 7 and 12 fires exactly two districts
    for t in range(2, 13):
        assert len(b.ROLL_TOKENS[t]) == (0 if t == 7 else 1 if t in (2, 12) else 2)
    assert b.LABORATORY not in b.ROBBER_SPOTS and b.SHADES_SPOT in b.ROBBER_SPOTS
    assert len(b.ROBBER_SPOTS) == 18  # 17 tokens plus the Shades
