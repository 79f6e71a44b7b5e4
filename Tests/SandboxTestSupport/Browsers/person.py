"""Plays a person at a browser: reads a list of steps (JSON on stdin), does each in a real headless
Chromium (Debian's, through Playwright; no browser is downloaded), and prints one JSON object:
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
Before each step but goto, a person waits until the page no longer says it is busy (`aria-busy="true"`).
Every wait gives up after "timeoutMilliseconds" (10,000 unless the input sets it). "resolve":
{NAME: ADDRESS} makes the browser's resolver answer NAME with ADDRESS (a DNS-rebinding name).
"""
import json
import sys

from playwright.sync_api import sync_playwright


def main():
    request = json.load(sys.stdin)
    steps = request["steps"]
    timeout = request.get("timeoutMilliseconds", 10000)
    reads, error, failed = [], None, None
    with sync_playwright() as playwright:
        # "resolve": {name: address} points names at addresses, as a rebinding DNS server would.
        rules = ",".join(f"MAP {name} {address}" for name, address in request.get("resolve", {}).items())
        browser = playwright.chromium.launch(
            executable_path=request.get("chromium", "/usr/bin/chromium"),
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
            + ([f"--host-resolver-rules={rules}"] if rules else []))
        page = browser.new_page()
        page.set_default_timeout(timeout)
        for index, step in enumerate(steps):
            try:
                if not any(verb in step for verb in ("goto", "accept", "dismiss")):
                    # A person acts on, and reads, what the page shows once it stopped saying it is busy.
                    page.wait_for_function("() => !document.querySelector('[aria-busy=true]')")
                if "goto" in step:
                    page.goto(step["goto"], wait_until="load")
                elif "fill" in step:
                    page.get_by_label(step["fill"], exact=True).fill(step["text"])
                elif "select" in step:
                    page.get_by_label(step["select"], exact=True).select_option(step["value"])
                elif "click" in step:
                    page.get_by_role("button", name=step["click"], exact=True).click()
                elif "check" in step:
                    page.get_by_label(step["check"], exact=True).check()
                elif "clickLink" in step:
                    page.get_by_role("link", name=step["clickLink"], exact=True).click()
                elif "clickIn" in step:
                    page.locator(step["clickIn"]).get_by_role("button", name=step["name"], exact=True).click()
                elif "read" in step:
                    # A person reads once something is shown: visible, and not blank.
                    element = page.locator(step["read"]).first
                    element.wait_for(state="visible")
                    page.wait_for_function("e => e.innerText.trim().length > 0", arg=element.element_handle())
                    reads.append(element.inner_text())
                elif "readValue" in step:
                    reads.append(page.get_by_label(step["readValue"], exact=True).input_value())
                elif "readAll" in step:
                    reads.append(page.locator(step["readAll"]).all_inner_texts())
                elif "waitText" in step:
                    page.locator(step["waitText"]).first.filter(has_text=step["contains"]).wait_for(state="visible")
                elif "accept" in step:
                    page.once("dialog", lambda dialog: dialog.accept())
                elif "dismiss" in step:
                    page.once("dialog", lambda dialog: dialog.dismiss())
                elif "screenshot" in step:
                    page.locator(step["screenshot"]).first.screenshot(path=step["path"])
                else:
                    raise ValueError(f"unknown step {step}")
            except Exception as exception:  # reported to the Swift test, which fails with it
                error, failed = f"{type(exception).__name__}: {exception}".splitlines()[0], index
                break
        browser.close()
    print(json.dumps({"reads": reads, "error": error, "step": failed}))


if __name__ == "__main__":
    main()
