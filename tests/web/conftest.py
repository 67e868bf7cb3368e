"""Fixtures of the web app's tests: an in-process client, a real server, a real browser."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from zerosum.web.app import create_app

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The app in this process, with its real process pool of one worker; every test of
    a module plays as one browser, so the limits per browser and address are lifted."""
    app = create_app(workers=1, capacity=500, per_owner=500, per_address=None)
    with TestClient(app) as test_client:
        yield test_client


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def running_server(*options: str) -> Iterator[str]:
    """Run ``zerosum serve`` with ``options`` on a free loopback port; yield its base URL."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "zerosum.cli", "serve", "--port", str(port), *options],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    try:
        while True:
            if process.poll() is not None:
                output = process.stdout.read().decode() if process.stdout else ""
                pytest.fail(f"zerosum serve exited with {process.returncode}: {output}")
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("zerosum serve did not answer within 30 s")
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """A real ``zerosum serve`` with one engine worker; yields its base URL."""
    with running_server("--workers", "1") as base:
        yield base


@pytest.fixture(scope="session")
def busy_server() -> Iterator[str]:
    """A real ``zerosum serve`` that is easy to keep busy: one engine worker, one search
    waiting at most, searches of up to a minute; yields its base URL."""
    with running_server("--workers", "1", "--queue", "1", "--max-think", "60") as base:
        yield base


@pytest.fixture(scope="module")
def own_game_server() -> Iterator[str]:
    """A real ``zerosum serve`` offering a game of the user's own, Hexapawn from
    docs/examples, named by its import form; yields its base URL."""
    with running_server("--workers", "1", "--game", "docs.examples.hexapawn:Hexapawn") as base:
        yield base


def chromium_path() -> str | None:
    """Debian's Chromium, if installed."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A headless Chromium driven by Playwright (which gives it a fresh profile folder);
    skipped when Chromium is not installed."""
    executable = chromium_path()
    if executable is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable,
            args=CHROMIUM_FLAGS,
        )
        try:
            yield launched
        finally:
            launched.close()


@contextmanager
def page_on(browser: Any, base: str) -> Iterator[Any]:
    """A fresh browser context (its own cookies) on the app's page at ``base``, with its
    console errors collected in ``page.errors``."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    tab.errors = []
    tab.on("pageerror", lambda error: tab.errors.append(str(error)))
    tab.on(
        "console", lambda message: tab.errors.append(message.text) if message.type == "error" else 0
    )
    tab.goto(base)
    tab.wait_for_selector("body[data-ready=true]")
    try:
        yield tab
    finally:
        context.close()


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    """The app's page in a fresh browser context, against :func:`server`."""
    with page_on(browser, server) as tab:
        yield tab


@pytest.fixture
def open_page(browser: Any) -> Callable[[str], AbstractContextManager[Any]]:
    """Open the app's page at a base URL, in a fresh browser context: a context manager."""
    return lambda base: page_on(browser, base)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
