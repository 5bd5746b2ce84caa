// The seed apps' screens, each drawn from its part of the state, every
// button and field sending the action a person's tap or keystroke would
// (the paths `tcactl actions` lists). Loaded before app.js.
"use strict";

/** An element: `h("p", {class: "hint"}, "text")`. A screen's elements
 * carry no listeners: what a button sends and what a field is bound to are
 * attributes (`data-action`, `data-args`, `data-bind`), read by the
 * page's listeners (app.js), so that a redraw, which updates the elements
 * in place, never leaves a click or a keystroke with a stale one. */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name.startsWith("aria-") && typeof value === "boolean") {
      element.setAttribute(name, String(value));
      continue;
    }
    if (value === undefined || value === null || value === false) continue;
    if (name === "value") element.value = value;
    else if (name === "checked") element.checked = value;
    else element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** A button that sends `path` with `args`. */
function actionButton(label, path, args = [], attributes = {}) {
  return h(
    "button",
    { type: "button", "data-action": path, "data-args": JSON.stringify(args), ...attributes },
    label,
  );
}

/** A text field bound to `path`: every keystroke sends its value. Under
 * it, why its last value was refused (app.js), else `error`, the app's
 * message about the value it holds; with an `id`, the message's is
 * `ID-error`. */
function boundField(label, value, path, attributes = {}, error = null) {
  return [
    h("label", {}, label, h("input", { value, "data-bind": path, "data-label": label, ...attributes })),
    fieldError(path, error, attributes.id),
  ];
}

/** The line under the field bound to `path`: why its last value was
 * refused, else the app's `error`, else empty. */
function fieldError(path, error, id) {
  return h(
    "p",
    { class: "field-error", id: id ? `${id}-error` : undefined, "data-error-for": path },
    fieldMessage(path) ?? error ?? "",
  );
}

/** An enumeration case's name: `"idle"`, or `{"placed": …}` → "placed". */
function caseName(value) {
  if (value === null || value === undefined) return null;
  return typeof value === "string" ? value : Object.keys(value)[0];
}

function caseValue(value) {
  return value !== null && typeof value === "object" ? Object.values(value)[0] : undefined;
}

/** An alert as its state describes it: title, message, a button each, in
 * a dialog the page opens as modal (app.js): nothing behind it can be
 * clicked, focused or typed into while it is shown. */
function alertDialog(alert, prefix) {
  if (!alert) return null;
  return h(
    "dialog",
    { class: "alert", role: "alertdialog", "aria-labelledby": "alert-title" },
    h("h3", { id: "alert-title" }, alert.title),
    alert.message ? h("p", { class: "alert-message" }, alert.message) : null,
    h(
      "div",
      { class: "buttons" },
      alert.buttons.map((button) =>
        actionButton(button.label, button.path ? `${prefix}.presented.${button.path}` : `${prefix}.dismiss`, [], {
          class: button.role === "cancel" ? "secondary" : button.role === "destructive" ? "destructive" : "",
          "data-role": button.role ?? undefined,
        }),
      ),
    ),
  );
}

function message(text, className = "error") {
  return text ? h("p", { class: className, role: className === "error" ? "alert" : "status" }, text) : null;
}

/** The seed apps' screens, by name; each shows when the state has its
 * `part` (a hosted app of another shape gets the state tree alone). A
 * click on a screen's tab sends `tabSelected` with its `tab`; a page
 * opened without a screen shows the one whose `tabs` hold the app's
 * `selectedTab`. */
const screens = {
  counter: {
    part: "counter",
    title: "Counter",
    tab: "counter",
    tabs: ["counter"],
    render: (state) => counterView(state.counter, "counter"),
  },
  dice: {
    part: "dice",
    title: "Dice",
    tab: "dice",
    tabs: ["dice"],
    render: (state) => {
      const dice = state.dice;
      const history = dice.destination?.history;
      return h(
        "div",
        { class: "dice" },
        h("div", { class: "die", "data-rolling": dice.isRolling }, dice.isRolling ? "…" : dice.currentRoll ?? "–"),
        h(
          "div",
          { class: "buttons" },
          actionButton("Roll", "dice.view.rollButtonTapped", [], { disabled: dice.isRolling, id: "roll" }),
          actionButton("Undo", "dice.view.undoLastRoll", [], { disabled: !dice.view.canUndo, id: "undo" }),
          actionButton("Reset", "dice.view.resetHistory", [], { disabled: dice.rollHistory.length === 0 }),
          actionButton("Full history", "dice.view.viewFullHistoryTapped"),
        ),
        h("p", {}, "Last rolls: ", h("span", { id: "last-rolls" }, dice.view.lastFiveRolls.join(" ") || "no rolls yet")),
        h("p", {}, "Rolls so far: ", h("span", { id: "roll-count" }, dice.rollHistory.length)),
        message(dice.errorMessage),
        history
          ? h(
              "div",
              { class: "sheet" },
              h("h3", {}, "Every roll"),
              h("ol", {}, history.rolls.map((roll) => h("li", {}, roll))),
              actionButton("Close", "dice.destination.presented.history.closeButtonTapped"),
            )
          : null,
      );
    },
  },
  store: {
    part: "cart",
    title: "Store",
    tab: "products",
    tabs: ["products", "cart", "profile"],
    render: (state) => {
      const quantities = state.cart.view.quantities;
      const rows = state.products.rows;
      const profile = state.profile;
      return h(
        "div",
        { class: "store" },
        h(
          "section",
          { class: "products", "data-status": caseName(state.products.status) },
          h("h3", {}, "Products"),
          productsStatusView(state.products, rows.length),
          h(
            "ul",
            { class: "rows" },
            rows.map((row) =>
              h(
                "li",
                { class: "row", "data-product": row.product.id },
                h("img", { src: row.product.image, alt: "", loading: "lazy" }),
                h("span", { class: "title" }, row.product.title),
                h("span", { class: "price" }, row.view.priceText),
                actionButton("−", `products.rows[${row.product.id}].addToCart.minusButtonTapped`, [], {
                  "aria-label": "one fewer",
                  class: "minus",
                }),
                h("output", { class: "quantity" }, quantities[row.product.id] ?? 0),
                actionButton("+", `products.rows[${row.product.id}].addToCart.plusButtonTapped`, [], {
                  "aria-label": "one more",
                  class: "plus",
                }),
              ),
            ),
          ),
        ),
        h(
          "section",
          { class: "cart" },
          h("h3", {}, "Cart"),
          h(
            "ul",
            {},
            state.cart.items.map((item) =>
              h(
                "li",
                { "data-product": item.product.id },
                `${item.quantity} × ${item.product.title} `,
                h("span", { class: "subtotal" }, item.view.subtotalText),
                " ",
                actionButton("Remove", "cart.removeItem", [String(item.product.id)]),
              ),
            ),
          ),
          h("p", {}, "Total: ", h("strong", { id: "total" }, state.cart.view.totalText)),
          actionButton("Pay", "cart.payButtonTapped", [], {
            id: "pay",
            disabled: !state.cart.view.isPayEnabled,
          }),
          h("p", { id: "order-status", role: "status" }, state.cart.view.orderText ?? ""),
          message(state.cart.errorMessage),
          alertDialog(state.cart.alert, "cart.alert"),
        ),
        h(
          "section",
          { class: "profile" },
          h("h3", {}, "Profile"),
          profile.profile
            ? h(
                "p",
                { id: "profile" },
                `${profile.view.displayName} · ${profile.profile.email}`,
              )
            : null,
          profileStatusView(profile, profile.profile !== null && profile.profile !== undefined),
        ),
      );
    },
  },
  bmi: {
    part: "bmi",
    title: "BMI",
    tab: "bmi",
    tabs: ["bmi"],
    render: (state) => {
      const bmi = state.bmi;
      const input = bmi.input;
      const tabs = h(
        "div",
        { class: "buttons", role: "tablist" },
        ["Input", "History"].map((tab) =>
          actionButton(tab, "bmi.tabSelected", [tab], { "aria-selected": bmi.selectedTab === tab, role: "tab" }),
        ),
      );
      // An alert is modal: shown whichever tab is (a save shows the history).
      const alert = alertDialog(input.alert, "bmi.input.alert");
      if (bmi.selectedTab === "History") {
        return h(
          "div",
          { class: "bmi" },
          tabs,
          alert,
          message(bmi.history.errorMessage),
          message(bmi.history.unreadableMessage),
          h(
            "ul",
            { id: "bmi-history" },
            bmi.history.records.map((record, index) => {
              const row = bmi.history.view.rows[index];
              return h(
                "li",
                {},
                `${row.dateText}: ${record.height} cm, ${record.weight} kg → ${row.bmiText} (${row.category}) `,
                actionButton("Delete", "bmi.history.delete", [record.id]),
              );
            }),
          ),
        );
      }
      return h(
        "div",
        { class: "bmi" },
        tabs,
        h(
          "form",
          {},
          boundField("Height (cm)", input.height, "bmi.input.binding.height", { id: "height" }, input.heightError),
          boundField("Weight (kg)", input.weight, "bmi.input.binding.weight", { id: "weight" }, input.weightError),
        ),
        h(
          "p",
          { id: "bmi-result" },
          input.result ? `BMI ${input.result.formattedValue}: ${input.result.category}` : "",
        ),
        actionButton("Save", "bmi.input.saveButtonTapped", [], { id: "save", disabled: !input.view.isSaveButtonEnabled }),
        caseName(input.saveStatus) === "saving" ? h("p", { class: "hint" }, input.view.saveText) : null,
        caseName(input.saveStatus) === "failed" ? message(input.view.saveText) : null,
        alert,
      );
    },
  },
  search: {
    part: "search",
    title: "GIF search",
    tab: "search",
    tabs: ["search"],
    render: (state) => {
      const search = state.search;
      return h(
        "div",
        { class: "search" },
        h(
          "label",
          {},
          "Search GIFs ",
          h("input", {
            id: "search-text",
            type: "search",
            value: search.text,
            "data-bind": "search.textChanged",
            "data-label": "The search",
          }),
        ),
        fieldError("search.textChanged", null, "search-text"),
        h(
          "p",
          { class: "hint", id: "search-status" },
          search.view.statusText ?? (search.query ? `Results for “${search.query}”` : ""),
        ),
        search.errorMessage ? h("div", {}, message(search.errorMessage), actionButton("Retry", "search.retryButtonTapped")) : null,
        h(
          "ul",
          { class: "gifs", id: "gifs" },
          search.results.map((gif) =>
            h("li", { "data-gif": gif.id }, h("img", { src: gif.gifURL, alt: gif.id, loading: "lazy" })),
          ),
        ),
      );
    },
  },
  settings: {
    part: "parent",
    title: "Settings",
    tab: "parent",
    tabs: ["parent"],
    render: (state) => {
      const parent = state.parent;
      const settings = parent.settings;
      return h(
        "div",
        { class: "parent", "data-theme": parent.preferences.theme },
        h("p", { id: "greeting" }, `Hello, ${parent.preferences.displayName}!`),
        counterView(parent.counter, "parent.counter"),
        actionButton("Settings", "parent.settingsButtonTapped", [], { id: "open-settings", disabled: !!settings }),
        settings
          ? h(
              "div",
              { class: "sheet", id: "settings" },
              h("h3", {}, "Settings"),
              boundField(
                "Display name",
                settings.draft.displayName,
                "parent.settings.presented.binding.displayName",
                { id: "display-name" },
                settings.displayNameError,
              ),
              h(
                "label",
                {},
                "Theme ",
                h(
                  "select",
                  { id: "theme", "data-bind": "parent.settings.presented.binding.theme" },
                  [
                    ["system", "As the system"],
                    ["light", "Light"],
                    ["dark", "Dark"],
                  ].map(([theme, label]) =>
                    h("option", { value: theme, selected: settings.draft.theme === theme }, label),
                  ),
                ),
              ),
              h(
                "label",
                {},
                h("input", {
                  type: "checkbox",
                  id: "haptics",
                  checked: settings.draft.isHapticFeedbackEnabled,
                  "data-bind": "parent.settings.presented.binding.isHapticFeedbackEnabled",
                }),
                " Haptic feedback",
              ),
              h(
                "div",
                { class: "buttons" },
                actionButton("Save", "parent.settings.presented.saveButtonTapped", [], { id: "save-settings" }),
                actionButton("Cancel", "parent.settings.presented.cancelButtonTapped", [], { class: "secondary" }),
              ),
            )
          : null,
      );
    },
  },
  inventory: {
    part: "inventory",
    title: "Inventory",
    tab: "inventory",
    tabs: ["inventory"],
    render: (state) => {
      const inventory = state.inventory;
      const destination = inventory.destination;
      const top = inventory.path.elements[inventory.path.elements.length - 1];
      return h(
        "div",
        { class: "inventory" },
        h(
          "ul",
          { id: "items" },
          inventory.items.map((item) =>
            h(
              "li",
              { "data-item": item.id },
              h("span", { class: "name" }, item.name),
              ` × ${item.quantity} `,
              actionButton("Open", "inventory.detailButtonTapped", [String(item.id)]),
              actionButton("Edit", "inventory.editButtonTapped", [String(item.id)]),
              actionButton("Delete", "inventory.deleteButtonTapped", [String(item.id)], { class: "destructive" }),
            ),
          ),
        ),
        actionButton("Add an item", "inventory.addButtonTapped", [], { id: "add-item" }),
        destination ? itemForm(caseValue(destination), `inventory.destination.presented.${caseName(destination)}`) : null,
        top ? stackScreen(top, inventory) : null,
      );
    },
  },
};

function counterView(counter, prefix) {
  return h(
    "div",
    { class: "counter" },
    h(
      "div",
      { class: "buttons" },
      actionButton("−", `${prefix}.decrementButtonTapped`, [], { "aria-label": "decrement" }),
      h("output", { class: "count" }, counter.count),
      actionButton("+", `${prefix}.incrementButtonTapped`, [], { "aria-label": "increment" }),
    ),
    actionButton("Number fact", `${prefix}.numberFactButtonTapped`, [], { disabled: counter.isLoading }),
    counter.isLoading ? h("p", { class: "hint" }, "Fetching a fact…") : null,
    counter.numberFact ? h("p", { class: "fact" }, counter.numberFact) : null,
    message(counter.errorMessage),
  );
}

/** The add or edit form of an item, its actions under `prefix`. */
function itemForm(form, prefix) {
  return h(
    "div",
    { class: "sheet item-form" },
    h("h3", {}, form.item.name ? `Item: ${form.item.name}` : "New item"),
    boundField("Name", form.item.name, `${prefix}.binding.name`, { class: "item-name" }, form.nameError),
    boundField(
      "Quantity",
      String(form.item.quantity),
      `${prefix}.binding.quantity`,
      { class: "item-quantity", inputmode: "numeric" },
      form.quantityError,
    ),
    boundField("Notes", form.item.notes, `${prefix}.binding.notes`, { class: "item-notes" }),
    h(
      "div",
      { class: "buttons" },
      actionButton("Save", `${prefix}.saveButtonTapped`, [], { class: "save-item" }),
      actionButton("Cancel", `${prefix}.cancelButtonTapped`, [], { class: "secondary" }),
    ),
  );
}

/** The screen on top of the inventory's stack: an item, or its edit form. */
function stackScreen(element, inventory) {
  const prefix = `inventory.path[${element.id}]`;
  const back = actionButton("Back", "inventory.path.popFrom", [String(element.id)], { class: "secondary" });
  if (caseName(element.state) === "edit") {
    return h("div", {}, itemForm(element.state.edit, `${prefix}.edit`), back);
  }
  const item = inventory.view.path.find((screen) => screen.id === element.id)?.item ?? null;
  return h(
    "div",
    { class: "sheet" },
    h("h3", {}, item ? item.name : "A deleted item"),
    item ? h("p", {}, `${item.quantity} in stock. ${item.notes}`) : null,
    actionButton("Edit", `${prefix}.detail.editButtonTapped`),
    back,
  );
}

/** What the product list says of its catalog: nothing once the live one
 * is shown; otherwise where the rows come from and a button to load it,
 * the load under way, or why it failed with a button to try again. */
function productsStatusView(products, rowCount) {
  const status = products.status;
  switch (caseName(status)) {
    case "idle":
      return rowCount === 0
        ? actionButton("Load the catalog", "products.fetchProducts", [], { id: "load-catalog" })
        : null;
    case "bundled":
      return h(
        "p",
        { class: "hint" },
        "These are the products that came with the app. ",
        actionButton("Load the latest catalog", "products.fetchProducts", [], { id: "load-catalog" }),
      );
    case "loading":
      return h("p", { class: "hint" }, products.view.statusText);
    case "failed":
      return h(
        "div",
        {},
        message(products.view.statusText),
        actionButton("Try again", "products.fetchProducts", [], { id: "load-catalog" }),
      );
    default:
      return null;
  }
}

/** What the profile section says besides the profile: a button to load it,
 * the load under way, or why it failed with a button to try again. */
function profileStatusView(profile, hasProfile) {
  switch (caseName(profile.status)) {
    case "loading":
      return h("p", { class: "hint" }, profile.view.statusText);
    case "failed":
      return h("div", {}, message(profile.view.statusText), actionButton("Try again", "profile.fetchProfile"));
    case "loaded":
      return null;
    default:
      return hasProfile ? null : actionButton("Load the profile", "profile.fetchProfile", [], { id: "load-profile" });
  }
}

