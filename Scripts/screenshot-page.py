#!/usr/bin/env python3
"""Photographs pages of a web site in headless Chromium, whole, in the light and dark appearances.

Usage: Scripts/screenshot-page.py [options] base-url output-dir page...
    base-url     where the site is served, e.g. http://127.0.0.1:8000
    page         a path of the site, photographed whole, from top to bottom:
                     documentation/streams/debuggingapipeline
                 or, for a tutorial, a path ending in #step-N: the page is loaded, its Nth step
                 (counting from 1 down the whole tutorial) is scrolled to the middle of the window
                 and the window alone is photographed, so that the picture shows that step beside
                 the code the tutorial shows for it (#step-middle: the middle one of its steps):
                     tutorials/streams/meetthestore#step-8
                 or a path ending in any other #anchor, such as a tutorial's section: the page is
                 loaded at that anchor and the window alone is photographed.
Options:
    --browser PATH          Chromium to run (default: $CHROMIUM, else chromium-headless-shell,
                            else chromium on the PATH)
    --width PX              the window's width (default 1280)
    --height PX             the window's height (default 1800): the size of the window-only
                            pictures, and the window a whole page is laid out for
    --max-height PX         a whole page taller than this is cut there (default 30000)
    --appearances LIST      comma-separated, of light and dark (default light,dark)

Writes output-dir/<page>-<appearance>.png, with `/`, `(`, `)`, `:` and `#` of the page's path
turned into `_`, and prints each picture's path and pixel size, and the page's height where the
picture was cut short of it. Exit status: 0; 1 if a page could not be photographed; 3 if a picture
was cut.

Pages such as DocC's are drawn by scripts in the browser, after the HTML has loaded: a page is
photographed once its <main> has text, no element of it is a loading placeholder (a class with
"loading" in its name), its images (lazy ones too) and fonts have loaded, and its height and its
number of elements have stayed the same for a second. A page that does not get there within 30
seconds (a misspelled path, a server that is not running) is reported and skipped.

A whole page is laid out in the reading window (1280x1800), then photographed in a window made as
tall as the page, with what was sized to the window's height (a sidebar, a tutorial's code pane)
kept at the size it had, so that the picture shows the page as a reader scrolling down it sees it.

Chromium is driven through its DevTools protocol, over a small WebSocket client written here on
Python's standard library; the browser gets a free port and a temporary profile, and is stopped and
its profile removed on exit. Needs only Python 3 and Chromium (Debian: chromium-headless-shell).
"""
import argparse
import base64
import json
import math
import os
import pathlib
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse

LOAD_TIMEOUT = 30.0  # seconds a page gets to draw itself
POLL = 0.25  # seconds between two looks at a page that is drawing itself
STABLE_POLLS = 4  # looks in a row at the same height before a page counts as drawn
STEP_SETTLE = 1.5  # seconds after a tutorial step is scrolled to, for the code pane to follow


class WebSocket:
    """A WebSocket client (RFC 6455), only as much of one as the DevTools protocol needs: text
    messages, each way, over plain TCP."""

    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        self.sock = socket.create_connection((parts.hostname, parts.port))
        key = base64.b64encode(os.urandom(16)).decode()
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        self.sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("the browser closed the connection during the handshake")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(f"WebSocket handshake refused: {head.splitlines()[0]!r}")

    def _read(self, count):
        # Exactly `count` bytes: what the handshake read past its end first, then the socket.
        chunks, self.buffer = [self.buffer[:count]], self.buffer[count:]
        missing = count - len(chunks[0])
        while missing:
            chunk = self.sock.recv(min(missing, 1 << 20))
            if not chunk:
                raise ConnectionError("the browser closed the connection")
            chunks.append(chunk)
            missing -= len(chunk)
        return b"".join(chunks)

    def _send_frame(self, opcode, payload):
        # A client's frames are masked (RFC 6455, 5.3); the length takes 7, 16 or 64 bits.
        header = bytes([0x80 | opcode])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", len(payload))
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send(self, text):
        self._send_frame(0x1, text.encode())

    def receive(self):
        """The next text message, put together from its fragments; answers pings on the way."""
        message = b""
        while True:
            first, second = self._read(2)
            opcode, length = first & 0x0F, second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", self._read(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", self._read(8))
            mask = self._read(4) if second & 0x80 else None
            payload = self._read(length)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x8:
                raise ConnectionError("the browser closed the connection")
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode in (0x0, 0x1, 0x2):
                message += payload
                if first & 0x80:
                    return message.decode()

    def close(self):
        try:
            self._send_frame(0x8, b"")
        except OSError:
            pass
        self.sock.close()


class Browser:
    """Headless Chromium on a free port with a throwaway profile, and one page (tab) in it, driven
    through the DevTools protocol over a single WebSocket ("flat" sessions)."""

    def __init__(self, executable):
        self.profile = tempfile.mkdtemp(prefix="screenshot-page-")
        self.log = open(os.path.join(self.profile, "browser.log"), "w+b")
        # --remote-debugging-port=0: the browser picks a free port and writes it, with the
        # WebSocket's path, into DevToolsActivePort in the profile.
        self.process = subprocess.Popen(
            [
                executable,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--no-first-run",
                "--mute-audio",
                "--remote-debugging-port=0",
                f"--user-data-dir={self.profile}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=self.log,
            # Its own process group: Debian's chromium-headless-shell is a shell script that runs
            # the browser as its child, and the browser starts helpers of its own; close() stops
            # them all.
            start_new_session=True,
        )
        self.next_id = 0
        self.session = None
        self.socket = None
        try:
            self.socket = WebSocket(self._devtools_url())
            target = self.call("Target.createTarget", url="about:blank")["targetId"]
            self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)[
                "sessionId"
            ]
            self.call("Page.enable")
            self.call("Page.addScriptToEvaluateOnNewDocument", source=HOLD_WINDOW_SIZE)
        except BaseException:
            self.close()
            raise

    def _devtools_url(self):
        active_port = pathlib.Path(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            lines = active_port.read_text().split() if active_port.exists() else []
            if len(lines) == 2:
                return f"ws://127.0.0.1:{lines[0]}{lines[1]}"
            time.sleep(0.1)
        self.log.seek(0)
        raise RuntimeError(
            "the browser did not start:\n" + self.log.read().decode(errors="replace")[-2000:]
        )

    def call(self, method, **params):
        """Sends a command to the page (or to the browser, before there is a page) and returns its
        result; events that arrive meanwhile are not needed and are dropped."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if self.session:
            message["sessionId"] = self.session
        self.socket.send(json.dumps(message))
        while True:
            reply = json.loads(self.socket.receive())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error'].get('message')}")
                return reply["result"]

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"script failed: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def close(self):
        """Asks the browser to quit, then stops whatever of it is left, and removes the profile."""
        if self.socket:
            try:
                self.session = None
                self.call("Browser.close")
                self.socket.close()
            except Exception:
                pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)


# Evaluated in the page until it returns the same a few times in a row: the page's height and its
# number of elements, once it has drawn its content, no loading placeholder is left (DocC's
# `InitialLoadingPlaceholder`, its sidebar's `loading-navigator`) and its images and fonts have
# loaded; null before. Lazy images are made eager, as a whole-page picture shows images far below
# the window that would not load otherwise.
DRAWN = """(() => {
    const main = document.querySelector('main');
    if (document.readyState !== 'complete' || !main || !main.innerText.trim()) return null;
    if (document.querySelector('[class*="loading" i]')) return null;
    const images = [...document.images];
    for (const image of images) if (image.loading === 'lazy') image.loading = 'eager';
    if (!images.every(image => image.complete)) return null;
    if (document.fonts && document.fonts.status !== 'loaded') return null;
    return [document.documentElement.scrollHeight, document.getElementsByTagName('*').length];
})()"""

# Scrolls a tutorial's Nth step (DocC: the `.step` elements, top to bottom; N = 0: the middle one)
# to the middle of the window; returns its number, or 0 if the page has fewer than N steps.
SCROLL_TO_STEP = """((n) => {
    const steps = document.querySelectorAll('.step');
    if (n === 0) n = Math.ceil(steps.length / 2);
    if (n < 1 || steps.length < n) return 0;
    steps[n - 1].scrollIntoView({block: 'center'});
    return n;
})(%d)"""

# Whether the step scrolled to is the one the tutorial follows now (DocC marks it `focused`, and
# shows its code in the pane on the right).
STEP_FOCUSED = """document.querySelectorAll('.step')[%d - 1].classList.contains('focused')"""


# Run in every page before its own scripts, so as to be the first to hear of a resize of the window:
# once FREEZE_WINDOW_HEIGHT has set `holdWindowSize`, the page's own listeners no longer do.
HOLD_WINDOW_SIZE = """for (const type of ['resize', 'orientationchange']) {
    window.addEventListener(type, event => {
        if (window.holdWindowSize) event.stopImmediatePropagation();
    }, true);
}"""

# Run before a page is photographed whole in a window made as tall as the page, so that the page
# stays laid out as in the window it is read in: lengths relative to the window's height (`100vh`,
# as in a sidebar or a code pane as tall as the window) are turned into pixels for the window's
# height now, in the style sheets and in the elements' own styles, and the page's scripts no longer
# hear of the window being resized. Returns how many values were turned into pixels.
FREEZE_WINDOW_HEIGHT = """(() => {
    const height = window.innerHeight, width = window.innerWidth;
    const units = {vh: height, svh: height, lvh: height, dvh: height,
                   vmin: Math.min(width, height), vmax: Math.max(width, height)};
    const inPixels = value => value.replace(/(-?[0-9.]+)(svh|lvh|dvh|vh|vmin|vmax)\\b/g,
        (_, number, unit) => `${(parseFloat(number) * units[unit] / 100).toFixed(2)}px`);
    let changed = 0;
    const freeze = style => {
        for (const property of [...style]) {
            const value = style.getPropertyValue(property);
            const frozen = inPixels(value);
            if (frozen !== value) {
                style.setProperty(property, frozen, style.getPropertyPriority(property));
                changed++;
            }
        }
    };
    const walk = rules => {
        for (const rule of rules) {
            if (rule.style) freeze(rule.style);
            if (rule.cssRules) walk(rule.cssRules);
        }
    };
    for (const sheet of document.styleSheets) {
        try { walk(sheet.cssRules); } catch (error) { /* another origin's: not readable */ }
    }
    for (const element of document.querySelectorAll('[style]')) freeze(element.style);
    window.holdWindowSize = true;  // see HOLD_WINDOW_SIZE
    return changed;
})()"""


def wait_until_drawn(browser):
    deadline = time.monotonic() + LOAD_TIMEOUT
    looks = []
    while time.monotonic() < deadline:
        time.sleep(POLL)
        looks = (looks + [browser.evaluate(DRAWN)])[-STABLE_POLLS:]
        if len(looks) == STABLE_POLLS and looks[0] and all(look == looks[0] for look in looks):
            return True
    return False


def png_size(data):
    # A PNG's IHDR chunk, first in the file, starts with the width and the height.
    return struct.unpack("!II", data[16:24])


def page_height(browser):
    return math.ceil(browser.call("Page.getLayoutMetrics")["cssContentSize"]["height"])


def set_window(browser, width, height):
    browser.call(
        "Emulation.setDeviceMetricsOverride",
        width=width,
        height=height,
        deviceScaleFactor=1,
        mobile=False,
    )


def photograph(browser, base_url, page, appearance, options):
    """Returns the picture of one page as PNG bytes and the height of what it shows (the page's,
    for a whole page, which may be more than the picture's if it was cut), or raises
    RuntimeError."""
    path, _, anchor = page.partition("#")
    url = base_url.rstrip("/") + "/" + urllib.parse.quote(path.strip("/"), safe="/():")
    step = re.fullmatch(r"step-(\d+|middle)", anchor)
    if anchor and not step:
        url += "#" + anchor
    set_window(browser, options.width, options.height)
    browser.call(
        "Emulation.setEmulatedMedia",
        features=[{"name": "prefers-color-scheme", "value": appearance}],
    )
    # Through a blank page, so that the same page in the other appearance loads afresh.
    browser.call("Page.navigate", url="about:blank")
    browser.call("Page.navigate", url=url)
    if not wait_until_drawn(browser):
        raise RuntimeError(f"not drawn within {LOAD_TIMEOUT:.0f} s (is {url} a page of the site?)")

    if anchor:
        if step:
            number = browser.evaluate(SCROLL_TO_STEP % (0 if step[1] == "middle" else int(step[1])))
            if not number:
                raise RuntimeError(f"the page has no step {step[1]}")
            # DocC moves its focus (and the code pane) when the reader scrolls, not on a scroll
            # made by a script: a turn of the mouse wheel down and back, which ends where it
            # started, makes it look.
            deadline = time.monotonic() + 10
            while not browser.evaluate(STEP_FOCUSED % number):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"step {number} did not become the focused step")
                for delta in (100, -100):
                    browser.call(
                        "Input.dispatchMouseEvent",
                        type="mouseWheel",
                        x=options.width // 2,
                        y=options.height // 2,
                        deltaX=0,
                        deltaY=delta,
                    )
                    time.sleep(2 * POLL)
        # Time for the code pane's transition, or for the scroll to the anchor.
        time.sleep(STEP_SETTLE)
        shot = browser.call("Page.captureScreenshot", format="png")
        return base64.b64decode(shot["data"]), options.height

    # A whole page is photographed in a window as tall as the page, its lengths relative to the
    # window's height kept as they were (FREEZE_WINDOW_HEIGHT). Chromium's captureBeyondViewport
    # does not do: the page hears of a resize to 1x1 and back during the capture, and one that lays
    # itself out again on a resize (DocC's sidebar, breadcrumbs) comes out half laid out. A page
    # that grows with the window all the same gets a few tries, then is cut.
    browser.evaluate(FREEZE_WINDOW_HEIGHT)
    height = options.height
    content = page_height(browser)
    for _ in range(4):
        if content <= height or height >= options.max_height:
            break
        height = min(content, options.max_height)
        set_window(browser, options.width, height)
        if not wait_until_drawn(browser):
            raise RuntimeError(f"not drawn again within {LOAD_TIMEOUT:.0f} s in a taller window")
        content = page_height(browser)
    browser.evaluate("window.scrollTo(0, 0)")
    shot = browser.call(
        "Page.captureScreenshot",
        format="png",
        clip={"x": 0, "y": 0, "width": options.width, "height": min(content, height), "scale": 1},
    )
    return base64.b64decode(shot["data"]), content


def main():
    parser = argparse.ArgumentParser(
        description="Photographs pages of a web site in headless Chromium, whole, in the light "
        "and the dark appearance."
    )
    parser.add_argument("base_url")
    parser.add_argument("output_dir")
    parser.add_argument("pages", nargs="+")
    parser.add_argument(
        "--browser",
        default=os.environ.get("CHROMIUM")
        or shutil.which("chromium-headless-shell")
        or shutil.which("chromium"),
    )
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=1800)
    parser.add_argument("--max-height", type=int, default=30000)
    parser.add_argument("--appearances", default="light,dark")
    options = parser.parse_args()
    if not options.browser:
        sys.exit("screenshot-page: no Chromium found (apt-get install chromium-headless-shell)")
    appearances = options.appearances.split(",")
    if not set(appearances) <= {"light", "dark"}:
        sys.exit("screenshot-page: --appearances takes light, dark or light,dark")

    # A SIGTERM (say, from a script that runs this one) unwinds like Ctrl-C, closing the browser.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    output = pathlib.Path(options.output_dir)
    output.mkdir(parents=True, exist_ok=True)
    failed = cut_pages = 0
    browser = Browser(options.browser)
    try:
        for page in options.pages:
            for appearance in appearances:
                name = re.sub(r"[/():#]", "_", page.strip("/")) + f"-{appearance}.png"
                try:
                    data, content = photograph(browser, options.base_url, page, appearance, options)
                except RuntimeError as error:
                    print(f"{page} ({appearance}): {error}", file=sys.stderr)
                    failed += 1
                    continue
                (output / name).write_bytes(data)
                width, height = png_size(data)
                cut = content > height
                note = f", cut: the page is {content} px tall" if cut else ""
                print(f"{output / name}: {width}x{height}{note}")
                cut_pages += cut
    finally:
        browser.close()
    if failed:
        sys.exit(1)
    if cut_pages:
        print(
            f"screenshot-page: {cut_pages} pictures cut short of their page's height",
            file=sys.stderr,
        )
        sys.exit(3)


if __name__ == "__main__":
    main()
