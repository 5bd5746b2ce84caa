// The web client's page: the apps' screens (screens.js) and the state as a
// tree, kept up to date from the daemon's diffs, a form for every action
// the daemon lists, and the log of changes. Served by tcaweb (docs/WEB.md);
// no libraries, no build step.
"use strict";

/** Why a request to the daemon did not get what it asked for. `kind` says
 * what the page can do about it:
 * - `refused`: the daemon or tcaweb refused it (`code` and `message` as
 *   `tcactl` prints them); nothing changed;
 * - `tooLarge`: the request is past tcaweb's limit (docs/WEB.md, "HTTP
 *   limits"); nothing was sent;
 * - `unreachable`: tcaweb could not reach the daemon, so nothing was sent,
 *   and the request may be made again;
 * - `unknown`: the answer was lost (the daemon or tcaweb went away), and
 *   the request may or may not have been applied. */
class RequestError extends Error {
  constructor(kind, message, code = null) {
    super(message);
    this.kind = kind;
    this.code = code;
  }
}

/** Sends a client message (docs/PROTOCOL.md) through tcaweb; resolves with
 * the daemon's answer, rejects with a `RequestError`. */
async function request(message) {
  let status;
  let text;
  try {
    const response = await fetch("/api/request", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(message),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    throw new RequestError("unknown", `the web client did not answer: ${error.message}`);
  }
  let answer = null;
  try {
    answer = JSON.parse(text);
  } catch {
    // An answer of the HTTP server's own (413, 408, …) is text.
  }
  if (status === 200 && answer !== null && answer.type !== "error") return answer;
  const described = answer?.type === "error" ? `${answer.code}: ${answer.message}` : `${status}: ${text.trim()}`;
  if (status === 413) throw new RequestError("tooLarge", described);
  if (status === 503) throw new RequestError("unreachable", described, answer?.code);
  if (status >= 500) throw new RequestError("unknown", described, answer?.code);
  throw new RequestError("refused", described, answer?.code ?? `http_${status}`);
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

const view = {
  state: null,
  version: null,
  epoch: null,
  changed: new Set(),
  stream: null,
  retry: 500,
  screen: "counter",
  connection: "connecting",
  /** What the page shows under a field whose last value was refused, by
   * the field's `data-bind` path. */
  fieldMessages: new Map(),
  /** The fields to show the state's value in again, though focused, with
   * the version the state must reach first: their last value was refused. */
  resync: new Map(),
  /** The highest version a send of the page's was acknowledged with. */
  acknowledged: 0,
  /** Sends made and not yet answered, and whether the first of them waits
   * for the daemon to come back. */
  pending: 0,
  held: false,
  /** The argument type of each action with one argument, by its path with
   * ids left out (`inventory.path[].edit.binding.quantity`). */
  argumentTypes: new Map(),
  /** Called at the next `welcome`: the daemon can be reached again. */
  welcomeWaiters: [],
  /** Settles once the daemon's actions are listed (`argumentTypes`), with
   * whether they could be. */
  actionsListed: Promise.resolve(false),
};

/** Makes the element `from` look like `to`, in place: the elements that
 * stay keep their identity, so a click under way still lands, and a field
 * being typed in keeps what it holds and its cursor (the state catches up
 * with the keystrokes it was sent), unless its last value was refused:
 * then it shows the state's value again. An open dialog stays open. */
function morph(from, to) {
  if (from.nodeType !== to.nodeType || from.nodeName !== to.nodeName) {
    from.replaceWith(to);
    return;
  }
  if (from.nodeType !== Node.ELEMENT_NODE) {
    if (from.nodeValue !== to.nodeValue) from.nodeValue = to.nodeValue;
    return;
  }
  const isDialog = from.nodeName === "DIALOG";
  for (const { name } of [...from.attributes]) {
    if (!to.hasAttribute(name) && !(isDialog && name === "open")) from.removeAttribute(name);
  }
  for (const { name, value } of [...to.attributes]) if (from.getAttribute(name) !== value) from.setAttribute(name, value);
  if (["INPUT", "SELECT", "TEXTAREA"].includes(from.nodeName)) {
    const path = from.dataset.bind;
    const resync = path !== undefined && view.resync.has(path);
    if (from !== document.activeElement || resync) {
      if (from.value !== to.value) from.value = to.value;
      if (from.checked !== to.checked) from.checked = to.checked;
    }
    if (resync && (view.version ?? 0) >= view.resync.get(path)) view.resync.delete(path);
  }
  const current = [...from.childNodes];
  const wanted = [...to.childNodes];
  wanted.forEach((child, index) => {
    if (index < current.length) morph(current[index], child);
    else from.append(child);
  });
  for (const extra of current.slice(wanted.length)) extra.remove();
}

/** What to show under the field bound to `path` (screens.js): why its
 * last value was refused, or nothing. */
function fieldMessage(path) {
  return view.fieldMessages.get(path) ?? null;
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
  // A refusal goes with its field.
  for (const path of new Set([...view.fieldMessages.keys(), ...view.resync.keys()])) {
    if (container.querySelector(`[data-bind="${CSS.escape(path)}"]`)) continue;
    view.fieldMessages.delete(path);
    view.resync.delete(path);
  }
  showAlerts(container);
}

/** Opens the screen's alerts as modal dialogs: while one is shown, nothing
 * behind it takes a click, the focus or a keystroke. */
function showAlerts(container) {
  for (const dialog of container.querySelectorAll("dialog.alert")) {
    if (!dialog.open) dialog.showModal();
  }
}

/** An alert's keys: Escape is its cancel button, if it has one (the state
 * closes it), otherwise nothing; Tab goes from one of its buttons to the
 * next. A dialog closed anyway opens again while the state still shows
 * it. */
function listenToAlerts() {
  document.addEventListener(
    "cancel",
    (event) => {
      if (!event.target.matches?.("dialog.alert")) return;
      event.preventDefault();
      event.target.querySelector("button[data-role=cancel]")?.click();
    },
    true,
  );
  // The focus goes round the alert's buttons.
  document.addEventListener(
    "keydown",
    (event) => {
      const dialog = document.querySelector("dialog.alert[open]");
      if (event.key !== "Tab" || !dialog) return;
      const buttons = [...dialog.querySelectorAll("button:not([disabled])")];
      if (buttons.length === 0) return;
      event.preventDefault();
      const index = buttons.indexOf(document.activeElement);
      const next = event.shiftKey ? (index <= 0 ? buttons.length - 1 : index - 1) : (index + 1) % buttons.length;
      buttons[next].focus();
    },
    true,
  );
  document.addEventListener(
    "close",
    (event) => {
      if (event.target.matches?.("dialog.alert") && event.target.isConnected) event.target.showModal();
    },
    true,
  );
}

/** The first screen the state has, or the tree. */
function defaultScreen() {
  return Object.keys(screens).find((name) => screens[name].part in view.state) ?? "state";
}

/** The screen that shows the app's tab `tab` (`selectedTab`), if any. */
function screenForTab(tab) {
  return Object.keys(screens).find((name) => screens[name].tabs.includes(tab) && screens[name].part in view.state);
}

/** Whether `name` is a screen this state can show. */
function isKnownScreen(name) {
  return ["state", "inspector"].includes(name) || (screens[name] !== undefined && screens[name].part in view.state);
}

/** Shows the screen `name` (or the state tree, "state"; or the inspector,
 * "inspector/V"). Only a person's click on a tab (`clicked`) tells the
 * app, which fetches what the tab shows: opening or reloading a page, or
 * going back, changes no state. */
function selectScreen(name, { clicked = false, replace = false } = {}) {
  const [screenName, version] = name.split("/");
  view.screen = screenName;
  if (location.hash.slice(1) !== name) {
    if (replace) history.replaceState(null, "", `#${name}`);
    else location.hash = name;
  }
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
  if (clicked && screens[screenName]) send("tabSelected", [screens[screenName].tab], { quiet: true });
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

/** The tabs' clicks, and the browser's back and forward. */
function listenToTabs() {
  document.getElementById("tabs").addEventListener("click", (event) => {
    const tab = event.target.closest("button[data-screen]");
    if (tab) selectScreen(tab.dataset.screen, { clicked: true });
  });
  window.addEventListener("hashchange", () => {
    const name = location.hash.slice(1);
    if (view.state !== null && name.split("/")[0] !== view.screen && isKnownScreen(name.split("/")[0])) {
      selectScreen(name);
    }
  });
}

/** The connection's state, `connecting`, `live` or `reconnecting`, as its
 * `data-state`, and in words. */
function setConnection(state) {
  view.connection = state;
  const label = document.getElementById("connection");
  label.dataset.state = state;
  label.textContent = { connecting: "Connecting…", live: "Connected", reconnecting: "Reconnecting…" }[state];
  showOutage();
}

/** The banner a person sees while the app cannot be reached, and what
 * becomes of the changes they made meanwhile; gone once the page is live
 * and nothing waits. */
function showOutage() {
  const banner = document.getElementById("outage");
  const down = view.connection === "reconnecting" || view.held;
  banner.hidden = !down;
  document.body.dataset.pending = view.pending;
  document.body.dataset.held = view.held;
  if (!down) {
    banner.textContent = "";
    return;
  }
  const waiting = !view.held
    ? ""
    : view.pending === 1
      ? " Your change will be made as soon as it is back."
      : ` Your ${view.pending} changes will be made, in order, as soon as it is back.`;
  banner.textContent = `The app cannot be reached at the moment; trying again…${waiting}`;
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
    for (const waiter of view.welcomeWaiters.splice(0)) waiter();
    view.actionsListed.then((listed) => {
      if (!listed) listActions();
    });
  });
  stream.addEventListener("snapshot", (event) => {
    const snapshot = JSON.parse(event.data);
    const first = view.state === null;
    view.state = snapshot.state;
    view.version = snapshot.version;
    view.changed = new Set();
    showTabs();
    if (first) {
      // The address names the screen; without one, the app's selected tab.
      const wanted = location.hash.slice(1);
      const shown = isKnownScreen(wanted.split("/")[0])
        ? wanted
        : (screenForTab(view.state.selectedTab) ?? defaultScreen());
      selectScreen(shown, { replace: true });
    } else showState();
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

/** Resolves at the next `welcome` (the daemon can be reached again) or
 * after `delay` ms, whichever comes first. */
function nextWelcome(delay) {
  return new Promise((resolve) => {
    view.welcomeWaiters.push(resolve);
    setTimeout(resolve, delay);
  });
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
    await send(action.path, inputs.map((input) => input.value), { form: true });
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
 * page's earlier sends. A send the daemon could not be reached for waits
 * until it is back and is made then, once, and the sends after it wait
 * behind it; one whose answer was lost is not made again, and the page
 * says so. `field` is the field whose value it sends, which shows a
 * refusal; `form`, an action form of the State tab, which shows the
 * outcome as the daemon gave it. */
function send(path, args = [], options = {}) {
  view.pending += 1;
  showOutage();
  sending = sending.then(() =>
    sendNow(path, args, options).finally(() => {
      view.pending -= 1;
      showOutage();
    }),
  );
  return sending;
}

async function sendNow(path, args, { field = null, form = false, quiet = false }) {
  let delay = 500;
  while (true) {
    try {
      const ack = await request({ type: "send", path, arguments: args });
      view.held = false;
      view.acknowledged = Math.max(view.acknowledged, ack.version);
      if (field) fieldAccepted(field);
      if (form) showPageResult(`${path}: version ${ack.version}`);
      else if (!quiet) showPageResult("");
      return;
    } catch (error) {
      if (error.kind === "unreachable") {
        view.held = true;
        showOutage();
        await nextWelcome(delay);
        delay = Math.min(delay * 2, 5000);
        continue;
      }
      view.held = false;
      if (field && (error.kind === "refused" || error.kind === "tooLarge")) {
        // The refusal is told by the type of the action's value, once listed.
        await view.actionsListed;
        fieldRefused(field, error);
      }
      else if (error.kind === "unknown") {
        showPageResult(
          "The app stopped before it answered: your last change may or may not have been made.",
          true,
          error.message,
        );
      } else if (form) showPageResult(error.message, true);
      else showPageResult("That could not be done.", true, error.message);
      return;
    }
  }
}

/** Says `text` in the page's header, as an error if `isError`, with
 * `detail` for whoever points at it. */
function showPageResult(text, isError = false, detail = "") {
  const result = document.getElementById("result");
  result.className = isError ? "result error" : "result";
  result.textContent = text;
  result.title = detail;
}

/** A field's value reached the state: its refusal, if any, is over. */
function fieldAccepted({ path }) {
  if (view.fieldMessages.delete(path)) showState();
}

/** A field's value was refused: why, under the field, in a person's
 * words; the field shows the state's value again, unless the person has
 * typed on since (that text is on its way). */
function fieldRefused({ path, value, label }, error) {
  view.fieldMessages.set(path, refusalText(label, path, error));
  const element = document.querySelector(`#screen [data-bind="${CSS.escape(path)}"]`);
  if (element && element.value === value) view.resync.set(path, view.acknowledged);
  showState();
}

/** Why the value of the field labelled `label`, bound to `path`, was
 * refused: too long for a request, or not of the type the action takes
 * (`tcactl actions`). */
function refusalText(label, path, error) {
  if (error.kind === "tooLarge" || error.code === "invalid_message") return `${label} is too long.`;
  switch (view.argumentTypes.get(path.replace(/\[[^\]]*\]/g, "[]"))) {
    case "Int":
      return `${label} must be a whole number.`;
    case "Double":
      return `${label} must be a number.`;
    default:
      return `${label} cannot be set to that.`;
  }
}

/** Lists the daemon's actions: a form each on the State tab, and the
 * type of each one's value (`argumentTypes`). `actionsListed` settles with
 * whether it could; a page opened while the daemon is away lists them
 * once it is back (at the next `welcome`). */
function listActions() {
  view.actionsListed = showActions().then(
    () => {
      if (document.getElementById("result").textContent === actionsUnlisted) showPageResult("");
      return true;
    },
    (error) => {
      showPageResult(actionsUnlisted, true, error.message);
      return false;
    },
  );
}

const actionsUnlisted = "The list of actions could not be read.";

async function showActions() {
  const { actions } = await request({ type: "actions" });
  for (const action of actions) {
    if (action.arguments?.length === 1) {
      view.argumentTypes.set(action.path.replace(/\[[^\]]*\]/g, "[]"), action.arguments[0].type);
    }
  }
  document.getElementById("actions").replaceChildren(...actions.map(actionForm));
}

/** The State tab's filter of its action forms. */
function listenToActionFilter() {
  document.getElementById("action-filter").addEventListener("input", (event) => {
    const filter = event.target.value.toLowerCase();
    for (const child of document.getElementById("actions").children) {
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
  const sendField = (field, value) => {
    const path = field.dataset.bind;
    view.resync.delete(path);
    send(path, [value], { field: { path, value, label: field.dataset.label ?? "This field" } });
  };
  screen.addEventListener("input", (event) => {
    const field = event.target.closest("[data-bind]");
    if (field && field.type !== "checkbox" && field.nodeName !== "SELECT") sendField(field, field.value);
  });
  screen.addEventListener("change", (event) => {
    const field = event.target.closest("[data-bind]");
    if (field?.type === "checkbox") sendField(field, String(field.checked));
    else if (field?.nodeName === "SELECT") sendField(field, field.value);
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
  listenToAlerts();
  // Changes waiting for the app to come back would be lost with the page.
  window.addEventListener("beforeunload", (event) => {
    if (view.held) event.preventDefault();
  });
  view.screen = location.hash.slice(1).split("/")[0] || "counter";
  showOutage();
  connect();
  listenToActionFilter();
  listActions();
});
