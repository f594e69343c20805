"""Debian's headless Chromium under Selenium and chromedriver, as the browser suites start it.

Both /usr/bin/chromium and /usr/bin/chromedriver come from scripts/install-deps.sh.
"""
from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def start_browser(console_log=False):
    """A headless Chromium with a 1280x1000 window; console_log keeps the page's console
    messages for driver.get_log("browser")."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--window-size=1280,1000", "--disable-gpu"):
        options.add_argument(argument)
    if console_log:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
