// The web client's page: the apps' screens (screens.js) and the state as a
// tree, kept up to date from the daemon's diffs, a form for every action
// the daemon lists, and the log of changes. Served by tcaweb (docs/WEB.md);
// no libraries, no build step.
"use strict";

/** Sends a client message (docs/PROTOCOL.md) through tcaweb; resolves with
 * the daemon's answer, rejects with its error message. */
async function request(message) {
  const response = await fetch("/api/request", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(message),
  });
  const answer = await response.json();
  if (answer.type === "error") throw new Error(`${answer.code}: ${answer.message}`);
  return answer;
}

// JSON Pointer and JSON Patch (RFC 6901, RFC 6902), for the diffs.
function pointerTokens(pointer) {
  if (pointer === "") return [];
  return pointer.slice(1).split("/").map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}

function applyPatch(document, patch) {
  let root = document;
  for (const operation of patch) {
    const tokens = pointerTokens(operation.path);
    if (tokens.length === 0) {
      if (operation.op === "remove") root = null;
      else root = structuredClone(operation.value);
      continue;
    }
    let parent = root;
    for (const token of tokens.slice(0, -1)) parent = parent[Array.isArray(parent) ? Number(token) : token];
    const last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) {
      const index = last === "-" ? parent.length : Number(last);
      if (operation.op === "add") parent.splice(index, 0, structuredClone(operation.value));
      else if (operation.op === "remove") parent.splice(index, 1);
      else if (operation.op === "replace") parent[index] = structuredClone(operation.value);
    } else {
      if (operation.op === "remove") delete parent[last];
      else parent[last] = structuredClone(operation.value);
    }
  }
  return root;
}

// The state tree.
function renderTree(value, changedPaths, path = "") {
  if (value !== null && typeof value === "object") {
    const node = document.createElement("details");
    node.open = path.split("/").length < 3;
    node.dataset.path = path;
    if ([...changedPaths].some((p) => p === path || p.startsWith(path + "/"))) node.classList.add("changed");
    const summary = document.createElement("summary");
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    summary.textContent = `${path.split("/").pop() || "state"} ${Array.isArray(value) ? `[${entries.length}]` : "{…}"}`;
    node.append(summary);
    for (const [key, child] of entries) {
      const childPath = `${path}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      if (child !== null && typeof child === "object") {
        node.append(renderTree(child, changedPaths, childPath));
      } else {
        const leaf = document.createElement("div");
        leaf.className = "leaf";
        leaf.dataset.path = childPath;
        if (changedPaths.has(childPath)) leaf.classList.add("changed");
        const name = document.createElement("span");
        name.className = "key";
        name.textContent = `${key}: `;
        leaf.append(name, JSON.stringify(child));
        node.append(leaf);
      }
    }
    return node;
  }
  const leaf = document.createElement("div");
  leaf.className = "leaf";
  leaf.textContent = JSON.stringify(value);
  return leaf;
}

const view = { state: null, version: null, epoch: null, changed: new Set(), stream: null, retry: 500, screen: "counter" };

/** Makes the element `from` look like `to`, in place: the elements that
 * stay keep their identity, so a click under way still lands, and a field
 * being typed in keeps what it holds and its cursor (the state catches up
 * with the keystrokes it was sent). */
function morph(from, to) {
  if (from.nodeType !== to.nodeType || from.nodeName !== to.nodeName) {
    from.replaceWith(to);
    return;
  }
  if (from.nodeType !== Node.ELEMENT_NODE) {
    if (from.nodeValue !== to.nodeValue) from.nodeValue = to.nodeValue;
    return;
  }
  for (const { name } of [...from.attributes]) if (!to.hasAttribute(name)) from.removeAttribute(name);
  for (const { name, value } of [...to.attributes]) if (from.getAttribute(name) !== value) from.setAttribute(name, value);
  if (["INPUT", "SELECT", "TEXTAREA"].includes(from.nodeName) && from !== document.activeElement) {
    if (from.value !== to.value) from.value = to.value;
    if (from.checked !== to.checked) from.checked = to.checked;
  }
  const current = [...from.childNodes];
  const wanted = [...to.childNodes];
  wanted.forEach((child, index) => {
    if (index < current.length) morph(current[index], child);
    else from.append(child);
  });
  for (const extra of current.slice(wanted.length)) extra.remove();
}

/** Redraws what is shown: the active screen, or the state tree. */
function showState() {
  document.getElementById("version").textContent = view.version ?? "–";
  document.body.dataset.version = view.version ?? "";
  if (view.state === null) return;
  const screen = screens[view.screen];
  if (!screen) {
    document.getElementById("state").replaceChildren(renderTree(view.state, view.changed));
    return;
  }
  const container = document.getElementById("screen");
  const next = h("div", { class: "screen", "data-screen": view.screen }, h("h2", {}, screen.title), screen.render(view.state));
  if (container.firstElementChild) morph(container.firstElementChild, next);
  else container.replaceChildren(next);
}

/** The first screen the state has, or the tree. */
function defaultScreen() {
  return Object.keys(screens).find((name) => screens[name].part in view.state) ?? "state";
}

/** Shows the screen `name` (or the state tree, "state"), and tells the app,
 * which fetches what a tab shows. */
function selectScreen(name) {
  const [screenName, version] = name.split("/");
  view.screen = screenName;
  if (location.hash.slice(1) !== name) location.hash = name;
  for (const tab of document.querySelectorAll("#tabs button")) {
    tab.setAttribute("aria-selected", tab.dataset.screen === screenName);
  }
  document.getElementById("screen").hidden = !screens[screenName];
  document.getElementById("generic").hidden = screenName !== "state";
  document.getElementById("inspector").hidden = screenName !== "inspector";
  document.getElementById("screen").replaceChildren();
  if (screenName === "inspector") {
    startInspector(version === undefined ? undefined : Number(version));
    return;
  }
  if (screens[screenName]) send("tabSelected", [screens[screenName].tab], { quiet: true });
  showState();
}

/** The tabs: a screen for each seed app the state holds, and the tree. */
function showTabs() {
  const names = [...Object.keys(screens).filter((name) => view.state && screens[name].part in view.state), "state", "inspector"];
  document.getElementById("tabs").replaceChildren(
    ...names.map((name) =>
      h(
        "button",
        { type: "button", "data-screen": name, "aria-selected": name === view.screen },
        screens[name]?.title ?? (name === "state" ? "State" : "Inspector"),
      ),
    ),
  );
}

/** The tabs' clicks. */
function listenToTabs() {
  document.getElementById("tabs").addEventListener("click", (event) => {
    const tab = event.target.closest("button[data-screen]");
    if (tab) selectScreen(tab.dataset.screen);
  });
}

function setConnection(state) {
  const label = document.getElementById("connection");
  label.dataset.state = state;
  label.textContent = state;
}

function addLog(diff) {
  const log = document.getElementById("log");
  const item = document.createElement("li");
  item.value = diff.version;
  const summary = diff.summary.length > 80 ? `${diff.summary.slice(0, 79)}…` : diff.summary;
  const changes = diff.patch.map((p) => `${p.op} ${p.path}`).join(", ");
  item.append(h("code", {}, summary), h("span", { class: "changes" }, changes));
  item.title = diff.summary;
  log.prepend(item);
  while (log.children.length > 200) log.lastChild.remove();
}

/** Subscribes through tcaweb's event stream, resuming after the last version
 * seen when it reconnects (the daemon restarted, the network dropped). */
function connect() {
  const query = new URLSearchParams();
  if (view.version !== null) query.set("since", view.version);
  if (view.epoch !== null) query.set("epoch", view.epoch);
  const stream = new EventSource(`/events?${query}`);
  view.stream = stream;
  stream.addEventListener("welcome", (event) => {
    const welcome = JSON.parse(event.data);
    document.getElementById("server").textContent = welcome.server;
    view.epoch = welcome.epoch;
    view.retry = 500;
    setConnection("live");
  });
  stream.addEventListener("snapshot", (event) => {
    const snapshot = JSON.parse(event.data);
    const first = view.state === null;
    view.state = snapshot.state;
    view.version = snapshot.version;
    view.changed = new Set();
    showTabs();
    if (first) {
      const wanted = location.hash.slice(1);
      const known = screens[view.screen]?.part in view.state || ["state", "inspector"].includes(view.screen);
      selectScreen(known ? wanted || view.screen : defaultScreen());
    }
    else showState();
  });
  stream.addEventListener("diff", (event) => {
    const diff = JSON.parse(event.data);
    view.state = applyPatch(view.state, diff.patch);
    view.version = diff.version;
    view.changed = new Set(diff.patch.map((p) => p.path));
    showState();
    addLog(diff);
  });
  stream.addEventListener("heartbeat", (event) => {
    view.version = Math.max(view.version ?? 0, JSON.parse(event.data).version);
  });
  const reconnect = () => {
    stream.close();
    if (view.stream !== stream) return;
    setConnection("reconnecting");
    setTimeout(connect, view.retry);
    view.retry = Math.min(view.retry * 2, 5000);
  };
  stream.addEventListener("goodbye", reconnect);
  stream.addEventListener("closed", reconnect);
  stream.addEventListener("error", reconnect);
}

// The actions, a form each.
function actionForm(action) {
  const container = document.createElement("div");
  container.className = "action";
  const form = document.createElement("form");
  form.dataset.path = action.path;
  const name = document.createElement("code");
  name.textContent = action.path;
  form.append(name);
  const inputs = (action.arguments ?? []).map((argument) => {
    const input = document.createElement("input");
    // An unlabelled value's name is its coding key (`_0`): its type says more.
    const label = /^_[0-9]+$/.test(argument.name) ? argument.type : `${argument.name} (${argument.type})`;
    input.name = argument.name;
    input.placeholder = label;
    input.title = `${label}, e.g. ${JSON.stringify(argument.example)}`;
    form.append(input);
    return input;
  });
  const button = document.createElement("button");
  button.type = "submit";
  button.textContent = "send";
  form.append(button);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    await send(action.path, inputs.map((input) => input.value));
  });
  container.append(form);
  if (action.summary) {
    const summary = document.createElement("p");
    summary.className = "summary";
    summary.textContent = action.summary;
    container.append(summary);
  }
  return container;
}

/** The page's sends, one after another: each request is a connection of
 * its own, so two in flight at once could reach the daemon in either order,
 * and keystrokes must arrive as typed. */
let sending = Promise.resolve();

/** Sends the action `path` with `args`, as `tcactl send` does, after the
 * page's earlier sends, and says what came of it (unless `quiet`). */
function send(path, args = [], options = {}) {
  sending = sending.then(() => sendNow(path, args, options));
  return sending;
}

async function sendNow(path, args, { quiet = false }) {
  const result = document.getElementById("result");
  try {
    const ack = await request({ type: "send", path, arguments: args });
    if (quiet) return;
    result.className = "result";
    result.textContent = `${path}: version ${ack.version}`;
  } catch (error) {
    result.className = "result error";
    result.textContent = error.message;
  }
}

async function showActions() {
  const { actions } = await request({ type: "actions" });
  const container = document.getElementById("actions");
  container.replaceChildren(...actions.map(actionForm));
  document.getElementById("action-filter").addEventListener("input", (event) => {
    const filter = event.target.value.toLowerCase();
    for (const child of container.children) {
      child.hidden = !child.querySelector("form").dataset.path.toLowerCase().includes(filter);
    }
  });
}

async function login(event) {
  event.preventDefault();
  const result = document.getElementById("result");
  const response = await fetch("/login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(document.getElementById("token").value),
  });
  if (response.ok) {
    location.href = "/";
  } else {
    result.className = "result error";
    result.textContent = await response.text();
  }
}

/** What a screen's buttons and fields send (screens.js): a button its
 * `data-action` with its `data-args`, a field bound to a `data-bind` path
 * its value at every keystroke, a checkbox `true` or `false`. */
function listenToScreens() {
  const screen = document.getElementById("screen");
  screen.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-action]");
    if (button && !button.disabled) send(button.dataset.action, JSON.parse(button.dataset.args || "[]"));
  });
  screen.addEventListener("input", (event) => {
    const field = event.target.closest("[data-bind]");
    if (field && field.type !== "checkbox" && field.nodeName !== "SELECT") send(field.dataset.bind, [field.value]);
  });
  screen.addEventListener("change", (event) => {
    const field = event.target.closest("[data-bind]");
    if (field?.type === "checkbox") send(field.dataset.bind, [String(field.checked)]);
    else if (field?.nodeName === "SELECT") send(field.dataset.bind, [field.value]);
  });
  screen.addEventListener("submit", (event) => event.preventDefault());
}

document.addEventListener("DOMContentLoaded", () => {
  const loginForm = document.getElementById("login");
  if (loginForm) {
    loginForm.addEventListener("submit", login);
    return;
  }
  listenToTabs();
  listenToScreens();
  view.screen = location.hash.slice(1).split("/")[0] || "counter";
  connect();
  showActions().catch((error) => {
    document.getElementById("result").textContent = error.message;
  });
});
