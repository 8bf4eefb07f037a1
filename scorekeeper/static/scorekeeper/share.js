// Sharing (partials/share_link.html): a link is copied with [data-copy] (the id of the field that
// holds it) and handed to the phone's own share sheet with [data-share-url], where the browser has
// one (Web Share); each button shows only where it works.
import { t } from "./i18n.js";

function setUp() {
  document.querySelectorAll("[data-copy]").forEach((button) => { button.hidden = false; });
  document.querySelectorAll("[data-share-url]").forEach((button) => { button.hidden = !navigator.share; });
}

async function copy(field) {
  try {
    await navigator.clipboard.writeText(field.value);
    return true;
  } catch (error) {  // no clipboard API here (or refused): the old way, through a selection
    field.focus();
    field.select();
    return document.execCommand && document.execCommand("copy");
  }
}

document.addEventListener("click", async (event) => {
  const copyButton = event.target.closest && event.target.closest("[data-copy]");
  if (copyButton) {
    const field = document.getElementById(copyButton.dataset.copy);
    const done = document.getElementById(`${copyButton.dataset.copy}-copied`);
    const copied = field && await copy(field);
    if (done) done.textContent = copied ? t("Copied: paste it in a chat.") : t("Select the link and copy it.");
    return;
  }
  const shareButton = event.target.closest && event.target.closest("[data-share-url]");
  if (shareButton && navigator.share) {
    const data = { title: shareButton.dataset.shareTitle, url: shareButton.dataset.shareUrl };
    if (shareButton.dataset.shareText) data.text = shareButton.dataset.shareText;
    navigator.share(data).catch(() => {});  // closed without sharing: nothing to say
  }
});
document.addEventListener("DOMContentLoaded", setUp);
document.addEventListener("htmx:afterSettle", setUp);
