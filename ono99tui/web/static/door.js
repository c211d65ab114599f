// The web door's page: asks the tab's player for a name, keeps the tab's seat id in
// sessionStorage (a reload takes back the same seat, another tab is another player), then
// starts textual-serve's terminal (textual.js, loaded just before this file) on this door's
// websocket, gives it the keyboard as soon as the websocket opens, and says in words why a
// session ended (the door's close codes, see ono99tui/web/session.py).
"use strict";

(() => {
  const SEAT_KEY = "ono99.seat";
  const NAME_KEY = "ono99.name";
  // Close code -> [what happened, the button's label or null for no button].
  const ENDINGS = {
    4000: ["You have left the table.", "Sit down again"],
    4008: ["The session was closed: no keys were pressed for a long time.", "Come back"],
    4009: ["This seat was opened in another tab.", null],
    4010: ["The table has closed.", null],
    4029: ["The door is full: too many players are in through the browser.", "Try again"],
    4500: ["The game could not be started.", "Try again"],
  };
  const LOST = ["The connection to the table was lost.", "Reconnect"];
  // The smallest terminal the table screen fits; a narrow window gets a smaller font.
  const MIN_COLUMNS = 80;
  const DEFAULT_FONT_SIZE = 16;
  const MIN_FONT_SIZE = 7;

  const byId = (id) => document.getElementById(id);
  // The page's words in its language (play.html's #door-words, made by the door), by their
  // English; English where one is missing.
  let WORDS = null;
  function w(text) {
    if (WORDS === null) {
      try { WORDS = JSON.parse(byId("door-words").textContent); } catch (error) { WORDS = {}; }
    }
    return Object.prototype.hasOwnProperty.call(WORDS, text) ? WORDS[text] : text;
  }
  const helperTextarea = () => document.querySelector("#terminal .xterm-helper-textarea");

  function focusTerminal() {
    const helper = helperTextarea();
    if (helper) helper.focus({ preventScroll: true });
  }

  function showEnded(code, reason) {
    const [english, againEnglish] = ENDINGS[code] || LOST;
    const title = w(english);
    const again = againEnglish === null ? null : w(againEnglish);
    document.body.classList.add("-ended");
    byId("connecting").hidden = true;
    byId("ended-title").textContent = title;
    // The door's reason, unless the title already says it.
    const adds = reason && !title.toLowerCase().includes(reason.toLowerCase());
    byId("ended-detail").textContent = code >= 4000 && adds ? reason : "";
    const button = byId("ended-again");
    button.hidden = again === null;
    if (again !== null) {
      button.textContent = again;
      button.onclick = () => window.location.reload();
    }
    byId("ended-layer").hidden = false;
    if (again !== null) button.focus();
  }

  // textual.js keeps its xterm.js Terminal to itself; it is caught here as textual.js's
  // session object stores it (`this.terminal = …`), only while textual.js starts.
  let terminal = null;
  function catchingTerminal(start) {
    const before = Object.getOwnPropertyDescriptor(Object.prototype, "terminal");
    Object.defineProperty(Object.prototype, "terminal", {
      configurable: true,
      set(value) {
        if (before && before.set) {
          before.set.call(this, value);
        } else {
          Object.defineProperty(this, "terminal", {
            value, writable: true, configurable: true, enumerable: true,
          });
        }
        if (value && typeof value === "object" && "websocket_url" in this) terminal = value;
      },
    });
    try {
      start();
    } finally {
      if (before) Object.defineProperty(Object.prototype, "terminal", before);
      else delete Object.prototype.terminal;
    }
  }

  // On a screen with more than one device pixel per CSS pixel (phones, high-DPI laptops),
  // xterm.js's canvas renderer (used where WebGL is not) sizes its canvases in CSS pixels
  // at start but draws in device pixels: the table is drawn 2-3 times too large, its left
  // part only. textual.js gives the font size as a string; setting it again as a number
  // makes xterm.js measure and size its canvases again, right. The cell it measures then
  // may differ from the first one: textual.js fits the terminal to the window again on a
  // resize event, and tells the game its new size.
  function remeasureTerminal() {
    const size = Number(byId("terminal").dataset.fontSize);
    if (!terminal || !terminal.options || !(size > 0)) return;
    terminal.options.fontSize = size;
    window.dispatchEvent(new Event("resize"));
  }

  // textual.js opens its websocket itself; this subclass adds the door's two listeners.
  const NativeWebSocket = window.WebSocket;
  class DoorWebSocket extends NativeWebSocket {
    constructor(url, protocols) {
      super(url, protocols);
      this.addEventListener("open", remeasureTerminal);
      this.addEventListener("open", focusTerminal);
      this.addEventListener("close", (event) => showEnded(event.code, event.reason));
    }
  }
  window.WebSocket = DoorWebSocket;

  // A click on the terminal while it does not have the keyboard only gives it the keyboard:
  // the press (and its release) does not reach the game as a click on whatever is there.
  function swallowFocusingClick(terminal) {
    let swallowing = false;
    const swallow = (event) => {
      event.preventDefault();
      event.stopImmediatePropagation();
    };
    terminal.addEventListener("mousedown", (event) => {
      const helper = helperTextarea();
      swallowing = Boolean(helper) && document.activeElement !== helper;
      if (swallowing) {
        swallow(event);
        helper.focus({ preventScroll: true });
      }
    }, true);
    terminal.addEventListener("mouseup", (event) => {
      if (swallowing) {
        swallowing = false;
        swallow(event);
      }
    }, true);
  }

  async function post(path, body) {
    try {
      const response = await fetch(path, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
        credentials: "same-origin",
      });
      let data = {};
      try {
        data = await response.json();
      } catch (error) {
        data = {};
      }
      return { ok: response.ok, status: response.status, body: data };
    } catch (error) {
      return { ok: false, status: 0, body: { error: w("The door did not answer.") } };
    }
  }

  function askName() {
    return new Promise((resolve) => {
      const layer = byId("name-layer");
      const form = byId("name-form");
      const input = byId("name");
      const error = byId("name-error");
      byId("connecting").hidden = true;
      input.value = window.localStorage.getItem(NAME_KEY) || "";
      layer.hidden = false;
      input.focus();
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        error.textContent = "";
        const answer = await post("/seat", { name: input.value });
        if (answer.status === 401) {
          window.location.reload(); // the login has expired: the login page again
          return;
        }
        if (!answer.ok) {
          error.textContent = answer.body.error || w("That did not work; try again.");
          return;
        }
        window.sessionStorage.setItem(SEAT_KEY, answer.body.seat);
        window.localStorage.setItem(NAME_KEY, answer.body.name);
        layer.hidden = true;
        byId("connecting").hidden = false;
        resolve(answer.body.seat);
      });
    });
  }

  async function claimSeat() {
    const kept = window.sessionStorage.getItem(SEAT_KEY);
    if (kept) {
      const answer = await post("/seat", { seat: kept });
      if (answer.ok) return kept;
      if (answer.status === 401) {
        window.location.reload();
        return new Promise(() => {});
      }
      window.sessionStorage.removeItem(SEAT_KEY); // a seat this door no longer knows
    }
    return askName();
  }

  function fontSize() {
    const asked = parseInt(new URLSearchParams(window.location.search).get("fontsize"), 10);
    if (asked >= MIN_FONT_SIZE && asked <= 64) return asked;
    // Roboto Mono's cell is 0.6 em wide, drawn on whole pixels: keep MIN_COLUMNS on screen
    // where the window allows.
    let size = DEFAULT_FONT_SIZE;
    while (size > MIN_FONT_SIZE && Math.floor(0.6 * size) * MIN_COLUMNS > window.innerWidth) {
      size -= 1;
    }
    return size;
  }

  async function loadFonts(size) {
    // xterm.js measures its cell once: the font must be there before the terminal opens.
    try {
      await Promise.all([
        document.fonts.load(`${size}px "Roboto Mono"`),
        document.fonts.load(`bold ${size}px "Roboto Mono"`),
      ]);
    } catch (error) {
      // A font that will not load leaves the fallback monospace font: still playable.
    }
  }

  const startTerminal = window.onload; // set by textual.js
  window.onload = async (event) => {
    const terminal = byId("terminal");
    const size = fontSize();
    terminal.dataset.fontSize = String(size);
    await loadFonts(size);
    const seat = await claimSeat();
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    // The address the browser used, whatever the door is bound to.
    terminal.dataset.sessionWebsocketUrl =
      `${scheme}//${window.location.host}/ws/${encodeURIComponent(seat)}`;
    swallowFocusingClick(terminal);
    if (typeof startTerminal === "function") {
      catchingTerminal(() => startTerminal.call(window, event));
    }
  };
})();
