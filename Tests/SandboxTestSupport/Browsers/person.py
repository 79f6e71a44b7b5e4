"""Plays people at a browser: each request is a list of steps that one person does in a real headless
Chromium (Debian's, through Playwright; no browser is downloaded), answered by one JSON object:
{"reads": [...], "error": null | "what failed", "step": index of the failed step}.

Steps find things as a person does, by what the page shows: a field by its label, a button by
its name. Each step is an object with one verb:
  {"goto": URL}                       open a page
  {"fill": LABEL, "text": TEXT}       type into the field labelled LABEL (replacing what is there)
  {"select": LABEL, "value": VALUE}   choose an option of the list labelled LABEL
  {"click": NAME}                     press the button called NAME (waits until it can be pressed)
  {"clickLink": NAME}                 follow the link whose text is NAME
  {"read": CSS}                       the text of the first element CSS matches (waits until it shows some)
  {"readAll": CSS}                    the texts of every element CSS matches, as they are now
  {"readValue": LABEL}                what the field labelled LABEL holds
  {"waitText": CSS, "contains": TEXT} wait until that element's text contains TEXT
  {"clickIn": CSS, "name": NAME}      press the button called NAME inside the element CSS matches
  {"accept": true}                    accept the next confirm() dialog
  {"dismiss": true}                   dismiss the next confirm() dialog
  {"screenshot": CSS, "path": FILE}   a PNG of what the element shows (a QR code to scan)
  {"viewport": [WIDTH, HEIGHT]}       the window's size from now on (a phone is 390 wide)
  {"overflow": true}                  how many pixels the page is wider than the window (0: none)
  {"inViewport": CSS}                 whether the first element CSS matches is shown, wholly inside the window
  {"screenshotPage": FILE}            a picture of the whole page (PNG, or JPEG for a FILE ending in .jpg)
Before each step but goto, a person waits until the page no longer says it is busy (`aria-busy="true"`).
Every wait gives up after "timeoutMilliseconds" (10,000 unless the input sets it). "resolve":
{NAME: ADDRESS} makes the browser's resolver answer NAME with ADDRESS (a DNS-rebinding name): such
a person gets a Chromium of their own.

    person.py --serve SOCKET

starts Playwright and Chromium once, listens on the Unix socket SOCKET (and prints "ready"), and
plays each request, a JSON line on a connection ({"steps", "timeoutMilliseconds", "chromium",
"resolve"}), in a new browser context (its own cookies, storage and pages), answering its JSON
line. Requests run side by side. It ends when its standard input ends (the Swift tests' LineServer holds the other
end for as long as the test process lives). Starting Playwright's driver and Chromium cost each of
the browser suite's thirty-odd people more CPU than most of their steps.
"""
import asyncio
import json
import sys

from playwright.async_api import async_playwright

ARGUMENTS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]


async def launch(playwright, chromium, resolve):
    """A Chromium; `resolve` ({name: address}) points names at addresses, as a rebinding DNS server would."""
    rules = ",".join(f"MAP {name} {address}" for name, address in resolve.items())
    return await playwright.chromium.launch(
        executable_path=chromium, args=ARGUMENTS + ([f"--host-resolver-rules={rules}"] if rules else []))


async def play(browser, request):
    """The request's steps in a new context of `browser`: {"reads", "error", "step"}."""
    timeout = request.get("timeoutMilliseconds", 10000)
    reads, error, failed = [], None, None
    context = await browser.new_context()
    try:
        page = await context.new_page()
        page.set_default_timeout(timeout)
        for index, step in enumerate(request["steps"]):
            try:
                await act(page, step, reads)
            except Exception as exception:  # reported to the Swift test, which fails with it
                error, failed = f"{type(exception).__name__}: {exception}".splitlines()[0], index
                break
    finally:
        await context.close()
    return {"reads": reads, "error": error, "step": failed}


async def act(page, step, reads):
    if not any(verb in step for verb in ("goto", "accept", "dismiss", "viewport")):
        # A person acts on, and reads, what the page shows once it stopped saying it is busy.
        await page.wait_for_function("() => !document.querySelector('[aria-busy=true]')")
    if "goto" in step:
        await page.goto(step["goto"], wait_until="load")
    elif "fill" in step:
        await page.get_by_label(step["fill"], exact=True).fill(step["text"])
    elif "select" in step:
        await page.get_by_label(step["select"], exact=True).select_option(step["value"])
    elif "click" in step:
        await page.get_by_role("button", name=step["click"], exact=True).click()
    elif "check" in step:
        await page.get_by_label(step["check"], exact=True).check()
    elif "clickLink" in step:
        await page.get_by_role("link", name=step["clickLink"], exact=True).click()
    elif "clickIn" in step:
        await page.locator(step["clickIn"]).get_by_role("button", name=step["name"], exact=True).click()
    elif "read" in step:
        # A person reads once something is shown: visible, and not blank.
        element = page.locator(step["read"]).first
        await element.wait_for(state="visible")
        await page.wait_for_function("e => e.innerText.trim().length > 0", arg=await element.element_handle())
        reads.append(await element.inner_text())
    elif "readValue" in step:
        reads.append(await page.get_by_label(step["readValue"], exact=True).input_value())
    elif "readAll" in step:
        reads.append(await page.locator(step["readAll"]).all_inner_texts())
    elif "waitText" in step:
        await page.locator(step["waitText"]).first.filter(has_text=step["contains"]).wait_for(state="visible")
    elif "accept" in step:
        page.once("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
    elif "dismiss" in step:
        page.once("dialog", lambda dialog: asyncio.ensure_future(dialog.dismiss()))
    elif "screenshot" in step:
        await page.locator(step["screenshot"]).first.screenshot(path=step["path"])
    elif "viewport" in step:
        width, height = step["viewport"]
        await page.set_viewport_size({"width": width, "height": height})
    elif "overflow" in step:
        reads.append(await page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth"))
    elif "inViewport" in step:
        element = page.locator(step["inViewport"]).first
        await element.wait_for(state="visible")
        reads.append(await element.evaluate(
            """e => { const box = e.getBoundingClientRect();
                      return box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth; }"""))
    elif "screenshotPage" in step:
        path = step["screenshotPage"]
        await page.screenshot(path=path, full_page=True, **({"quality": 70} if path.endswith(".jpg") else {}))
    else:
        raise ValueError(f"unknown step {step}")


async def serve(path):
    async with async_playwright() as playwright:
        browsers = {}  # one Chromium per executable; a request that resolves names gets its own

        async def answer(reader, writer):
            try:
                request = json.loads(await reader.readline())
                chromium, resolve = request.get("chromium", "/usr/bin/chromium"), request.get("resolve", {})
                if resolve:
                    browser = await launch(playwright, chromium, resolve)
                    try:
                        result = await play(browser, request)
                    finally:
                        await browser.close()
                else:
                    if chromium not in browsers:
                        browsers[chromium] = asyncio.ensure_future(launch(playwright, chromium, {}))
                    result = await play(await browsers[chromium], request)
            except Exception as exception:
                result = {"reads": [], "error": f"person.py: {type(exception).__name__}: {exception}".splitlines()[0], "step": None}
            writer.write((json.dumps(result) + "\n").encode())
            await writer.drain()
            writer.close()

        server = await asyncio.start_unix_server(answer, path=path)
        print("ready", flush=True)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.buffer.read)  # until the test process is gone
        server.close()


def main():
    if len(sys.argv) != 3 or sys.argv[1] != "--serve":
        sys.exit("usage: person.py --serve SOCKET")
    asyncio.run(serve(sys.argv[2]))


if __name__ == "__main__":
    main()
