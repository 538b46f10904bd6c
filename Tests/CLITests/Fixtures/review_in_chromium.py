#!/usr/bin/env python3
"""Drives `hlrender compare EXPECTED ACTUAL --review` in headless Chromium (Debian's chromium,
chromium-driver and python3-selenium), as a reviewer would: the keyboard approves the first
failing file and rejects the second, the zoom and the slider are used on the third, "Approve
all new" approves the new file, Done ends the review. Prints one JSON line: the page's
decisions, what the zoom and slider did, and the process's exit status and output.

    review_in_chromium.py HLRENDER EXPECTED_DIR ACTUAL_DIR
    review_in_chromium.py --approve-all COMMAND...   (any --review command: every "Approve all", then Done)
"""
import json, re, subprocess, sys, tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

approve_all = sys.argv[1] == "--approve-all"
command = sys.argv[2:] if approve_all else [sys.argv[1], "compare", sys.argv[2], sys.argv[3], "--review"]
process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
url = None
for line in process.stderr:
    found = re.search(r"at (http://127\.0\.0\.1:\d+/\w+/)", line)
    if found:
        url = found.group(1)
        break
if url is None:
    process.kill()
    sys.exit("no review address printed")

options = webdriver.ChromeOptions()
for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--user-data-dir={tempfile.mkdtemp()}"]:
    options.add_argument(flag)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
wait = WebDriverWait(driver, 20)
out = {}
try:
    driver.get(url)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "section.current"))
    text = lambda i: driver.find_element(By.ID, f"d{i}").text
    indices = [int(s.get_attribute("data-index")) for s in driver.find_elements(By.TAG_NAME, "section")]
    if approve_all:
        for button in driver.find_elements(By.CSS_SELECTOR, "button.kind"):
            button.click()
        wait.until(lambda d: all(text(i) == "approved" for i in indices))
        out["decisions"] = {str(i): text(i) for i in indices}
        driver.find_element(By.ID, "done").click()
        wait.until(lambda d: d.find_elements(By.ID, "finished"))
        driver.quit()
        stdout, stderr = process.communicate(timeout=30)
        print(json.dumps(dict(out, status=process.returncode, stdout=stdout, stderr=stderr)))
        sys.exit(0)
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys("a")  # approve the first, move to the second
    wait.until(lambda d: text(indices[0]) == "approved")
    body.send_keys("r")  # reject the second
    wait.until(lambda d: text(indices[1]) == "rejected")
    body.send_keys("z")  # zoom the third's difference
    third = driver.find_element(By.ID, f"e{indices[2]}")
    out["zoomed"] = "zoomed" in third.find_element(By.CSS_SELECTOR, ".diff img").get_attribute("class")
    slider = third.find_element(By.CSS_SELECTOR, ".slider input")
    driver.execute_script("arguments[0].value = 20; arguments[0].dispatchEvent(new Event('input'))", slider)
    out["slider"] = third.find_element(By.CSS_SELECTOR, ".slider .over").value_of_css_property("clip-path")
    loaded = "return [...document.images].every(i => i.complete && i.naturalWidth > 0)"
    try:
        WebDriverWait(driver, 10).until(lambda d: d.execute_script(loaded))
    except Exception:
        pass
    out["images"] = driver.execute_script(loaded)
    if not out["images"]:
        out["broken"] = driver.execute_script("return [...document.images].filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)")
    driver.find_element(By.CSS_SELECTOR, "button.kind[data-kind='new']").click()
    wait.until(lambda d: text(indices[3]) == "approved")
    out["decisions"] = {str(i): text(i) for i in indices}
    driver.find_element(By.ID, "done").click()
    wait.until(lambda d: d.find_elements(By.ID, "finished"))
finally:
    driver.quit()
stdout, stderr = process.communicate(timeout=30)
out.update(status=process.returncode, stdout=stdout, stderr=stderr)
print(json.dumps(out))
