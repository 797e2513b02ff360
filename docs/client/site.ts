// The site's one script, bundled by the build into dist/assets/site.js (a classic script, so it runs from disk too):
// the colour scheme, the phone menu, copy buttons, search, links Redoc's sidebar can open in a new tab, and the
// try-it console on the reference pages.
import MiniSearch from "minisearch";
import { searchOptions } from "../scripts/search.mjs";
import { startTryIt } from "./try-it.js";

const root = document.documentElement;

function setUpTheme(): void {
  const button = document.querySelector<HTMLButtonElement>(".theme-button");
  if (!button) return;
  const show = () => button.setAttribute("aria-pressed", String(root.classList.contains("dark")));
  show();
  button.addEventListener("click", () => {
    const next = root.classList.contains("dark") ? "light" : "dark";
    root.classList.remove("light", "dark");
    root.classList.add(next);
    try {
      // Redoc's key: the reference pages follow the same choice.
      localStorage.setItem("redoc.colorMode", next);
    } catch {
      // Storage can be unavailable (private windows, file:// in some browsers): the choice lasts for this page.
    }
    show();
  });
}

function setUpMenu(): void {
  const button = document.querySelector<HTMLButtonElement>(".menu-button");
  const nav = document.getElementById("site-nav");
  if (!button || !nav) return;
  const open = (value: boolean) => {
    document.body.classList.toggle("nav-open", value);
    button.setAttribute("aria-expanded", String(value));
    if (value) nav.querySelector<HTMLElement>("a, input")?.focus();
  };
  button.addEventListener("click", () => open(!document.body.classList.contains("nav-open")));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && document.body.classList.contains("nav-open")) {
      open(false);
      button.focus();
    }
  });
  nav.addEventListener("click", (event) => {
    if ((event.target as Element).closest("a")) open(false);
  });
}

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // No clipboard API (an insecure context): select the text and use the older command.
    const area = document.createElement("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}

function setUpCopyButtons(): void {
  document.addEventListener("click", async (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>(".copy-button");
    const code = button?.parentElement?.querySelector("pre");
    if (!button || !code) return;
    await copyText(code.textContent ?? "");
    button.textContent = "Copied";
    setTimeout(() => {
      button.textContent = "Copy";
    }, 1500);
  });
}

interface Result {
  url: string;
  title: string;
  page: string;
}

declare global {
  interface Window {
    __searchIndex?: unknown;
  }
}

function loadIndex(base: string): Promise<MiniSearch<Result>> {
  return new Promise((resolve, reject) => {
    const done = () => resolve(MiniSearch.loadJS(window.__searchIndex as never, searchOptions) as MiniSearch<Result>);
    if (window.__searchIndex) return done();
    const script = document.createElement("script");
    script.src = `${base}assets/search-index.js`;
    script.onload = done;
    script.onerror = () => reject(new Error("the search index did not load"));
    document.head.append(script);
  });
}

function setUpSearch(): void {
  const input = document.querySelector<HTMLInputElement>("#search-input");
  const list = document.querySelector<HTMLUListElement>("#search-results");
  if (!input || !list) return;
  const base = input.dataset.root ?? "";
  let index: Promise<MiniSearch<Result>> | undefined;
  let active = -1;
  const items = () => [...list.querySelectorAll<HTMLAnchorElement>("a")];
  const close = () => {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    active = -1;
  };
  const highlight = (next: number) => {
    const links = items();
    if (!links.length) return;
    active = (next + links.length) % links.length;
    for (const [position, link] of links.entries()) link.setAttribute("aria-selected", String(position === active));
    links[active]?.scrollIntoView({ block: "nearest" });
  };
  input.addEventListener("focus", () => {
    index ??= loadIndex(base);
  });
  input.addEventListener("input", async () => {
    index ??= loadIndex(base);
    const query = input.value.trim();
    if (query.length < 2) return close();
    const results = (await index).search(query).slice(0, 10) as unknown as Result[];
    list.replaceChildren(
      ...(results.length
        ? results.map((result) => {
            const item = document.createElement("li");
            const link = document.createElement("a");
            link.href = base + result.url;
            link.setAttribute("role", "option");
            link.innerHTML = "<span></span><small></small>";
            (link.firstChild as HTMLElement).textContent = result.title;
            (link.lastChild as HTMLElement).textContent = result.page;
            item.append(link);
            return item;
          })
        : [Object.assign(document.createElement("li"), { className: "search-empty", textContent: "Nothing found" })]),
    );
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
    active = -1;
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      highlight(active + (event.key === "ArrowDown" ? 1 : -1));
    } else if (event.key === "Enter" && active >= 0) {
      event.preventDefault();
      items()[active]?.click();
    } else if (event.key === "Escape") {
      close();
    }
  });
  document.addEventListener("click", (event) => {
    if (!(event.target as Element).closest(".search")) close();
  });
}

/**
 * Redoc's sidebar renders its routes as `/tag/operation`, which a new tab or a page under a sub-path resolves against
 * the host. As hash routes (`#/tag/operation`) they open the same section anywhere.
 */
function fixRedocLinks(): void {
  const redoc = document.getElementById("redoc");
  if (!redoc) return;
  const fix = () => {
    for (const link of redoc.querySelectorAll<HTMLAnchorElement>('a[href^="/"]')) link.setAttribute("href", `#${link.getAttribute("href")}`);
  };
  fix();
  new MutationObserver(fix).observe(redoc, { subtree: true, childList: true, attributes: true, attributeFilter: ["href"] });
}

setUpTheme();
setUpMenu();
setUpCopyButtons();
setUpSearch();
fixRedocLinks();
startTryIt();
