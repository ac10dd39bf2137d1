"""The page of `xeri serve` in a real browser: Playwright driving the system's Chromium.

Playwright's own browser download is not used: the tests launch the
`chromium` found on the PATH (Debian's package, which `.ci/run` installs).
Without it they fail, saying so: they never skip.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from serving import Server, running

SHOTS = Path(os.environ.get("XERI_SCREENSHOTS", "")) if os.environ.get("XERI_SCREENSHOTS") else None


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.fail(
            "the browser tests need Chromium on the PATH (Debian: apt-get install chromium);"
            " .ci/run installs it"
        )
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Bots wait 20 ms before each move, so a spectator sees a game of bots unfold.
    with running(tmp_path_factory.mktemp("serve") / "games.db", extra=["--bot-delay", "0.02"]) as s:
        yield s


def ply(page: Page) -> int:
    return int(page.locator("#status").get_attribute("data-ply") or "0")


def play_round(page: Page, *, reload_at: int | None = None, shot: str | None = None) -> int:
    """Click through a round: a playable card, then the first choice if one is asked."""
    start_round = page.locator("#status").inner_text()
    assert "round 1" in start_round
    reloaded = False
    for _ in range(400):
        status = page.locator("#status").inner_text()
        if "round 2" in status or "match over" in status:
            return ply(page)
        if reload_at is not None and not reloaded and ply(page) >= reload_at:
            before = ply(page)
            page.reload()
            page.wait_for_selector("#status[data-ply]", state="attached")
            assert ply(page) >= before
            reloaded = True
            if shot:
                screenshot(page, shot)
        card = page.locator("#hand button.playable").first
        try:
            card.wait_for(timeout=3000)
        except Exception:  # not our turn yet: look at the status again
            continue
        now = ply(page)
        card.click()
        choice = page.locator("#choices button")
        if choice.count():
            choice.first.click()
        page.wait_for_function(f"+document.querySelector('#status').dataset.ply > {now}")
    raise AssertionError("the round did not end")


def screenshot(page: Page, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def new_game_from_lobby(page: Page, server: Server, rules: str) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#rules option", state="attached")
    page.select_option("#rules", rules)
    page.locator("#seats select").nth(1).select_option("counting")
    page.click("#new button[type=submit]")
    page.wait_for_selector("#status[data-ply]", state="attached")


def test_a_whole_greek_round_against_a_bot_through_the_page_with_a_reload(browser, server):
    page = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    new_game_from_lobby(page, server, "greek")
    assert page.locator("#links input").count() == 2  # the other seat's... and watch links
    screenshot(page, "greek-1280")
    end = play_round(page, reload_at=12, shot="greek-reloaded-1280")
    assert end >= 48  # the first round is over (the bot may have led the second)
    screenshot(page, "greek-end-1280")
    page.close()


def test_a_whole_german_round_on_a_phone_sized_screen(browser, server):
    page = browser.new_page(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, bypass_csp=True
    )
    new_game_from_lobby(page, server, "german")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    screenshot(page, "german-390")
    end = play_round(page, reload_at=20, shot="german-reloaded-390")
    assert end >= 48  # the first round is over (the bot may have led the second)
    page.close()


def test_a_spectator_watches_a_pisti_game_of_bots(browser, server):
    made = server.new_game("pisti", ["counting", "counting"])
    page = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page.goto(server.url + made["watch"])
    page.wait_for_selector("#status[data-ply]", state="attached")
    assert page.locator("#handbox").is_hidden()
    first = ply(page)
    assert first < 48  # the first round is still on: the spectator watches it go
    page.wait_for_function(
        f"+document.querySelector('#status').dataset.ply >= {first + 5}", timeout=60_000
    )
    screenshot(page, "pisti-spectator-1280")
    assert page.locator("#hand button").count() == 0
    page.wait_for_function(
        "/round 2|match over/.test(document.querySelector('#status').textContent)",
        timeout=120_000,
    )
    page.close()


def test_a_card_whose_moves_a_view_counts_lists_them_when_clicked(browser, tmp_path):
    # A view lists at most one move here: every other card's moves are asked for.
    with running(tmp_path / "listed.db", extra=["--bot-delay", "0.02"], listed=1) as server:
        page = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True)
        new_game_from_lobby(page, server, "german")
        counted = typed = 0
        for turn in range(8):  # three, or more until a card had more moves than listed
            if turn >= 3 and typed:  # three turns at least
                break
            page.wait_for_selector("#hand button.playable", timeout=30_000)
            now = ply(page)
            counted += page.evaluate("view.moves.length === 0 && view.move_cards.length > 0")
            # The card with the most moves, when the view counts them; else the first.
            most = page.evaluate(
                "view.move_cards.length"
                " ? view.move_cards.reduce((a, b) => (b[1] > a[1] ? b : a))[0] : null"
            )
            if most is None:
                page.locator("#hand button.playable").first.click()
            else:
                page.locator(f'#hand button[data-card="{most}"]').click()
            # The card's moves come back: a choice among them, or its one move played.
            page.wait_for_function(
                "document.querySelector('#choices button') !== null"
                f" || +document.querySelector('#status').dataset.ply > {now}",
                timeout=10_000,
            )
            if page.locator("#typed").count() and not typed:
                # More moves than listed: one typed in notation, which the server parses.
                screenshot(page, "german-typed-1280")
                notation = page.locator("#choices button[data-move]").first.get_attribute(
                    "data-move"
                )
                page.fill("#notation", notation)
                page.locator("#typed button").click()
                typed += 1
            elif page.locator("#choices button").count():
                page.locator("#choices button").first.click()
            page.wait_for_function(f"+document.querySelector('#status').dataset.ply > {now}")
            assert "played" in page.locator("#last").text_content()
        assert counted >= 2  # most German hands have more moves than one
        assert typed == 1
        page.close()
