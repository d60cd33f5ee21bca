/// The report page's one script: renders cards from the page's JSON blocks with DOM APIs only.
///
/// Metadata reaches the page only as `textContent` and as attributes set through the DOM, links
/// only when `new URL(url).protocol` is `http:` or `https:`, so no card can add markup or script.
/// The page's Content-Security-Policy allows exactly this script by its SHA-256 hash.
///
/// It reads `#report-config` (`base`, `total`, `pageSize`, `chunks`) and `#chunk-N` (a JSON array
/// of at most `pageSize` cards), renders page 1 as soon as `#chunk-0` is parsed, in batches as the
/// reader scrolls (IntersectionObserver), and draws each image's ThumbHash (decoded here, as in
/// Evan Wallace's reference decoder) or colour until the image has loaded.
enum ReportScript {
  static let source = #"""
    (() => {
      "use strict";
      const config = JSON.parse(document.getElementById("report-config").textContent);
      const base = config.base;
      const pageSize = config.pageSize;
      const batchSize = 24;
      const grid = document.getElementById("cards");
      const sentinel = document.getElementById("more");
      const pageStatus = document.getElementById("page-status");
      const prev = document.getElementById("prev");
      const next = document.getElementById("next");
      const showSelect = document.getElementById("show");
      const parsed = new Map();
      let list = [], rendered = 0, pageCount = 1, page = 0, filter = "all", filtered = null;

      function chunk(index) {
        let cards = parsed.get(index);
        if (cards === undefined) {
          const element = document.getElementById("chunk-" + index);
          if (!element) return [];
          cards = JSON.parse(element.textContent);
          parsed.set(index, cards);
        }
        return cards;
      }

      function isLinkable(url) {
        try {
          const protocol = new URL(url).protocol;
          return protocol === "http:" || protocol === "https:";
        } catch (error) {
          return false;
        }
      }

      function node(tag, className, text) {
        const element = document.createElement(tag);
        if (className) element.className = className;
        if (text !== undefined && text !== null) element.textContent = text;
        return element;
      }

      function isolated(tag, className, text) {
        const element = node(tag, className);
        element.dir = "auto";
        element.append(node("bdi", null, text));
        return element;
      }

      function link(url, className) {
        if (!isLinkable(url)) return node("span", className);
        const anchor = node("a", className);
        anchor.href = url;
        anchor.rel = "noopener noreferrer nofollow ugc";
        anchor.target = "_blank";
        return anchor;
      }

      function blobURL(path) {
        return (base + path).split("/").map(encodeURIComponent).join("/");
      }

      function thumbHashToRGBA(hash) {
        const { PI, min, max, cos, round } = Math;
        const header24 = hash[0] | (hash[1] << 8) | (hash[2] << 16);
        const header16 = hash[3] | (hash[4] << 8);
        const lDC = (header24 & 63) / 63, pDC = ((header24 >> 6) & 63) / 31.5 - 1;
        const qDC = ((header24 >> 12) & 63) / 31.5 - 1, lScale = ((header24 >> 18) & 31) / 31;
        const hasAlpha = header24 >> 23;
        const pScale = ((header16 >> 3) & 63) / 63, qScale = ((header16 >> 9) & 63) / 63;
        const isLandscape = header16 >> 15;
        const lx = max(3, isLandscape ? (hasAlpha ? 5 : 7) : header16 & 7);
        const ly = max(3, isLandscape ? header16 & 7 : hasAlpha ? 5 : 7);
        const aDC = hasAlpha ? (hash[5] & 15) / 15 : 1, aScale = (hash[5] >> 4) / 15;
        const acStart = hasAlpha ? 6 : 5;
        let acIndex = 0;
        const channel = (nx, ny, scale) => {
          const ac = [];
          for (let cy = 0; cy < ny; cy++)
            for (let cx = cy ? 0 : 1; cx * ny < nx * (ny - cy); cx++, acIndex++)
              ac.push((((hash[acStart + (acIndex >> 1)] >> ((acIndex & 1) << 2)) & 15) / 7.5 - 1) * scale);
          return ac;
        };
        const lAC = channel(lx, ly, lScale), pAC = channel(3, 3, pScale * 1.25), qAC = channel(3, 3, qScale * 1.25);
        const aAC = hasAlpha ? channel(5, 5, aScale) : null;
        const ratio = thumbHashAspectRatio(hash);
        const w = round(ratio > 1 ? 32 : 32 * ratio), h = round(ratio > 1 ? 32 / ratio : 32);
        const rgba = new Uint8ClampedArray(w * h * 4), fx = [], fy = [];
        for (let y = 0, i = 0; y < h; y++) {
          for (let x = 0; x < w; x++, i += 4) {
            let l = lDC, p = pDC, q = qDC, a = aDC;
            for (let cx = 0, n = max(lx, hasAlpha ? 5 : 3); cx < n; cx++) fx[cx] = cos((PI / w) * (x + 0.5) * cx);
            for (let cy = 0, n = max(ly, hasAlpha ? 5 : 3); cy < n; cy++) fy[cy] = cos((PI / h) * (y + 0.5) * cy);
            for (let cy = 0, j = 0; cy < ly; cy++)
              for (let cx = cy ? 0 : 1, fy2 = fy[cy] * 2; cx * ly < lx * (ly - cy); cx++, j++) l += lAC[j] * fx[cx] * fy2;
            for (let cy = 0, j = 0; cy < 3; cy++)
              for (let cx = cy ? 0 : 1, fy2 = fy[cy] * 2; cx < 3 - cy; cx++, j++) {
                const f = fx[cx] * fy2;
                p += pAC[j] * f;
                q += qAC[j] * f;
              }
            if (aAC)
              for (let cy = 0, j = 0; cy < 5; cy++)
                for (let cx = cy ? 0 : 1, fy2 = fy[cy] * 2; cx < 5 - cy; cx++, j++) a += aAC[j] * fx[cx] * fy2;
            const b = l - (2 / 3) * p, r = (3 * l - b + q) / 2, g = r - q;
            rgba[i] = max(0, 255 * min(1, r));
            rgba[i + 1] = max(0, 255 * min(1, g));
            rgba[i + 2] = max(0, 255 * min(1, b));
            rgba[i + 3] = max(0, 255 * min(1, a));
          }
        }
        return { w, h, rgba };
      }

      function thumbHashAspectRatio(hash) {
        const header = hash[3], hasAlpha = hash[2] & 0x80, isLandscape = hash[4] & 0x80;
        const lx = isLandscape ? (hasAlpha ? 5 : 7) : header & 7;
        const ly = isLandscape ? header & 7 : hasAlpha ? 5 : 7;
        return lx / ly;
      }

      function placeholder(base64) {
        try {
          const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
          if (bytes.length < 5) return null;
          const { w, h, rgba } = thumbHashToRGBA(bytes);
          const canvas = node("canvas", "placeholder");
          canvas.width = w;
          canvas.height = h;
          canvas.getContext("2d").putImageData(new ImageData(rgba, w, h), 0, 0);
          return canvas;
        } catch (error) {
          return null;
        }
      }

      function image(picture, className, sizes) {
        const variants = picture && picture.variants;
        if (!variants || variants.length === 0) return null;
        const first = variants[0];
        const img = node("img", className);
        img.alt = picture.alt || "";
        img.width = first.width;
        img.height = first.height;
        img.loading = "lazy";
        img.decoding = "async";
        img.sizes = sizes;
        img.srcset = variants.map((v) => blobURL(v.path) + " " + v.width + "w").join(", ");
        img.src = blobURL(first.path);
        return img;
      }

      function media(card) {
        const picture = card.image;
        const img = image(picture, null, "(max-width: 640px) 100vw, 400px");
        if (!img) return null;
        const box = link(card.url, "media");
        box.tabIndex = -1;
        const first = picture.variants[0];
        const ratio = Math.min(2, Math.max(0.75, first.width / first.height || 1.91));
        box.style.aspectRatio = String(ratio);
        if (picture.color) box.style.backgroundColor = picture.color;
        const canvas = picture.placeholder ? placeholder(picture.placeholder) : null;
        if (canvas) box.append(canvas);
        img.addEventListener("load", () => box.classList.add("loaded"));
        img.addEventListener("error", () => box.classList.add("broken"));
        box.append(img);
        if (card.video) box.append(node("span", "badge video", "\u25B6 Video"));
        return box;
      }

      function failure(className, error) {
        const line = node("p", className);
        line.append(node("code", null, error.code), " ", node("bdi", null, error.message));
        return line;
      }

      function render(card) {
        const article = node("article", "card " + card.state);
        if (card.lang) article.lang = card.lang;
        const box = card.state === "failed" ? null : media(card);
        if (box) article.append(box);
        const body = node("div", "body");
        const site = node("div", "site");
        const icon = image(card.icon, "icon", "16px");
        if (icon) site.append(icon);
        site.append(isolated("span", "site-name", card.siteName || card.domain || ""));
        body.append(site);
        const title = node("h2", "title");
        title.dir = "auto";
        const anchor = link(card.url);
        anchor.append(node("bdi", null, card.title || card.url || card.normalizedURL || ""));
        title.append(anchor);
        body.append(title);
        if (card.description) body.append(isolated("p", "description", card.description));
        const footer = node("div", "meta");
        footer.append(isolated("span", "domain", card.domain || ""));
        if (card.video && !box) footer.append(node("span", "badge video", "\u25B6 Video"));
        if (card.state !== "ok") footer.append(node("span", "badge " + card.state, card.state === "stale" ? "Stale" : "Failed"));
        if (card.needsRendering) footer.append(node("span", "badge", "Needs JavaScript"));
        body.append(footer);
        if (card.error) body.append(failure("error", card.error));
        if (card.imageError) body.append(failure("note", card.imageError));
        article.append(body);
        return article;
      }

      function renderMore() {
        const end = Math.min(list.length, rendered + batchSize);
        const fragment = document.createDocumentFragment();
        for (; rendered < end; rendered++) fragment.append(render(list[rendered]));
        grid.append(fragment);
        sentinel.hidden = rendered >= list.length;
      }

      function cardsOfState(state) {
        if (filtered === null || filtered.state !== state) {
          const cards = [];
          for (let index = 0; index < config.chunks; index++)
            for (const card of chunk(index)) if (card.state === state) cards.push(card);
          filtered = { state, cards };
        }
        return filtered.cards;
      }

      function display(requestedPage, requestedFilter) {
        filter = ["ok", "stale", "failed"].includes(requestedFilter) ? requestedFilter : "all";
        const total = filter === "all" ? config.total : cardsOfState(filter).length;
        pageCount = Math.max(1, Math.ceil(total / pageSize));
        page = Math.min(Math.max(0, requestedPage | 0), pageCount - 1);
        list = filter === "all" ? chunk(page) : cardsOfState(filter).slice(page * pageSize, (page + 1) * pageSize);
        grid.replaceChildren();
        rendered = 0;
        renderMore();
        showSelect.value = filter;
        pageStatus.textContent = "Page " + (page + 1) + " of " + pageCount + " \u00B7 " + total + " cards";
        prev.disabled = page === 0;
        next.disabled = page + 1 >= pageCount;
      }

      function fromHash() {
        if (document.readyState === "loading") {
          document.addEventListener("DOMContentLoaded", fromHash, { once: true });
          return;
        }
        const params = new URLSearchParams(location.hash.slice(1));
        display((Number(params.get("page")) || 1) - 1, params.get("show") || "all");
      }

      function go(newPage, newFilter) {
        const params = new URLSearchParams();
        params.set("page", String(newPage + 1));
        if (newFilter !== "all") params.set("show", newFilter);
        location.hash = params.toString();
      }

      new IntersectionObserver((entries) => {
        if (entries.some((entry) => entry.isIntersecting)) renderMore();
      }, { rootMargin: "800px" }).observe(sentinel);
      prev.addEventListener("click", () => go(page - 1, filter));
      next.addEventListener("click", () => go(page + 1, filter));
      showSelect.addEventListener("change", () => go(0, showSelect.value));
      window.addEventListener("hashchange", fromHash);

      if (location.hash.length > 1) fromHash();
      else display(0, "all");
      performance.mark("thumbify-first-cards");
      requestAnimationFrame(() => setTimeout(() => performance.mark("thumbify-first-cards-painted"), 0));
    })();
    """#
}
