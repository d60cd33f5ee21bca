// The lookup page: URL in, card out. `?url=` shows a card on load; `?output=` overrides data-output.
import { cardKey, fetchCard, renderCard } from "./card.js";

const app = document.getElementById("app");
const params = new URLSearchParams(location.search);
const output = params.get("output") || app.dataset.output;
const form = document.getElementById("lookup");
const input = document.getElementById("url");
const result = document.getElementById("result");
const keyLine = document.getElementById("key");

async function show(url) {
  result.replaceChildren();
  try {
    keyLine.textContent = "cards/" + (await cardKey(url)) + ".json";
    const card = await fetchCard(url, output);
    result.append(card ? renderCard(card, output) : document.createTextNode("No card for this URL."));
  } catch (error) {
    result.textContent = String(error.message || error);
  }
  document.body.dataset.state = "done";
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  show(input.value);
});
if (params.get("url")) {
  input.value = params.get("url");
  show(input.value);
}
