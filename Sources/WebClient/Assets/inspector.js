// The inspector: the action log live (who sent each action, when, and which
// client action an effect's answer followed from), each version's change,
// the state at any version and the difference between two, what-if, the
// effects in flight and the workers. Loaded before app.js; its requests are
// the wire protocol's, through tcaweb (docs/WEB.md, "The inspector").
"use strict";

const inspector = {
  records: [],
  /** The version of each client action, by its origin number. */
  versionsByOrigin: new Map(),
  lastVersion: null,
  selected: null,
  started: false,
  retry: 500,
  rendering: false,
  status: null,
};

/** Starts following the log and the status, the first time the inspector
 * is shown; `version`, if given, is selected once its record arrives. */
function startInspector(version) {
  if (version !== undefined) inspector.selected = version;
  if (inspector.started) {
    renderInspector();
    return;
  }
  inspector.started = true;
  document.getElementById("log-filter").addEventListener("input", renderInspector);
  document.getElementById("records").addEventListener("click", (event) => {
    const item = event.target.closest("[data-version]");
    if (item) selectVersion(Number(item.dataset.version));
  });
  document.getElementById("state-at").addEventListener("click", () => showStateAt(inspector.selected));
  document.getElementById("what-if").addEventListener("click", () => showWhatIf(inspector.selected));
  document.getElementById("what-if-replaced").addEventListener("click", () =>
    showWhatIf(inspector.selected, document.getElementById("replace-with").value.trim()),
  );
  document.getElementById("compare").addEventListener("click", () =>
    compareVersions(Number(document.getElementById("compare-with").value), inspector.selected),
  );
  followLog();
  refreshStatus();
  setInterval(refreshStatus, 5000);
}

function followLog() {
  const query = new URLSearchParams();
  if (inspector.lastVersion !== null) query.set("since", inspector.lastVersion);
  else query.set("last", "500");
  const stream = new EventSource(`/events/log?${query}`);
  stream.addEventListener("record", (event) => {
    inspector.retry = 500;
    addRecord(JSON.parse(event.data));
  });
  const again = () => {
    stream.close();
    setTimeout(followLog, inspector.retry);
    inspector.retry = Math.min(inspector.retry * 2, 5000);
  };
  for (const name of ["closed", "goodbye", "notice", "error"]) stream.addEventListener(name, again, { once: true });
}

function addRecord(record) {
  if (inspector.lastVersion !== null && record.version <= inspector.lastVersion) return;
  inspector.records.push(record);
  inspector.lastVersion = record.version;
  const origin = record.origin ?? {};
  if (origin.client !== undefined) inspector.versionsByOrigin.set(origin.origin, record.version);
  if (inspector.records.length > 5000) inspector.records.splice(0, inspector.records.length - 5000);
  scheduleInspector();
}

/** Redraws at most once a frame, however fast records come. */
function scheduleInspector() {
  if (inspector.rendering) return;
  inspector.rendering = true;
  requestAnimationFrame(() => {
    inspector.rendering = false;
    renderInspector();
    throttledStatus();
  });
}

/** Who sent a record's action, in words. */
function sender(record) {
  const origin = record.origin ?? {};
  if (origin.client !== undefined) return `${origin.client} (connection ${origin.connection})`;
  if (origin.effect) {
    const version = inspector.versionsByOrigin.get(origin.origin);
    return version === undefined ? `an effect (origin ${origin.origin})` : `an effect of version ${version}`;
  }
  if (origin.recovery) return "the daemon, recovering";
  if (origin.migration) return `${origin.build}: schema ${origin.migration.from} → ${origin.migration.to}`;
  return JSON.stringify(origin);
}

/** A state path as a JSON Pointer, as tcactl reads one: `cart.items` or
 * `/cart/items`. */
function statePointer(path) {
  if (!path) return "";
  if (path.startsWith("/")) return path;
  if (path.includes("/")) return `/${path}`;
  return path.split(".").map((key) => `/${key.replaceAll("~", "~0")}`).join("");
}

function touches(record, pointer) {
  return !pointer || record.patch.some((op) => op.path === pointer || op.path.startsWith(`${pointer}/`) || pointer.startsWith(`${op.path}/`));
}

function renderInspector() {
  const pointer = statePointer(document.getElementById("log-filter").value.trim());
  const shown = inspector.records.filter((record) => touches(record, pointer)).slice(-300).reverse();
  document.getElementById("records").replaceChildren(
    ...shown.map((record) =>
      h(
        "li",
        { "data-version": record.version, "aria-selected": record.version === inspector.selected },
        h("span", { class: "version" }, record.version),
        h("time", {}, new Date(record.time).toISOString().slice(11, 23)),
        h("code", {}, record.summary.length > 80 ? `${record.summary.slice(0, 79)}…` : record.summary),
        h("span", { class: "sender" }, sender(record)),
      ),
    ),
  );
  renderSelected();
}

function selectVersion(version) {
  inspector.selected = version;
  location.hash = `inspector/${version}`;
  document.getElementById("inspector-result").replaceChildren();
  renderInspector();
}

function renderSelected() {
  const record = inspector.records.find((candidate) => candidate.version === inspector.selected);
  document.getElementById("selected-version").textContent = inspector.selected ?? "–";
  for (const id of ["state-at", "what-if", "compare", "what-if-replaced"]) {
    document.getElementById(id).disabled = inspector.selected === null;
  }
  const detail = document.getElementById("record-detail");
  if (!record) {
    detail.replaceChildren(inspector.selected === null ? "Pick a version in the log." : "");
    return;
  }
  detail.replaceChildren(
    ...[
      h("p", {}, h("code", { id: "selected-summary" }, record.summary)),
    h("p", {}, `sent by ${sender(record)} at ${new Date(record.time).toISOString()}`),
    h("h3", {}, "Change"),
    patchList(record.patch, "selected-patch"),
      record.inputs ? h("p", { class: "hint" }, `drew ${JSON.stringify(record.inputs)}`) : null,
    ].filter((child) => child !== null),
  );
}

function patchList(patch, id) {
  if (patch.length === 0) return h("p", { id, class: "hint" }, "no change");
  return h(
    "ul",
    { id, class: "patch" },
    patch.map((op) =>
      h("li", {}, h("code", {}, `${op.op} ${op.path}`), op.value === undefined ? "" : ` ${short(op.value)}`),
    ),
  );
}

function short(value) {
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** An error message, as screens show them. */
function messageText(text) {
  return message(text);
}

function showResult(...children) {
  document.getElementById("inspector-result").replaceChildren(...children.filter((child) => child !== null));
}

async function showStateAt(version) {
  try {
    const answer = await request({ type: "get", at: version });
    showResult(h("h3", { id: "result-title" }, `The state at version ${answer.version}`), renderTree(answer.state, new Set()));
  } catch (error) {
    showResult(message(error.message));
  }
}

/** What the state would be now without the action of `version`, or with
 * `replacement` (an action as a command line: a path and its arguments,
 * split at spaces) in its place. */
async function showWhatIf(version, replacement) {
  const message = { type: "whatIf" };
  if (replacement) {
    const [path, ...args] = replacement.split(/\s+/);
    Object.assign(message, { replace: version, path, arguments: args });
  } else {
    message.without = version;
  }
  try {
    const answer = await request(message);
    const edit = replacement ? `with ${replacement} as version ${answer.edited}` : `without the action of version ${answer.edited}`;
    showResult(
      h("h3", { id: "result-title" }, `Version ${answer.version} ${edit}`),
      patchList(answer.patch, "what-if-patch"),
      ...answer.notes.map((note) => h("p", { class: "hint" }, note)),
    );
  } catch (error) {
    showResult(messageText(error.message));
  }
}

/** The differences from the state at `from` to the state at `to`. */
async function compareVersions(from, to) {
  if (!Number.isInteger(from) || from < 0) {
    showResult(message("Compare with a version: a whole number."));
    return;
  }
  try {
    const [before, after] = await Promise.all([request({ type: "get", at: from }), request({ type: "get", at: to })]);
    const changes = [];
    differences(before.state, after.state, "", changes);
    showResult(
      h("h3", { id: "result-title" }, `From version ${from} to version ${to}`),
      changes.length === 0
        ? h("p", { class: "hint", id: "differences" }, "no difference")
        : h(
            "ul",
            { id: "differences", class: "patch" },
            changes.map(([path, old, now]) => h("li", {}, h("code", {}, path || "/"), ` ${short(old)} → ${short(now)}`)),
          ),
    );
  } catch (error) {
    showResult(message(error.message));
  }
}

function differences(a, b, path, into) {
  const isObject = (value) => value !== null && typeof value === "object";
  if (isObject(a) && isObject(b) && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) differences(a[key], b[key], `${path}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`, into);
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) into.push([path, a ?? null, b ?? null]);
}

let lastStatus = 0;
function throttledStatus() {
  if (Date.now() - lastStatus > 1000) refreshStatus();
}

async function refreshStatus() {
  lastStatus = Date.now();
  if (document.getElementById("inspector").hidden) return;
  try {
    const { status } = await request({ type: "status" });
    document.getElementById("workers").replaceChildren(
      h("p", {}, "Effects in flight: ", h("strong", { id: "effects-in-flight" }, status.effectsInFlight)),
      h(
        "table",
        { id: "workers-table" },
        h("tr", {}, ["worker", "state", "pid", "in flight", "queued", "restarts"].map((name) => h("th", {}, name))),
        status.workers.map((worker) =>
          h(
            "tr",
            { "data-kind": worker.kind },
            [worker.kind, worker.state, worker.pid ?? "–", worker.inFlight, worker.queued, worker.restarts].map((cell) =>
              h("td", {}, cell),
            ),
          ),
        ),
      ),
    );
  } catch (error) {
    document.getElementById("workers").replaceChildren(message(error.message));
  }
}
