// The site's one script, bundled by the build into dist/assets/site.js (a classic script, so it runs from disk too):
// the colour scheme, the phone menu, copy buttons (code, and the page as Markdown), the sample tabs, search (with `/`
// and Ctrl+K), and the try-it console on the reference pages. Every page reads without it.
import MiniSearch from "minisearch";
import { kindOf, searchOptions } from "../scripts/search.mjs";
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
      // The key the Redoc pages used, so a reader's earlier choice holds.
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

const kindLabels: Record<string, string> = {
  guide: "Guide",
  reference: "API reference",
  error: "Error code",
  errors: "Error codes",
  api: "Package API",
  package: "Package",
  changelog: "Changelog",
  home: "Overview",
};

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
            // The options belong to the listbox: the list item between them is no list item to assistive technology.
            const item = Object.assign(document.createElement("li"), { role: "none" });
            const link = document.createElement("a");
            link.href = base + result.url;
            link.setAttribute("role", "option");
            link.innerHTML = "<span></span><small></small>";
            (link.firstChild as HTMLElement).textContent = result.title;
            // A section says its page; a page says what kind of page it is.
            (link.lastChild as HTMLElement).textContent = result.page === result.title ? (kindLabels[kindOf(result.url)] ?? "") : result.page;
            item.append(link);
            return item;
          })
        : [Object.assign(document.createElement("li"), { className: "search-empty", role: "option", ariaDisabled: "true", textContent: "Nothing found" })]),
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
 * The reference's sample tabs: choosing a language shows it in every operation, and the choice is remembered for the
 * next page. Arrow keys move between a group's tabs, as the ARIA tabs pattern has it.
 */
function setUpTabs(): void {
  const storageKey = "content-scraper.sampleLanguage";
  const choose = (language: string, focus?: HTMLElement) => {
    for (const tab of document.querySelectorAll<HTMLElement>('.sample-tabs [role="tab"]')) {
      const selected = tab.dataset.language === language;
      tab.setAttribute("aria-selected", String(selected));
      tab.tabIndex = selected ? 0 : -1;
    }
    for (const panel of document.querySelectorAll<HTMLElement>(".sample-tabs .tab-panel")) panel.classList.toggle("active", panel.dataset.language === language);
    focus?.focus();
  };
  try {
    const saved = localStorage.getItem(storageKey);
    if (saved && document.querySelector(`.sample-tabs [role="tab"][data-language="${CSS.escape(saved)}"]`)) choose(saved);
  } catch {
    // No storage: the first language.
  }
  const remember = (language: string) => {
    try {
      localStorage.setItem(storageKey, language);
    } catch {
      // No storage: the choice lasts for this page.
    }
  };
  document.addEventListener("click", (event) => {
    const tab = (event.target as Element).closest<HTMLElement>('.sample-tabs [role="tab"]');
    if (!tab?.dataset.language) return;
    choose(tab.dataset.language);
    remember(tab.dataset.language);
  });
  document.addEventListener("keydown", (event) => {
    const tab = (event.target as Element).closest?.<HTMLElement>('.sample-tabs [role="tab"]');
    if (!tab || !["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    const tabs = [...(tab.parentElement?.querySelectorAll<HTMLElement>('[role="tab"]') ?? [])];
    const at = tabs.indexOf(tab);
    const next = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: tabs.length - 1 }[event.key] ?? at;
    const target = tabs[(next + tabs.length) % tabs.length] as HTMLElement;
    event.preventDefault();
    choose(target.dataset.language ?? "", target);
    remember(target.dataset.language ?? "");
  });
}

/** "Copy page as Markdown": the page's `.md` beside it. Where it cannot be fetched (a page opened from disk), it opens. */
function setUpCopyPage(): void {
  const button = document.querySelector<HTMLButtonElement>(".copy-page");
  const href = button?.dataset.markdown;
  if (!button || !href) return;
  button.addEventListener("click", async () => {
    let text: string;
    try {
      const response = await fetch(href);
      if (!response.ok) throw new Error(String(response.status));
      text = await response.text();
    } catch {
      location.href = href;
      return;
    }
    await copyText(text);
    button.textContent = "Copied";
    setTimeout(() => {
      button.textContent = "Copy page as Markdown";
    }, 1500);
  });
}

/** `/` and Ctrl+K (⌘K) focus the search box from anywhere but a field being typed in. */
function setUpSearchShortcut(): void {
  const input = document.querySelector<HTMLInputElement>("#search-input");
  if (!input) return;
  document.addEventListener("keydown", (event) => {
    const target = event.target as HTMLElement;
    const typing = target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
    const slash = event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey;
    const k = event.key.toLowerCase() === "k" && (event.ctrlKey || event.metaKey);
    if (!slash && !k) return;
    event.preventDefault();
    input.focus();
    input.select();
  });
}

setUpTheme();
setUpMenu();
setUpCopyButtons();
setUpSearch();
setUpSearchShortcut();
setUpTabs();
setUpCopyPage();
startTryIt();
