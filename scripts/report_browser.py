#!/usr/bin/python3
"""A report page (rushhour report) in a real browser: headless Chromium driven by Selenium.

Usage:
  /usr/bin/python3 scripts/report_browser.py PAGE.html --check (--run DIR | --clusters DB.h5) [--players K]
  /usr/bin/python3 scripts/report_browser.py PAGE.html --screenshot FILE.png [--width W] [--height H] [--full-page]
        [--anchor ID]

--check loads the page and fails (exit 1, the first difference on stderr) unless:
  - the browser logs no error and the page fetches nothing (no resource entries);
  - a run page's per-index table and totals equal DIR/classification.h5 (read by
    rushhour_h5.py, not by the page's code), a database page's clusters per highest index
    equal the counts of DB.h5's highest_index datasets (read with h5py);
  - each of the first K players (default: all) reaches the winning position (the target car on
    the two rightmost cells of the exit row) after exactly its solution's number of steps or
    moves, pressed by the arrow key, and not before; it steps back by its button and forward
    by a click on the board;
  - on a database page, each metric filter shows only that metric's puzzles, the minimal filter
    only minimal ones.
--screenshot writes a PNG of the page's first W x H pixels (default 1280 x 900), or with
--full-page of the whole page at width W; --anchor ID scrolls to that element first
(e.g. hardest, puzzles).

Needs Debian's chromium, chromium-driver and python3-selenium; exit 3 when one is missing (the
test suite skips then), 2 on bad usage.
"""
import argparse
import os
import shutil
import sys

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


class PageError(Exception):
    pass


def browser(width, height):
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        print("report_browser.py: python3-selenium is not installed", file=sys.stderr)
        sys.exit(3)
    for program in (CHROMIUM, CHROMEDRIVER):
        if not shutil.which(program):
            print(f"report_browser.py: {program} is not installed", file=sys.stderr)
            sys.exit(3)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def number(text):
    text = text.replace("\u2009", "").replace(",", "").strip()
    return None if text in ("–", "") else int(text)


def expect(condition, message):
    if not condition:
        raise PageError(message)


def check_console(driver):
    errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] in ("SEVERE", "ERROR")]
    expect(not errors, f"the browser logged errors: {errors[:3]}")
    fetched = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    expect(not fetched, f"the page fetched {fetched[:3]}")


def check_run_figures(driver, run_dir):
    import rushhour_h5
    run = rushhour_h5.read_classification(run_dir)
    # One round trip for the table: [index, {figure: text}] per row.
    rows = driver.execute_script(
        "return [...document.querySelectorAll('#per-index tbody tr')].map(tr => [Number(tr.dataset.index),"
        " Object.fromEntries([...tr.querySelectorAll('td[data-figure]')].map(td => [td.dataset.figure, td.textContent]))])")
    counts = run.data["layers/count"]
    nondominated = run.data["dominance/nondominated"]
    components = [int(c) for c in run.data["dominance/components"]]
    expect(len(rows) == len(counts), f"the page has {len(rows)} indices, the file {len(counts)}")
    for index, texts in rows:
        cell = {figure: number(text) for figure, text in texts.items()}
        expect(cell["count"] == counts[index], f"index {index}: page {cell['count']}, file {counts[index]}")
        if index < len(nondominated):
            expect(cell["nondominated"] == nondominated[index], f"index {index}: non-dominated differ")
        if index < len(components) and components[index] >= 0:
            expect(cell["components"] == components[index], f"index {index}: components differ")
    for key in ("domain_count", "winning_count", "solvable_count", "unsolvable_count", "max_index"):
        label = {"max_index": "highest index"}.get(key, key.removesuffix("_count"))
        shown = driver.execute_script(
            "for (const tr of document.querySelectorAll('#totals tr'))"
            " if (tr.cells[0].textContent === arguments[0]) return tr.cells[1].dataset.value; return null", label)
        expect(shown is not None and int(shown) == int(run.attrs[key]), f"{label}: page {shown}, file {run.attrs[key]}")
    return len(rows)


def check_database_figures(driver, path):
    import h5py
    import numpy as np
    with h5py.File(path, "r") as f:
        metric = f.attrs["metric"]
        metric = metric.decode() if isinstance(metric, bytes) else str(metric)
        expected = {metric: np.bincount(f["highest_index"][()])}
        for other in ("step", "move"):
            if other in f:
                expected[other] = np.bincount(f[other]["highest_index"][()])
    for name, counts in expected.items():
        rows = driver.execute_script(
            "return [...document.querySelectorAll('#clusters-' + arguments[0] + ' tbody tr')].map(tr =>"
            " [Number(tr.dataset.index), Number(tr.querySelector('td[data-value]').dataset.value)])", name)
        shown = {index: count for index, count in rows}
        wanted = {i: int(c) for i, c in enumerate(counts) if c}
        expect(shown == wanted, f"clusters per {name} index: page {shown}, file {wanted}")
    return expected


def check_filters(driver, metrics):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    for metric in metrics:
        Select(driver.find_element(By.ID, "filter-metric")).select_by_value(metric)
        visible = [c for c in driver.find_elements(By.CSS_SELECTOR, ".cards .card") if c.is_displayed()]
        expect(visible, f"no puzzle shown under the {metric} metric")
        expect(all(c.get_attribute("data-metric") == metric for c in visible), f"the {metric} filter shows others")
    box = driver.find_element(By.ID, "filter-minimal")
    if box.is_enabled():
        box.click()
        visible = [c for c in driver.find_elements(By.CSS_SELECTOR, ".cards .card") if c.is_displayed()]
        expect(all(c.get_attribute("data-minimal") == "true" for c in visible), "the minimal filter shows others")
        box.click()
    Select(driver.find_element(By.ID, "filter-metric")).select_by_value(metrics[0])


def check_players(driver, limit):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    players = driver.find_elements(By.CSS_SELECTOR, ".player")
    expect(players, "the page has no player")
    checked = 0
    for player in players[:limit]:
        # The card shown (a database page pages its cards), the player focused; its state
        # (position, won, board) as the page's script set it.
        total = driver.execute_script(
            "const p = arguments[0], card = p.closest('.card'); if (card) card.hidden = false;"
            " p.scrollIntoView(); p.focus(); return Number(p.querySelector('.counter').textContent.split('/')[1])", player)
        name = player.get_dom_attribute("id")

        def at(position, won):
            state = driver.execute_script("return {...arguments[0].dataset}", player)
            expect(state["position"] == str(position) and state["won"] == ("true" if won else "false"),
                   f"{name}: expected position {position} of {total} (won: {won}), the page has position "
                   f"{state['position']}, won {state['won']}, board {state['board']}")

        at(0, total == 0)
        if total:
            # An optimal solution reaches no winning position before its last step or move.
            player.send_keys(Keys.ARROW_RIGHT * (total - 1))
            at(total - 1, False)
            player.send_keys(Keys.ARROW_RIGHT)
            at(total, True)
            player.find_element(By.CSS_SELECTOR, 'button[data-action="back"]').click()
            at(total - 1, False)
            player.find_element(By.CSS_SELECTOR, "svg").click()
            at(total, True)
        checked += 1
    return checked


def main(argv):
    parser = argparse.ArgumentParser(prog="report_browser.py")
    parser.add_argument("page")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--run")
    parser.add_argument("--clusters")
    parser.add_argument("--players", type=int, default=10**9)
    parser.add_argument("--screenshot")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=900)
    parser.add_argument("--full-page", action="store_true")
    parser.add_argument("--anchor", help="with --screenshot: scroll to the element of this id first")
    args = parser.parse_args(argv[1:])
    if args.check == bool(args.screenshot) or (args.check and bool(args.run) == bool(args.clusters)):
        print("report_browser.py: give --check with --run DIR or --clusters DB, or --screenshot FILE", file=sys.stderr)
        return 2
    if not os.path.isfile(args.page):
        print(f"report_browser.py: {args.page}: no such file", file=sys.stderr)
        return 2
    driver = browser(args.width, args.height)
    try:
        driver.get("file://" + os.path.abspath(args.page) + (f"#{args.anchor}" if args.anchor else ""))
        if args.screenshot:
            from selenium.webdriver.common.by import By
            if args.full_page:
                height = driver.execute_script("return document.documentElement.scrollHeight")
                driver.set_window_size(args.width, min(height + 40, 12000))
                driver.find_element(By.TAG_NAME, "body").screenshot(args.screenshot)
            else:
                driver.save_screenshot(args.screenshot)
            print(args.screenshot)
            return 0
        check_console(driver)
        if args.run:
            indices = check_run_figures(driver, args.run)
            print(f"per-index table and totals equal classification.h5 ({indices} indices)")
        else:
            metrics = list(check_database_figures(driver, args.clusters))
            print(f"clusters per highest index equal the database's ({', '.join(metrics)})")
            check_filters(driver, metrics)
            print("the metric and minimal filters show only their puzzles")
        players = check_players(driver, args.players)
        print(f"{players} players reach the winning position after their solution's length")
        check_console(driver)
        print("no console error, nothing fetched")
    except PageError as error:
        print(f"report_browser.py: {args.page}: {error}", file=sys.stderr)
        return 1
    finally:
        driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
