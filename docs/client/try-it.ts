// The try-it console of the reference pages: sends an operation's request, filled from the description's examples, to
// a sandbox the reader started on this machine (`pnpm mock`) and shows the answer. It refuses any other host, so no
// request leaves the machine and no real key is typed into a web page.

/** One operation, as the build embeds it (from the same request model as the samples). */
interface Operation {
  operationId: string;
  summary: string;
  route: string;
  method: string;
  path: string;
  rootPath: boolean;
  pathParams: Record<string, string>;
  query: [string, string][];
  headers: [string, string][];
  mediaType?: string;
  body?: unknown;
  credentialHeader?: { name: string; bearer: boolean };
}

interface Data {
  api: string;
  baseUrl: string;
  credential: string;
  bearer: boolean;
  operations: Operation[];
}

const loopback = /^(127(?:\.\d{1,3}){3}|localhost|\[::1\])$/;

/** Whether a base URL points at this machine. */
export function isLoopback(baseUrl: string): boolean {
  try {
    const url = new URL(baseUrl);
    return (url.protocol === "http:" || url.protocol === "https:") && loopback.test(url.hostname);
  } catch {
    return false;
  }
}

const field = <T extends HTMLElement>(form: HTMLFormElement, name: string) => form.elements.namedItem(name) as unknown as T;

function render(form: HTMLFormElement, operation: Operation): void {
  const params = form.querySelector(".try-it-params") as HTMLElement;
  const rows = [
    ...Object.entries(operation.pathParams).map(([name, value]) => ["path", name, value]),
    ...operation.query.map(([name, value]) => ["query", name, value]),
    ...operation.headers.map(([name, value]) => ["header", name, value]),
  ];
  params.replaceChildren(
    ...rows.map(([place, name, value]) => {
      const label = document.createElement("label");
      const input = Object.assign(document.createElement("input"), { value, name: `${place}:${name}` });
      label.append(`${name} (${place})`, input);
      return label;
    }),
  );
  const body = field<HTMLTextAreaElement>(form, "body");
  body.value = operation.body === undefined ? "" : operation.mediaType?.includes("json") ? JSON.stringify(operation.body, null, 2) : new URLSearchParams(operation.body as Record<string, string>).toString();
  body.disabled = operation.mediaType === undefined;
  const credential = form.querySelector(".try-it-credential") as HTMLElement;
  credential.hidden = !operation.credentialHeader;
  (form.querySelector(".try-it-credential-name") as HTMLElement).textContent = operation.credentialHeader?.bearer ? "Access token" : operation.credentialHeader?.name ?? "";
}

/** The request the form describes. */
function request(form: HTMLFormElement, operation: Operation): { url: string; init: RequestInit } {
  const value = (name: string) => field<HTMLInputElement>(form, name)?.value ?? "";
  const base = value("baseUrl").replace(/\/$/, "");
  const origin = base.replace(/^(\w+:\/\/[^/]+).*$/, "$1");
  const path = operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(value(`path:${name}`)));
  const query = new URLSearchParams(operation.query.map(([name]) => [name, value(`query:${name}`)]));
  const url = `${operation.rootPath ? origin : base}${path}${query.size ? `?${query}` : ""}`;
  const headers: Record<string, string> = Object.fromEntries(operation.headers.map(([name]) => [name, value(`header:${name}`)]));
  if (operation.credentialHeader) {
    const credential = value("credential");
    headers[operation.credentialHeader.name] = operation.credentialHeader.bearer ? `Bearer ${credential}` : credential;
  }
  const init: RequestInit = { method: operation.method, headers, redirect: "manual" };
  if (operation.mediaType !== undefined) {
    headers["content-type"] = operation.mediaType;
    init.body = value("body");
  }
  return { url, init };
}

async function send(form: HTMLFormElement, operation: Operation, output: HTMLElement): Promise<void> {
  const { url, init } = request(form, operation);
  if (!isLoopback(url)) {
    output.textContent = "The console sends only to a sandbox on this machine: use a base URL on 127.0.0.1 or localhost, as `pnpm mock` prints it.";
    return;
  }
  output.textContent = `${operation.method} ${url} …`;
  try {
    const response = await fetch(url, init);
    const text = await response.text();
    const shown = ["content-type", "retry-after", ...[...response.headers.keys()].filter((name) => name.startsWith("x-"))];
    const headers = shown.filter((name) => response.headers.has(name)).map((name) => `${name}: ${response.headers.get(name)}`);
    let body = text;
    try {
      body = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Not JSON (the gateway's text/plain 504, an HTML page): shown as it came.
    }
    output.textContent = [`${response.status} ${response.statusText}`, ...headers, "", body].join("\n");
  } catch {
    output.textContent = `No answer from ${new URL(url).origin}. Is the sandbox running (pnpm mock), and does it allow requests from this page (CORS)?`;
  }
}

/** The operation whose section is in view: the last one whose heading has passed the top quarter of the screen. */
function operationInView(operations: Operation[]): Operation | undefined {
  let found: Operation | undefined;
  for (const operation of operations) {
    const heading = document.getElementById(operation.route.slice(1));
    if (heading && heading.getBoundingClientRect().top < innerHeight / 4) found = operation;
  }
  return found ?? operations[0];
}

/** Wires the console of a reference page, if the page has one: each operation's "Try it" opens it on that operation. */
export function startTryIt(): void {
  const dialog = document.getElementById("try-it") as HTMLDialogElement | null;
  const source = document.getElementById("try-it-data");
  if (!dialog || !source) return;
  const data = JSON.parse(source.textContent ?? "{}") as Data;
  const form = dialog.querySelector("form") as HTMLFormElement;
  const select = field<HTMLSelectElement>(form, "operation");
  const output = dialog.querySelector(".try-it-response") as HTMLElement;
  const storageKey = `content-scraper.tryIt.${data.api}`;
  select.replaceChildren(...data.operations.map(({ operationId, summary, method }) => new Option(`${method} ${summary}`, operationId)));
  const current = () => data.operations.find(({ operationId }) => operationId === select.value) as Operation;
  select.addEventListener("change", () => render(form, current()));
  document.addEventListener("click", (event) => {
    const opener = (event.target as Element).closest<HTMLButtonElement>(".try-button");
    if (!opener) return;
    const chosen = data.operations.find(({ operationId }) => operationId === opener.dataset.operation) ?? operationInView(data.operations);
    if (chosen) select.value = chosen.operationId;
    let saved: { baseUrl?: string } = {};
    try {
      saved = JSON.parse(localStorage.getItem(storageKey) ?? "{}");
    } catch {
      // No storage: the defaults.
    }
    // A remembered address is one the console sent to; anything else (an older page's choice) gives way to the default.
    field<HTMLInputElement>(form, "baseUrl").value = saved.baseUrl && isLoopback(saved.baseUrl) ? saved.baseUrl : data.baseUrl;
    field<HTMLInputElement>(form, "credential").value = data.credential;
    render(form, current());
    output.textContent = "";
    dialog.showModal();
  });
  form.addEventListener("submit", (event) => {
    if ((event.submitter as HTMLButtonElement | null)?.value !== "send") return;
    event.preventDefault();
    const baseUrl = field<HTMLInputElement>(form, "baseUrl").value;
    if (isLoopback(baseUrl)) {
      try {
        // The base URL only, and only one the console sends to: a key or token typed here is never stored.
        localStorage.setItem(storageKey, JSON.stringify({ baseUrl }));
      } catch {
        // No storage: nothing to remember.
      }
    }
    void send(form, current(), output);
  });
}
