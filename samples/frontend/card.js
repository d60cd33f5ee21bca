// How a web frontend finds and draws one thumbify link card. No dependencies; see docs/cards.md.
//
//   const card = await fetchCard("https://Example.com/a#top", "/previews/");
//   if (card) container.append(renderCard(card, "/previews/"));

const unreserved = /^[A-Za-z0-9\-._~]$/;

/** Makes percent-encoding consistent the way the crawl does (decodes unreserved, upper-case hex). */
function normalizeEscapes(text) {
  return text
    .replace(/%(?![0-9A-Fa-f]{2})/g, "%25")
    .replace(/%([0-9A-Fa-f]{2})/g, (escape, hex) => {
      const character = String.fromCharCode(parseInt(hex, 16));
      return unreserved.test(character) ? character : "%" + hex.toUpperCase();
    })
    .replace(/[\^`{|}\\]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

/**
 * The crawl's URL normalization (Sources/ThumbifyExtracting/URL/URLNormalization.swift), on top of the
 * browser's WHATWG URL parser: lower-case scheme and host, IDNA host, default port dropped, dot
 * segments removed, fragment and bare `?` dropped, escapes of unreserved characters decoded and
 * other escapes in upper-case hex. See docs/cards.md for the few inputs where the two differ.
 */
export function normalizeURL(input) {
  const url = new URL(input.trim());
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError("Only http and https URLs have cards.");
  }
  const user = url.username ? normalizeEscapes(url.username) + (url.password ? ":" + normalizeEscapes(url.password) : "") + "@" : "";
  const query = url.search.length > 1 ? normalizeEscapes(url.search.replace(/%27/g, "'")) : "";
  return url.protocol + "//" + user + url.host + normalizeEscapes(url.pathname || "/") + query;
}

/** The card key: lower-case hex SHA-256 of the normalized URL's UTF-8 (needs a secure context). */
export async function cardKey(url) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(normalizeURL(url)));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Fetches `<output>cards/<key>.json`; `null` when the URL has no card (404). */
export async function fetchCard(url, output) {
  const response = await fetch(output + "cards/" + (await cardKey(url)) + ".json");
  if (response.status === 404) return null;
  if (!response.ok) throw new Error("The card could not be loaded: HTTP " + response.status);
  return response.json();
}

function isLinkable(url) {
  try {
    return ["http:", "https:"].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text; // text only: metadata never becomes markup
  return node;
}

function image(picture, output, sizes, className) {
  if (!picture || !picture.variants || picture.variants.length === 0) return null;
  const url = (path) => output + path.split("/").map(encodeURIComponent).join("/");
  const first = picture.variants[0];
  const img = element("img", className);
  img.alt = picture.alt || "";
  img.width = first.width; // reserves the space: no layout jump when it loads
  img.height = first.height;
  img.sizes = sizes;
  img.srcset = picture.variants.map((v) => url(v.path) + " " + v.width + "w").join(", ");
  img.src = url(first.path);
  img.decoding = "async";
  return img;
}

/** An https URL, or null: the only iframes a card may open. */
function httpsURL(url) {
  try {
    return new URL(url).protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

/**
 * The player a card's video opens on a click, or null: the oEmbed `embed` (one https iframe, sandboxed),
 * else a `video` that is a file (a `<video>` element) or a player page on https (an iframe). Nothing
 * from the page becomes markup: only a URL goes into `src`.
 */
function player(card) {
  const embed = card.embed;
  const video = card.video;
  const frame = (src, width, height) => {
    const iframe = element("iframe", "player");
    iframe.src = src;
    iframe.sandbox = "allow-scripts allow-same-origin allow-presentation allow-popups";
    iframe.allow = "autoplay; fullscreen; picture-in-picture";
    iframe.allowFullscreen = true;
    iframe.referrerPolicy = "strict-origin";
    if (width && height) iframe.style.aspectRatio = width + " / " + height;
    return iframe;
  };
  if (embed && httpsURL(embed.iframeURL)) return frame(embed.iframeURL, embed.width, embed.height);
  if (video && video.kind === "file" && isLinkable(video.url)) {
    const videoElement = element("video", "player");
    videoElement.src = video.url;
    videoElement.controls = true;
    videoElement.autoplay = true;
    videoElement.preload = "none";
    return videoElement;
  }
  if (video && video.kind === "player" && httpsURL(video.url)) return frame(video.url, video.width, video.height);
  return null;
}

/** A card element in the style of LinkPresentation's LPLinkView. */
export function renderCard(card, output) {
  const root = element("article", "card " + card.state);
  const link = (child) => {
    if (!isLinkable(card.url)) return child;
    const anchor = element("a");
    anchor.href = card.url;
    anchor.rel = "noopener noreferrer nofollow ugc";
    anchor.append(child);
    return anchor;
  };
  const img = image(card.image, output, "(max-width: 480px) 100vw, 480px");
  if (img) {
    const media = element("div", "media");
    if (card.image.color) media.style.backgroundColor = card.image.color; // placeholder until loaded
    img.addEventListener("load", () => media.classList.add("loaded"));
    media.append(img);
    if (card.video) media.append(element("span", "badge", "\u25B6 Video"));
    const play = player(card);
    if (play) {
      // A playable card: the picture is a button that swaps itself for the player, not a link.
      media.classList.add("playable");
      media.tabIndex = 0;
      media.setAttribute("role", "button");
      media.setAttribute("aria-label", "Play the video");
      const start = () => media.replaceChildren(play);
      media.addEventListener("click", start, { once: true });
      media.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          start();
        }
      });
      root.append(media);
    } else {
      root.append(link(media));
    }
  }
  const body = element("div", "body");
  const site = element("div", "site");
  const icon = image(card.icon, output, "16px", "icon");
  if (icon) site.append(icon);
  site.append(element("bdi", null, card.siteName || card.domain || ""));
  const title = element("h2", "title");
  title.dir = "auto";
  title.append(link(element("bdi", null, card.title || card.url || card.normalizedURL)));
  body.append(site, title);
  if (card.description) {
    const description = element("p", "description");
    description.dir = "auto";
    description.append(element("bdi", null, card.description));
    body.append(description);
  }
  body.append(element("bdi", "domain", card.domain || ""));
  if (card.error) body.append(element("p", "error", (card.stale ? "Out of date: " : "Failed: ") + card.error.message));
  root.append(body);
  return root;
}
