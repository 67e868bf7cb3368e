"""The lab's experiments: minimax and alpha-beta side by side, move ordering against the
minimal tree of Knuth and Moore, the tree editor and its links, folding and zooming big
trees, and a step exported for slides; through the API and in a real Chromium."""

from __future__ import annotations

import base64
import math
import random
import struct
import xml.etree.ElementTree as ET
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from zerosum.games import registry
from zerosum.games.tree import TreeGame, example
from zerosum.search.reference import alphabeta, minimax

Tree = int | list[Any]
"""A tree as nested lists of integer leaves, the root player maximising."""

SCREENS = ((1280, 900), (390, 844), (1920, 1080))
"""A desktop, a phone and a projector."""


def lab(client: TestClient, path: str = "/api/lab", **body: Any) -> Any:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.text
    return response.json()


def compare(client: TestClient, **body: Any) -> Any:
    return lab(client, "/api/lab/compare", **body)


def uniform(branching: int, depth: int, rng: random.Random) -> Tree:
    """A uniform tree with distinct leaf values in a random order."""
    values = iter(rng.sample(range(-10_000, 10_000), branching**depth))

    def grow(level: int) -> Tree:
        return next(values) if level == depth else [grow(level + 1) for _ in range(branching)]

    return grow(0)


def ragged(rng: random.Random, depth: int = 5) -> Tree:
    """A tree of 1 to 4 children a node, leaves at any depth, small values (with ties)."""

    def grow(level: int) -> Tree:
        if level == depth or (level > 1 and rng.random() < 0.25):
            return rng.randint(-9, 9)
        return [grow(level + 1) for _ in range(rng.randint(1, 4))]

    return grow(0)


def value(tree: Tree, maximising: bool) -> int:
    if isinstance(tree, int):
        return tree
    values = [value(kid, not maximising) for kid in tree]
    return max(values) if maximising else min(values)


def sorted_tree(tree: Tree, best_first: bool, maximising: bool = True) -> Tree:
    """The tree with every node's children sorted by their minimax values, best (for the
    player to move there) or worst first; equal children keep their order."""
    if isinstance(tree, int):
        return tree
    kids = sorted(
        tree, key=lambda kid: value(kid, not maximising), reverse=maximising == best_first
    )
    return [sorted_tree(kid, best_first, not maximising) for kid in kids]


def counts(tree: Tree) -> dict[str, int]:
    """Reference alpha-beta's counts on the tree."""
    stats = alphabeta(TreeGame(tree), 0).stats
    return {"nodes": stats.nodes, "leaves": stats.leaves, "cutoffs": stats.cutoffs}


def knuth_moore(branching: int, depth: int) -> int:
    """The leaves of the minimal tree of a uniform tree (Knuth and Moore 1975)."""
    return int(branching ** math.ceil(depth / 2) + branching ** math.floor(depth / 2) - 1)


# --------------------------------------------------------------------------- the API


@pytest.mark.parametrize(
    "problem",
    [
        {"example": "night-market"},
        {"example": "night-market-2"},
        {"example": "aima-5.2"},
        {"tree": "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"},
        {"game": "tictactoe", "position": "xo./.x./..o", "depth": 3},
        {"game": "nim:heaps=1,2,3"},
    ],
)
def test_minimax_and_alphabeta_side_by_side(client: TestClient, problem: dict[str, Any]) -> None:
    data = compare(client, **problem)
    game: Any
    state: Any = 0
    if "example" in problem:
        game = example(problem["example"])
    elif "tree" in problem:
        game = TreeGame.from_json(problem["tree"])
    else:
        game = registry.make(problem["game"])
        has = "position" in problem
        state = game.parse_state(problem["position"]) if has else game.initial_state()
    depth = problem.get("depth")
    plain = minimax(game, state, depth).stats
    pruning = alphabeta(game, state, depth).stats
    assert data["minimax"]["stats"]["nodes"] == plain.nodes
    assert data["minimax"]["stats"]["leaves"] == plain.leaves
    assert data["alphabeta"]["stats"]["nodes"] == pruning.nodes
    assert data["alphabeta"]["stats"]["cutoffs"] == pruning.cutoffs
    assert data["orders"][0] == {
        "order": "original",
        "nodes": pruning.nodes,
        "leaves": pruning.leaves,
        "cutoffs": pruning.cutoffs,
    }
    assert data["minimax"]["root_value"] == data["alphabeta"]["root_value"]
    # every node alpha-beta visited is matched once, at the same line of moves; the
    # others are the pruned ones
    twins = data["twins"]
    plain_nodes, pruning_nodes = data["minimax"]["nodes"], data["alphabeta"]["nodes"]
    assert sorted(t for t in twins if t is not None) == list(range(pruning.nodes))
    assert twins.count(None) == plain.nodes - pruning.nodes
    for node, twin in zip(plain_nodes, twins, strict=True):
        if twin is None:
            assert node["parent"] is not None  # the root is always visited
            continue
        mate = pruning_nodes[twin]
        assert mate["move"] == node["move"]
        assert (mate["parent"] is None) == (node["parent"] is None)
        if node["parent"] is not None:
            assert twins[node["parent"]] == mate["parent"]
        if mate["leaf"]:
            assert mate["value"] == node["value"]  # a leaf alpha-beta reached is exact


def test_night_market_orders(client: TestClient) -> None:
    data = compare(client, example="night-market")
    # alpha-beta skips the 15000 note and box 丁 with its two notes
    skipped = [
        n["move"] for n, t in zip(data["minimax"]["nodes"], data["twins"], strict=True) if t is None
    ]
    assert skipped == ["15000", "丁", "20000", "0"]
    orders = {row["order"]: row["nodes"] for row in data["orders"]}
    assert orders == {"original": 11, "best-first": 11, "worst-first": 15}
    assert data["uniform"] == {"branching": 2, "depth": 3, "leaves": knuth_moore(2, 3)}


@pytest.mark.parametrize(
    ("branching", "depth"), [(2, 2), (2, 3), (2, 4), (3, 2), (3, 3), (3, 4), (4, 3), (5, 2)]
)
def test_best_first_visits_the_minimal_tree_of_knuth_and_moore(
    client: TestClient, branching: int, depth: int
) -> None:
    rng = random.Random(branching * 100 + depth)
    for _ in range(3):
        tree = uniform(branching, depth, rng)
        data = compare(client, tree=str(tree))
        best, worst = data["orders"][1], data["orders"][2]
        assert best == {"order": "best-first", **counts(sorted_tree(tree, best_first=True))}
        assert worst == {"order": "worst-first", **counts(sorted_tree(tree, best_first=False))}
        assert best["leaves"] == knuth_moore(branching, depth)
        assert data["minimal"]["leaves"] == knuth_moore(branching, depth)
        assert data["minimal"]["nodes"] == best["nodes"]
        assert data["uniform"] == {
            "branching": branching,
            "depth": depth,
            "leaves": knuth_moore(branching, depth),
        }
        assert best["nodes"] <= data["orders"][0]["nodes"] <= data["minimax"]["stats"]["nodes"]


def test_best_first_meets_the_minimal_tree_of_ragged_trees(client: TestClient) -> None:
    rng = random.Random(21)
    for _ in range(25):
        tree = ragged(rng)
        if isinstance(tree, int):
            continue
        data = compare(client, tree=str(tree))
        best = counts(sorted_tree(tree, best_first=True))
        assert data["orders"][1] == {"order": "best-first", **best}
        assert data["minimal"] == {"nodes": best["nodes"], "leaves": best["leaves"]}
        assert data["orders"][2] == {
            "order": "worst-first",
            **counts(sorted_tree(tree, best_first=False)),
        }
        assert data["minimax"]["root_value"] == value(tree, True)


def test_a_search_in_another_order(client: TestClient) -> None:
    tree = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
    for order, best_first in (("best-first", True), ("worst-first", False)):
        data = lab(client, tree=str(tree), order=order)
        assert data["order"] == order
        assert data["trace"]["root_value"] == value(tree, True)
        stats = data["trace"]["stats"]
        expected = counts(sorted_tree(tree, best_first))
        assert {k: stats[k] for k in ("nodes", "leaves", "cutoffs")} == expected
        # the tree searched comes back as JSON, ready for the editor: searched as it is,
        # it gives the same search
        again = lab(client, tree=data["tree"])
        assert again["trace"]["stats"] == stats
        assert again["events"] == data["events"]
    plain = lab(client, tree=str(tree))
    assert plain["order"] == "original" and plain["tree"] == str(tree)
    # an example's tree is its file: the same game, title and all
    shipped = TreeGame.from_json(lab(client, example="night-market")["tree"])
    assert shipped.info.title == example("night-market").info.title
    assert shipped.render(0) == example("night-market").render(0)


def test_a_game_position_in_another_order(client: TestClient) -> None:
    # O to move: the reordered tree's first player, MAX, is O
    game = registry.make("tictactoe")
    state = game.parse_state("xo./.x./...")
    assert game.to_move(state) == 1
    data = lab(client, game="tictactoe", position="xo./.x./...", order="best-first")
    assert data["players"] == ["O", "X"]
    assert data["trace"]["root_value"] == minimax(game, state).score
    assert data["position"] is not None
    assert data["tree"] is not None
    assert data["trace"]["stats"]["nodes"] <= alphabeta(game, state).stats.nodes


@pytest.mark.parametrize(
    ("path", "body", "status", "words"),
    [
        ("/api/lab", {"example": "night-market", "order": "random"}, 422, "order"),
        ("/api/lab/compare", {"example": "night-market", "order": "random"}, 422, "order"),
        ("/api/lab/compare", {}, 400, "exactly one"),
        ("/api/lab/compare", {"example": "night-market", "tree": "[1, 2]"}, 400, "exactly one"),
        ("/api/lab/compare", {"game": "tictactoe"}, 422, "more than 5000 nodes"),
        ("/api/lab", {"game": "tictactoe", "order": "best-first"}, 422, "more than 5000 nodes"),
        ("/api/lab/compare", {"tree": "[[1, 2], [3"}, 400, "not valid JSON"),
        ("/api/lab/compare", {"game": "tictactoe", "position": "xxx/oo./..."}, 400, "over"),
    ],
)
def test_bad_experiments(
    client: TestClient, path: str, body: dict[str, Any], status: int, words: str
) -> None:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    assert words in response.json()["error"]


def test_the_lab_lists_the_orders(client: TestClient) -> None:
    assert client.get("/api/lab").json()["orders"] == ["original", "best-first", "worst-first"]


# --------------------------------------------------------------------------- the page


def no_overflow(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"


def open_lab(page: Any, source: str = "example", text: str = "") -> None:
    page.click("#tab-lab")
    page.check(f"input[name=source][value={source}]")
    if source == "tree":
        page.fill("#lab-json", text)
    page.click("#lab-run")
    page.wait_for_selector("#lab-view:not([hidden])")
    page.wait_for_selector("#compare-body:not([hidden])")


def test_side_by_side_and_orders_on_the_page(
    page: Any, client: TestClient, artifacts: Path
) -> None:
    open_lab(page)
    page.click("#step-last")
    data = compare(client, example="night-market")
    skipped = data["twins"].count(None)
    assert skipped == 4
    assert page.locator("#compare-minimax .node").count() == 15
    assert page.locator("#compare-minimax .node.skipped").count() == skipped
    assert page.locator("#compare-alphabeta .node.pruned").count() == skipped
    assert page.text_content("#compare-minimax-count") == "15"
    assert page.text_content("#compare-alphabeta-count") == "11"
    # at 乙 minimax knows the exact value, alpha-beta only the bound that sufficed
    game = example("night-market")
    box = game.parse_state("root > A > 乙")
    key = page.get_attribute("#compare-alphabeta .node:has(.value:text-is('≥ 10000'))", "data-key")
    shown = page.text_content(f"#compare-minimax .node[data-key='{key}'] .value")
    assert shown == str(minimax(game, box).score) == "15000"
    rows = {
        row.get_attribute("data-order"): row.locator("td").all_text_contents()[1:4]
        for row in page.locator("#order-rows tr").all()
    }
    for counted in data["orders"]:
        assert rows[counted["order"]] == [
            str(counted["nodes"]),
            str(counted["leaves"]),
            str(counted["cutoffs"]),
        ]
    assert rows["minimax"] == ["15", "8", "0"]
    minimal = page.text_content("#minimal-text") or ""
    assert "2^2 + 2^1 − 1 = 5 leaves" in minimal
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(artifacts / f"lab-compare-{width}.png"), full_page=True)
        no_overflow(page)
    # a row's button steps through that order
    page.click("#order-rows tr[data-order=worst-first] button")
    page.wait_for_function(
        "() => document.querySelector('#lab-title').textContent.endsWith('(worst first)')"
    )
    page.click("#step-last")
    assert page.text_content("#lab-count") == "15 of 15"
    assert page.text_content("#lab-value") == "100"
    assert page.errors == []


def test_the_editor_changes_the_tree_and_a_link_brings_it_back(
    open_page: Callable[[str], AbstractContextManager[Any]], server: str, artifacts: Path
) -> None:
    tree: list[Any] = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]

    def edited(expected: Any, page: Any) -> None:
        text = str(expected).replace(" ", "")
        page.wait_for_function(f"() => document.querySelector('#lab-json').value === '{text}'")
        game = TreeGame(expected)
        nodes = alphabeta(game, 0).stats.nodes
        page.wait_for_function(
            f"() => document.querySelector('#lab-count').textContent === '{nodes} of {nodes}'"
        )
        assert page.text_content("#lab-value") == str(minimax(game, 0).score)

    with open_page(server) as page:
        open_lab(page, "tree", str(tree))
        page.click("#step-last")
        assert page.locator("#editor-tree .edit-node").count() == TreeGame(tree).subtree_size(0)
        page.click("#editor-tree .edit-node[data-path='0.0']")  # the leaf 3
        assert page.evaluate("document.activeElement.id") == "editor-value"
        page.fill("#editor-value", "20")
        page.press("#editor-value", "Enter")
        tree[0][0] = 20
        edited(tree, page)
        page.click("#editor-tree .edit-node[data-path='1']")
        page.click("#editor-add")  # a new leaf worth 0, selected
        page.fill("#editor-value", "-5")
        page.press("#editor-value", "Enter")
        tree[1].append(-5)
        edited(tree, page)
        page.click("#editor-tree .edit-node[data-path='2.0']")
        page.click("#editor-remove")
        del tree[2][0]
        edited(tree, page)
        for path in ("2.1", "2.0"):  # the last child gone, its parent is a leaf worth 0
            page.click(f"#editor-tree .edit-node[data-path='{path}']")
            page.click("#editor-remove")
        tree[2] = 0
        edited(tree, page)
        page.click("#editor-tree .edit-node[data-path='2']")
        page.click("#editor-add")  # a leaf becomes an inner node; its value goes down
        tree[2] = [0, 0]
        edited(tree, page)
        page.screenshot(path=str(artifacts / "lab-editor.png"), full_page=True)
        page.click("#step-first")
        for _ in range(5):
            page.click("#step-next")
        link = page.get_attribute("#lab-link", "href") or ""
        narration = page.text_content("#step-text")
        total = page.get_attribute("#step-range", "max")
        windows = page.locator("#lab-tree .window").all_text_contents()
        assert page.errors == []
    with open_page(server + "/" + link) as shared:
        shared.wait_for_selector("#compare-body:not([hidden])")
        assert shared.input_value("#lab-json") == str(tree).replace(" ", "")
        assert shared.text_content("#step-count") == f"5 / {total}"
        assert shared.text_content("#step-text") == narration
        assert shared.locator("#lab-tree .window").all_text_contents() == windows
        assert shared.locator("#editor-tree .edit-node").count() == TreeGame(tree).subtree_size(0)
        assert shared.errors == []


def test_an_example_opens_in_the_editor(page: Any) -> None:
    open_lab(page)
    page.click("#lab-edit")
    page.wait_for_selector("#editor-tree .edit-node")
    assert page.is_checked("input[name=source][value=tree]")
    assert page.locator("#editor-tree .edit-node").count() == 15
    leaf = "#editor-tree .edit-node[data-path='1.0.1']"  # the 70 in box 丙
    assert page.text_content(f"{leaf} .value") == "70"
    page.click(leaf)
    page.fill("#editor-value", "150")
    page.press("#editor-value", "Enter")
    # box 丙 is now worth 150 and stays the vendor's cheaper box in bag B: B is worth 150
    page.wait_for_function("() => document.querySelector('#lab-json').value.includes('150')")
    page.click("#step-last")
    page.wait_for_function("() => document.querySelector('#lab-value').textContent === '150'")
    assert '"label":"150","value":150' in page.input_value("#lab-json")
    assert page.errors == []


def test_folding_and_zooming(page: Any, artifacts: Path) -> None:
    open_lab(page)
    page.click("#step-last")
    assert page.locator("#lab-tree .node").count() == 15
    page.click("#lab-tree .node[data-key='1']")  # bag A and its six nodes below
    assert page.locator("#lab-tree .node").count() == 9
    assert page.text_content("#lab-tree .node.folded .fold-badge") == "▸6"
    # while the search is inside bag A, the fold stands for where it is
    page.click("#step-first")
    for _ in range(3):
        page.click("#step-next")
    assert page.get_attribute("#lab-tree .node.current", "data-key") == "1"
    page.click("#unfold-all")
    assert page.locator("#lab-tree .node").count() == 15
    assert page.get_attribute("#lab-tree .node.current", "data-key") == "2"
    width = float(page.get_attribute("#lab-tree", "width") or 0)
    page.click("#zoom-in")
    assert float(page.get_attribute("#lab-tree", "width") or 0) == pytest.approx(
        width * 1.25, abs=1
    )
    page.click("#zoom-out")
    page.click("#zoom-out")
    assert float(page.get_attribute("#lab-tree", "width") or 0) == pytest.approx(
        width / 1.25, abs=1
    )
    page.hover("#tree-scroll")
    before = float(page.get_attribute("#lab-tree", "width") or 0)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -300)
    page.keyboard.up("Control")
    page.wait_for_function(
        f"() => Number(document.querySelector('#lab-tree').getAttribute('width')) > {before}"
    )
    assert page.errors == []


def test_a_big_tree_folds_and_fits(page: Any, artifacts: Path) -> None:
    tree = uniform(3, 5, random.Random(5))  # 364 nodes, 243 leaves
    open_lab(page, "tree", str(tree))
    page.click("#step-last")
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        page.click("#zoom-fit")
        room = page.evaluate("document.querySelector('#tree-scroll').clientWidth")
        assert float(page.get_attribute("#lab-tree", "width") or 0) <= room
        no_overflow(page)
        page.screenshot(path=str(artifacts / f"lab-big-tree-{width}.png"), full_page=True)
    drawn = page.locator("#lab-tree .node").count()
    page.click("#lab-tree .node[data-key='1']")
    assert page.locator("#lab-tree .node").count() < drawn
    assert page.errors == []


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_a_step_exported_for_slides(page: Any, artifacts: Path) -> None:
    open_lab(page)
    for _ in range(12):
        page.click("#step-next")
    narration = page.text_content("#step-text") or ""
    visible = page.locator("#lab-tree .node:not(.hidden)").count()
    with page.expect_download() as svg_download:
        page.click("#export-svg")
    assert svg_download.value.suggested_filename.endswith("-step-12.svg")
    path = artifacts / "lab-night-market-step-12.svg"
    svg_download.value.save_as(path)
    root = ET.parse(path).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    elements = list(root.iter())
    # standalone: no classes for a stylesheet to match, every style written in place
    assert all("class" not in element.attrib for element in elements)
    kinds = {f"{ns}rect", f"{ns}circle", f"{ns}text", f"{ns}line"}
    assert all("fill" in e.attrib for e in elements if e.tag in kinds)
    drawn = root.find(f"{ns}g")
    assert drawn is not None
    painted = [e for e in drawn.iter() if e.tag in kinds]
    assert painted and all({"fill", "stroke", "stroke-width"} <= e.attrib.keys() for e in painted)
    assert all(e.attrib["font-size"].endswith("px") for e in painted if e.tag == f"{ns}text")
    texts = "".join(e.text or "" for e in root.iter(f"{ns}text"))
    assert " ".join(narration.split()) in " ".join(
        " ".join(e.text or "" for e in root.iter(f"{ns}text")).split()
    )
    assert "Night market" in texts
    shapes = [e for e in root.iter() if e.tag in {f"{ns}rect", f"{ns}circle"}]
    assert len(shapes) == visible + 1  # one shape a visible node, and the background
    with page.expect_download() as png_download:
        page.click("#export-png")
    picture = png_download.value.path().read_bytes()
    (artifacts / "lab-night-market-step-12.png.export.png").write_bytes(picture)
    assert png_size(picture) == (2 * int(root.attrib["width"]), 2 * int(root.attrib["height"]))
    # the picture shows the tree: MAX's blue outline is drawn in it
    blue = page.evaluate(
        """async (data) => {
            const image = new Image();
            image.src = `data:image/png;base64,${data}`;
            await image.decode();
            const canvas = document.createElement("canvas");
            canvas.width = image.width;
            canvas.height = image.height;
            const context = canvas.getContext("2d");
            context.drawImage(image, 0, 0);
            const pixels = context.getImageData(0, 0, image.width, image.height).data;
            let count = 0;
            for (let i = 0; i < pixels.length; i += 4) {
              const [r, g, b] = [pixels[i], pixels[i + 1], pixels[i + 2]];
              if (Math.abs(r - 47) < 8 && Math.abs(g - 91) < 8 && Math.abs(b - 211) < 8) count += 1;
            }
            return count;
        }""",
        base64.b64encode(picture).decode(),
    )
    assert blue > 100
    assert page.errors == []


def test_a_game_with_extra_turns_keeps_its_own_order(client: TestClient) -> None:
    # Kalah's sowing into one's own store moves again: no alternating tree shows that,
    # so the experiment offers the game's own order only, and says why
    data = compare(client, game="kalah:pits=2,seeds=2", depth=4)
    assert [row["order"] for row in data["orders"]] == ["original"]
    assert data["minimal"] is None and "twice running" in data["note"]
    game = registry.make("kalah:pits=2,seeds=2")
    truth = alphabeta(game, game.initial_state(), 4).stats.nodes
    assert data["orders"][0]["nodes"] == truth
    response = client.post(
        "/api/lab", json={"game": "kalah:pits=2,seeds=2", "depth": 4, "order": "best-first"}
    )
    assert response.status_code == 400 and "twice running" in response.text
