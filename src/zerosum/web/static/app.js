// zerosum browser app: play any registered game against the engine, and step through
// a recorded alpha-beta search. Plain JavaScript and SVG, no build step, no libraries.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------ helpers

function svg(tag, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    element.setAttribute(name, String(value));
  }
  if (parent) parent.appendChild(element);
  return element;
}

function html(tag, text = "", className = "") {
  const element = document.createElement(tag);
  if (text) element.textContent = text;
  if (className) element.className = className;
  return element;
}

function showError(message) {
  $("error-text").textContent = message;
  $("error").hidden = false;
}

function clearError() {
  $("error").hidden = true;
  $("error-text").textContent = "";
}

// The error of a refused request: the server's message, and the seconds it asks us to
// wait before trying again (its Retry-After header), if any.
async function failure(response) {
  let message = `${response.status} ${response.statusText}`;
  try {
    message = (await response.json()).error || message;
  } catch (_) {
    // keep the status line
  }
  const error = new Error(message);
  const wait = Number(response.headers.get("retry-after"));
  error.retryAfter = wait > 0 ? wait : null;
  return error;
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  if (!response.ok) throw await failure(response);
  return response.json();
}

// Read the file chosen in a file input as an upload ({name, text}), or null when none
// is chosen; a file over the server's limit is refused here, before it is sent.
async function readUpload(input, limit) {
  const file = input.files && input.files[0];
  if (!file) return null;
  if (file.size > limit) {
    throw new Error(`${file.name} is ${formatCount(file.size)} bytes; the most a game file may be is ${formatCount(limit)}`);
  }
  return { name: file.name, text: await file.text() };
}

function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

// POST a JSON body and read the answer as server-sent events; onEvent(kind, data)
// is called for each event. EventSource cannot POST, so the stream is parsed here.
async function eventStream(path, body, onEvent) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let kind = "message";
      const data = [];
      for (const line of frame.split("\n")) {
        if (line.startsWith("event:")) kind = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
      }
      onEvent(kind, data.length ? JSON.parse(data.join("\n")) : null);
    }
  }
}

function showScore(value) {
  if (value === "+inf") return "+∞";
  if (value === "-inf") return "−∞";
  if (value === null || value === undefined) return "?";
  return String(value);
}

function formatCount(n) {
  return n === null || n === undefined ? "–" : Number(n).toLocaleString("en-US");
}

// ------------------------------------------------------------------ tabs

function showPanel(name) {
  for (const tab of document.querySelectorAll(".tab")) {
    const active = tab.dataset.panel === name;
    tab.classList.toggle("active", active);
    tab.setAttribute("aria-selected", active ? "true" : "false");
  }
  $("panel-play").hidden = name !== "play";
  $("panel-lab").hidden = name !== "lab";
}

// ================================================================== play

const play = {
  games: [],
  uploadLimit: 0,
  view: null,
  searching: false,
  ticket: null, // the running search's ticket (see think)
  retry: null, // the timer that asks the engine again after the server said "busy"
  halted: false, // the engine failed to move: wait for the person to ask again
};

function gameSpec() {
  const name = $("game-select").value;
  const options = $("game-options").value.trim();
  return options ? `${name}:${options}` : name;
}

function currentEntry() {
  return play.games.find((g) => g.name === $("game-select").value);
}

// An option's cap in words: "heaps: each number at most 1,000, at most 16 items".
function describeCap(option) {
  const cap = option.cap;
  const items = cap.items > 1 ? `, at most ${cap.items} items` : "";
  return `${option.name}: each number at most ${formatCount(cap.most)}${items}`;
}

function describeGame() {
  const entry = currentEntry();
  if (!entry) return;
  // options naming files are refused from a browser: the file input stands in for them
  const typed = entry.options.filter((o) => !o.file);
  const options = typed.map((o) => (o.default === null ? o.name : `${o.name}=${o.default}`));
  $("game-options").placeholder = options.length ? options.join(",") : "none";
  $("game-options").title = typed.filter((o) => o.cap).map(describeCap).join("; ");
  $("game-options").value = "";
  $("game-file-label").hidden = !entry.upload;
  $("game-file").value = "";
  $("game-summary").textContent = entry.error ? `${entry.summary} (unavailable: ${entry.error})` : entry.summary;
}

async function loadGames() {
  const data = await api("GET", "/api/games");
  play.games = data.games;
  const select = $("game-select");
  select.replaceChildren();
  for (const game of play.games) {
    const option = html("option", game.name);
    option.value = game.name;
    select.appendChild(option);
  }
  play.uploadLimit = data.upload_limit;
  $("think-input").max = String(data.max_think);
  const preferred = play.games.find((g) => g.name === "tictactoe");
  if (preferred) select.value = preferred.name;
  describeGame();
}

async function newGame(event) {
  if (event) event.preventDefault();
  clearError();
  const body = {
    game: gameSpec(),
    side: Number($("side-select").value),
    think: Number($("think-input").value) || 1,
  };
  try {
    const entry = currentEntry();
    const upload = entry && entry.upload ? await readUpload($("game-file"), play.uploadLimit) : null;
    if (upload) body.upload = upload;
    const previous = play.view;
    // end the game shown first: one browser may keep only a few games on the server
    if (previous) await api("DELETE", `/api/sessions/${previous.id}`).catch(() => {});
    play.view = null;
    const view = await api("POST", "/api/sessions", body);
    clearAnalysis();
    resetEngine();
    showView(view);
  } catch (error) {
    showError(error.message);
  }
}

async function playMove(text) {
  if (!play.view || play.searching) return;
  clearError();
  try {
    const view = await api("POST", `/api/sessions/${play.view.id}/move`, { move: text });
    resetEngine();
    showView(view);
  } catch (error) {
    showError(error.message);
  }
}

async function undo() {
  if (!play.view) return;
  clearError();
  try {
    const view = await api("POST", `/api/sessions/${play.view.id}/undo`);
    resetEngine();
    showView(view);
  } catch (error) {
    showError(error.message);
  }
}

function clearAnalysis() {
  for (const id of ["an-score", "an-depth", "an-nodes", "an-nps", "an-pv"]) $(id).textContent = "–";
  $("depth-rows").replaceChildren();
}

// the server writes scores and depths in words ("win in 5 plies", "eval +12 points",
// "to the end"): the page shows those, never the engine's raw numbers
function showReport(report) {
  $("an-score").textContent = report.score_text;
  $("an-depth").textContent = report.depth_text;
  $("an-nodes").textContent = formatCount(report.nodes);
  $("an-nps").textContent = formatCount(report.nps);
  $("an-pv").textContent = report.pv.join(" ") || "–";
}

function addDepthRow(report) {
  const row = html("tr");
  row.appendChild(html("td", report.depth_text));
  row.appendChild(html("td", report.score_text));
  row.appendChild(html("td", formatCount(report.nodes)));
  row.appendChild(html("td", `${report.elapsed.toFixed(3)} s`));
  row.appendChild(html("td", report.pv.join(" "), "line"));
  const rows = $("depth-rows");
  rows.insertBefore(row, rows.firstChild);
}

// Forget a pending retry and a failure: the position changed, the engine may try again.
function resetEngine() {
  if (play.retry !== null) clearTimeout(play.retry);
  play.retry = null;
  play.halted = false;
}

async function think(purpose) {
  if (!play.view || play.searching) return;
  resetEngine();
  play.searching = true;
  // this search's ticket: a search's stream ends a little after its "done" event, by
  // which time the next search may have begun; only the current one may change the page
  const ticket = Symbol("search");
  play.ticket = ticket;
  const id = play.view.id;
  $("depth-rows").replaceChildren();
  $("score-label").textContent = purpose === "hint" ? "Score for you" : "Engine's score";
  setStatus(purpose === "hint" ? "Looking for a hint…" : "Engine thinking…", "thinking");
  updateButtons();
  try {
    await eventStream(`/api/sessions/${id}/search`, { purpose }, (kind, data) => {
      if (kind === "queued") {
        setStatus(`Waiting for the engine: ${ordinal(data.position)} in line…`, "thinking queued");
      } else if (kind === "started") {
        setStatus(purpose === "hint" ? "Looking for a hint…" : "Engine thinking…", "thinking");
      } else if (kind === "report") {
        showReport(data);
        addDepthRow(data);
      } else if (kind === "done") {
        if (play.ticket === ticket && data.state.id === (play.view && play.view.id)) {
          play.ticket = null;
          play.searching = false;
          showView(data.state);
        }
      } else if (kind === "error") {
        showError(data);
      }
    });
  } catch (error) {
    if (error.retryAfter && purpose === "move") {
      // the engine's line is full: ask again when the server says a place frees up
      play.retry = setTimeout(() => {
        play.retry = null;
        if (play.view && play.view.id === id) think("move");
      }, error.retryAfter * 1000);
    }
    showError(error.message);
  } finally {
    // still this search's ticket: the stream ended without a "done" for this game
    if (play.ticket === ticket) {
      play.ticket = null;
      play.searching = false;
      if (play.view && play.view.id === id) {
        // a failed engine move waits for the person (or the retry timer) to ask again
        play.halted = purpose === "move" && play.retry === null;
        const view = await api("GET", `/api/sessions/${id}`).catch(() => play.view);
        showView(view);
        if (play.retry !== null) setStatus("The engine is busy: asking again in a few seconds…", "thinking");
      }
    }
  }
}

function setStatus(text, kind = "") {
  const status = $("status");
  status.textContent = text;
  status.className = `status ${kind}`;
}

function updateButtons() {
  const view = play.view;
  const yourTurn = Boolean(view) && view.turn === "human" && !play.searching;
  $("hint").disabled = !yourTurn;
  $("engine-move").hidden = !(view && view.turn === "engine" && play.halted && !play.searching);
  $("undo").disabled = !view || play.searching || !view.moves.some((m) => m.by === "you");
  for (const button of document.querySelectorAll("#legal button")) button.disabled = !yourTurn;
  $("board").classList.toggle("locked", !yourTurn);
}

function showView(view) {
  play.view = view;
  const players = view.game.players;
  $("game-title").textContent = `${view.game.title} — you are ${players[view.human]}`;
  $("game-summary").textContent = view.game.description || $("game-summary").textContent;
  if (view.analysis) showReport(view.analysis);
  drawBoard(view);
  drawLegal(view);
  drawMoves(view);
  const result = $("result");
  if (view.result) {
    const verdict = { win: "You win!", loss: "The engine wins.", draw: "Draw." }[view.result.for_you];
    result.textContent = `${verdict} ${view.result.text} (${view.result.score})`;
    result.dataset.outcome = view.result.for_you;
    result.hidden = false;
    setStatus("Game over.", "over");
  } else {
    result.hidden = true;
    delete result.dataset.outcome;
    const mover = players[view.to_move];
    if (view.turn === "human") {
      setStatus(view.hint ? `Your move (${mover}). Hint: ${view.hint}` : `Your move (${mover}).`, "yours");
    } else if (play.halted) {
      setStatus(`Engine to move (${mover}): it could not; press “Ask the engine again”.`, "thinking");
    } else {
      setStatus(`Engine to move (${mover})…`, "thinking");
    }
  }
  updateButtons();
  if (view.turn === "engine" && !view.thinking && !play.searching && !play.halted && play.retry === null) {
    think("move");
  }
}

function drawBoard(view) {
  const container = $("board");
  container.replaceChildren();
  const board = view.board;
  $("board-text").hidden = Boolean(board);
  $("board-text").textContent = view.text;
  if (!board) return;
  const cell = Math.max(36, Math.min(96, Math.floor(480 / Math.max(board.width, board.height))));
  const width = board.width * cell;
  const height = board.height * cell;
  const picture = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    class: "grid",
    role: "img",
    "aria-label": `${view.game.title} board`,
  });
  svg("rect", { x: 0, y: 0, width, height, class: "grid-back", rx: 6 }, picture);
  const players = view.game.players;
  for (let index = 0; index < board.cells.length; index += 1) {
    const x = (index % board.width) * cell;
    const y = Math.floor(index / board.width) * cell;
    const target = board.targets[String(index)];
    const square = svg("rect", { x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, rx: 6 }, picture);
    square.classList.add("cell");
    square.dataset.index = String(index);
    if (target !== undefined) {
      square.classList.add("target");
      square.dataset.move = target;
      if (view.hint && target === view.hint) square.classList.add("hinted");
      square.addEventListener("click", () => playMove(target));
      const title = svg("title", {}, square);
      title.textContent = target;
    }
    if (board.last === index) square.classList.add("last");
    const owner = board.cells[index];
    if (owner === null) continue;
    const name = players[owner];
    if (name.length === 1) {
      const glyph = svg("text", { x: x + cell / 2, y: y + cell / 2, class: `glyph p${owner}` }, picture);
      glyph.setAttribute("font-size", String(Math.round(cell * 0.62)));
      glyph.textContent = name;
    } else {
      // games whose players are colours (black, white) get stones of those colours
      svg("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.38, class: `stone p${owner} ${name}` }, picture);
    }
  }
  container.appendChild(picture);
}

function drawLegal(view) {
  const legal = $("legal");
  legal.replaceChildren();
  legal.hidden = Boolean(view.board) || view.legal.length === 0;
  // the server lists only the first moves of a long list: the rest are typed
  $("move-form").hidden = Boolean(view.board) || !view.legal_cut;
  if (legal.hidden) return;
  legal.appendChild(html("span", "Moves:", "muted"));
  for (const text of view.legal) {
    const button = html("button", text, "move");
    button.type = "button";
    button.dataset.move = text;
    if (view.hint === text) button.classList.add("hinted");
    button.addEventListener("click", () => playMove(text));
    legal.appendChild(button);
  }
  if (view.legal_cut) {
    const more = view.legal_count - view.legal.length;
    legal.appendChild(html("span", `… and ${formatCount(more)} more: type one below`, "muted more"));
  }
}

function typedMove(event) {
  event.preventDefault();
  const text = $("move-input").value.trim();
  if (!text) return;
  $("move-input").value = "";
  playMove(text);
}

function drawMoves(view) {
  const list = $("move-list");
  list.replaceChildren();
  // the view lists the latest moves only: number them from where the list starts
  list.start = view.move_count - view.moves.length + 1;
  const players = view.game.players;
  for (const move of view.moves) {
    const item = html("li");
    item.appendChild(html("span", players[move.player], `who p${move.player}`));
    item.appendChild(html("span", move.text, "text"));
    item.appendChild(html("span", move.by, "muted"));
    list.appendChild(item);
  }
  list.scrollTop = list.scrollHeight;
}

// ================================================================== lab

const lab = {
  data: null,
  nodes: new Map(), // id -> node (trace nodes and pruned "ghost" nodes)
  order: [], // every node drawn, in layout order
  step: 0,
  timer: null,
  uploadLimit: 0,
};

function labSource() {
  return document.querySelector("input[name=source]:checked").value;
}

function showSource() {
  const source = labSource();
  for (const block of document.querySelectorAll(".source")) {
    block.hidden = block.dataset.source !== source;
  }
}

async function loadLab() {
  const data = await api("GET", "/api/lab");
  const select = $("lab-example");
  select.replaceChildren();
  for (const name of data.examples) {
    const option = html("option", name);
    option.value = name;
    select.appendChild(option);
  }
  $("lab-depth").max = String(data.max_depth);
  lab.uploadLimit = data.upload_limit;
}

async function runLab(event) {
  if (event) event.preventDefault();
  clearError();
  stopPlaying();
  const body = { algorithm: $("lab-algorithm").value };
  const depth = $("lab-depth").value.trim();
  if (depth) body.depth = Number(depth);
  const source = labSource();
  try {
    if (source === "example") body.example = $("lab-example").value;
    else if (source === "tree") body.tree = $("lab-json").value;
    else {
      body.game = $("lab-game").value.trim();
      const upload = await readUpload($("lab-file"), lab.uploadLimit);
      if (upload) body.upload = upload;
      const position = $("lab-position").value.trim();
      if (position) body.position = position;
      const moves = $("lab-moves").value.trim();
      if (moves) body.moves = moves.split(/\s+/);
    }
    const data = await api("POST", "/api/lab", body);
    loadTrace(data);
  } catch (error) {
    $("lab-view").hidden = true;
    showError(error.message);
  }
}

function loadTrace(data) {
  lab.data = data;
  lab.nodes = new Map();
  const trace = data.trace;
  for (const node of trace.nodes) {
    lab.nodes.set(String(node.id), { ...node, key: String(node.id), children: [], ghost: false });
  }
  for (const node of trace.nodes) {
    if (node.parent !== null) lab.nodes.get(String(node.parent)).children.push(lab.nodes.get(String(node.id)));
  }
  // skipped branches hang after the visited children of the node that cut them
  let ghostCount = 0;
  const addGhost = (branch, parent, depth, cutBy) => {
    const key = `g${ghostCount++}`;
    const ghost = {
      key, move: branch.label, depth, ghost: true, hidden: branch.hidden, cutBy, parentKey: parent.key, children: [],
    };
    lab.nodes.set(key, ghost);
    parent.children.push(ghost);
    for (const child of branch.children) addGhost(child, ghost, depth + 1, cutBy);
  };
  for (const [id, branches] of Object.entries(data.pruned)) {
    const cutter = lab.nodes.get(id);
    for (const branch of branches) addGhost(branch, cutter, cutter.depth + 1, cutter.key);
  }
  layout(lab.nodes.get("0"));
  $("lab-title").textContent = data.title;
  $("lab-description").textContent = data.description || "";
  $("lab-position-text").hidden = !data.position;
  $("lab-position-text").textContent = data.position || "";
  const rootForm = trace.orientation === "root";
  const maxPlayer = lab.nodes.get("0").player;
  for (const player of [0, 1]) {
    const role = player === maxPlayer ? "MAX" : "MIN";
    $(`legend-p${player}`).textContent = rootForm ? `${role} (${data.players[player]})` : data.players[player];
  }
  $("lab-orientation").textContent = rootForm
    ? "values and windows for MAX, the player at the root"
    : "values and windows for the side to move at each node";
  $("lab-count-label").textContent = `Nodes visited (${trace.algorithm})`;
  $("lab-minimax").textContent =
    data.minimax_nodes === null ? `more than ${formatCount(data.minimax_limit)}` : formatCount(data.minimax_nodes);
  $("step-range").max = String(data.events.length);
  $("lab-view").hidden = false;
  drawTree();
  setStep(0);
}

// Leaves take consecutive columns in drawing order; a parent sits over its children.
function layout(root) {
  let column = 0;
  lab.order = [];
  const place = (node) => {
    lab.order.push(node);
    if (node.children.length === 0) {
      node.x = column;
      column += 1;
    } else {
      for (const child of node.children) place(child);
      node.x = (node.children[0].x + node.children[node.children.length - 1].x) / 2;
    }
  };
  place(root);
  lab.columns = column;
  lab.depth = Math.max(...lab.order.map((n) => n.depth));
}

const GAP_X = 66;
const GAP_Y = 112;
const MARGIN = 44;
const RADIUS = 17;

function nodePosition(node) {
  return { x: MARGIN + node.x * GAP_X, y: MARGIN + node.depth * GAP_Y };
}

function drawTree() {
  const picture = $("lab-tree");
  picture.replaceChildren();
  const width = MARGIN * 2 + Math.max(0, lab.columns - 1) * GAP_X;
  const height = MARGIN * 2 + lab.depth * GAP_Y + 20;
  picture.setAttribute("viewBox", `0 0 ${width} ${height}`);
  picture.setAttribute("width", String(width));
  picture.setAttribute("height", String(height));
  const edges = svg("g", { class: "edges" }, picture);
  const nodes = svg("g", { class: "nodes" }, picture);
  const rootPlayer = lab.nodes.get("0").player;
  for (const node of lab.order) {
    const { x, y } = nodePosition(node);
    node.elements = {};
    if (node.key !== "0") {
      const parent = lab.nodes.get(node.ghost ? node.parentKey : String(node.parent));
      const from = nodePosition(parent);
      const edge = svg("line", { x1: from.x, y1: from.y + RADIUS, x2: x, y2: y - RADIUS, class: "edge" }, edges);
      // the move's label sits near the child, clear of the parent's window and cut-off
      const along = 0.7;
      const labelX = from.x + (x - from.x) * along + (x >= from.x ? 7 : -7);
      const labelY = from.y + (y - from.y) * along;
      const label = svg("text", { x: labelX, y: labelY, class: "edge-label" }, edges);
      label.classList.add(x >= from.x ? "right" : "left");
      label.textContent = node.move;
      node.elements.edge = edge;
      node.elements.edgeLabel = label;
    }
    const group = svg("g", { class: "node", transform: `translate(${x} ${y})` }, nodes);
    group.dataset.key = node.key;
    // players alternate, so a skipped node's player follows from its depth
    const player = node.ghost ? (rootPlayer + node.depth) % 2 : node.player;
    let shape;
    if (player === 0) {
      shape = svg("rect", { x: -RADIUS, y: -RADIUS, width: RADIUS * 2, height: RADIUS * 2, rx: 4 }, group);
    } else {
      shape = svg("circle", { r: RADIUS }, group);
    }
    shape.classList.add("shape", node.ghost ? "ghost" : `p${player}`);
    if (node.ghost) group.classList.add("pruned");
    const value = svg("text", { y: 4, class: "value" }, group);
    const window = svg("text", { y: RADIUS + 14, class: "window" }, group);
    node.elements.group = group;
    node.elements.value = value;
    node.elements.window = window;
    if (node.ghost) {
      value.textContent = node.hidden ? `+${node.hidden}` : node.hidden === null ? "…" : "";
      const title = svg("title", {}, group);
      title.textContent = node.hidden === null ? "a branch too big to count" : node.hidden ? `a branch of ${node.hidden} nodes` : "pruned";
    }
    if (!node.ghost && node.cutoff) {
      const cut = svg("text", { y: RADIUS + 28, class: "cut-reason" }, group);
      cut.textContent = `✂ ${showScore(node.cutoff.value)} ${node.cutoff.bound === "beta" ? "≥ β" : "≤ α"}=${showScore(node.cutoff.bound === "beta" ? node.cutoff.beta : node.cutoff.alpha)}`;
      node.elements.cut = cut;
    }
  }
}

// The page's picture after the first `step` events: what was entered, left and cut.
function stateAt(step) {
  const entered = new Set();
  const left = new Set();
  const cut = new Set();
  let current = null;
  let visited = 0;
  let pruned = 0;
  const events = lab.data.events;
  for (let i = 0; i < step; i += 1) {
    const event = events[i];
    const key = String(event.node);
    if (event.kind === "enter") {
      entered.add(key);
      visited += 1;
    } else if (event.kind === "leave") {
      left.add(key);
    } else {
      cut.add(key);
      for (const move of lab.nodes.get(key).cutoff.moves) pruned += move.size === null ? 0 : move.size;
    }
    current = key;
  }
  return { entered, left, cut, current, visited, pruned };
}

function describeEvent(step) {
  if (step === 0) return "Press ▶ to step through the search, one event at a time.";
  const event = lab.data.events[step - 1];
  const node = lab.nodes.get(String(event.node));
  const name = node.move === null ? "the root" : node.move;
  if (event.kind === "enter") {
    const window = node.window ? ` with window α=${showScore(node.window[0])}, β=${showScore(node.window[1])}` : "";
    return `Enter ${name}${window}.`;
  }
  if (event.kind === "cut") {
    const moves = node.cutoff.moves.map((m) => m.label).join(", ");
    const reason = node.cutoff.bound === "beta"
      ? `${showScore(node.cutoff.value)} ≥ β=${showScore(node.cutoff.beta)}`
      : `${showScore(node.cutoff.value)} ≤ α=${showScore(node.cutoff.alpha)}`;
    return `Cut-off at ${name}: ${reason}, so ${moves} ${node.cutoff.moves.length === 1 ? "is" : "are"} never visited.`;
  }
  const subject = node.move === null ? "The root" : name;
  return `${subject} ${node.leaf ? "is a leaf worth" : "is worth"} ${showScore(node.value)}.`;
}

function setStep(step) {
  const total = lab.data.events.length;
  lab.step = Math.max(0, Math.min(step, total));
  const view = stateAt(lab.step);
  for (const node of lab.order) {
    const shown = node.ghost ? view.cut.has(node.cutBy) : view.entered.has(node.key);
    const { group, value, window, edge, edgeLabel, cut } = node.elements;
    group.classList.toggle("hidden", !shown);
    if (edge) {
      edge.classList.toggle("hidden", !shown);
      edge.classList.toggle("pruned-edge", node.ghost);
      edgeLabel.classList.toggle("hidden", !shown);
    }
    if (node.ghost) continue;
    group.classList.toggle("current", view.current === node.key);
    group.classList.toggle("done", view.left.has(node.key));
    value.textContent = view.left.has(node.key) ? showScore(node.value) : shown ? "?" : "";
    window.textContent = node.window && shown ? `[${showScore(node.window[0])}, ${showScore(node.window[1])}]` : "";
    if (cut) cut.classList.toggle("hidden", !view.cut.has(node.key));
  }
  $("lab-value").textContent = view.left.has("0") ? showScore(lab.data.trace.root_value) : "?";
  $("lab-count").textContent = `${view.visited} of ${lab.data.trace.stats.nodes}`;
  $("lab-pruned").textContent = String(view.pruned);
  $("step-count").textContent = `${lab.step} / ${total}`;
  $("step-range").value = String(lab.step);
  let text = describeEvent(lab.step);
  if (lab.step === total) {
    const line = lab.data.trace.best_line.join(" › ");
    text += ` Done: value ${showScore(lab.data.trace.root_value)}${line ? `, best line ${line}` : ""}.`;
  }
  $("step-text").textContent = text;
  $("step-back").disabled = $("step-first").disabled = lab.step === 0;
  $("step-next").disabled = $("step-last").disabled = lab.step === total;
  const current = view.current && lab.nodes.get(view.current);
  if (current && current.elements) {
    current.elements.group.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
}

function stopPlaying() {
  if (lab.timer !== null) {
    clearInterval(lab.timer);
    lab.timer = null;
  }
  $("step-play").textContent = "▶ play";
}

function togglePlaying() {
  if (!lab.data) return;
  if (lab.timer !== null) {
    stopPlaying();
    return;
  }
  if (lab.step >= lab.data.events.length) setStep(0);
  $("step-play").textContent = "⏸ pause";
  lab.timer = setInterval(() => {
    if (lab.step >= lab.data.events.length) stopPlaying();
    else setStep(lab.step + 1);
  }, 450);
}

// ================================================================== start

function bind() {
  for (const tab of document.querySelectorAll(".tab")) {
    tab.addEventListener("click", () => showPanel(tab.dataset.panel));
  }
  $("error-close").addEventListener("click", clearError);
  $("setup").addEventListener("submit", newGame);
  $("game-select").addEventListener("change", describeGame);
  $("hint").addEventListener("click", () => think("hint"));
  $("engine-move").addEventListener("click", () => think("move"));
  $("move-form").addEventListener("submit", typedMove);
  // a page closed or reloaded ends its game, which no longer counts against the browser
  window.addEventListener("pagehide", () => {
    if (play.view) fetch(`/api/sessions/${play.view.id}`, { method: "DELETE", keepalive: true });
  });
  $("undo").addEventListener("click", undo);
  $("lab-form").addEventListener("submit", runLab);
  for (const radio of document.querySelectorAll("input[name=source]")) {
    radio.addEventListener("change", showSource);
  }
  $("step-first").addEventListener("click", () => { stopPlaying(); setStep(0); });
  $("step-back").addEventListener("click", () => { stopPlaying(); setStep(lab.step - 1); });
  $("step-next").addEventListener("click", () => { stopPlaying(); setStep(lab.step + 1); });
  $("step-last").addEventListener("click", () => { stopPlaying(); setStep(lab.data.events.length); });
  $("step-play").addEventListener("click", togglePlaying);
  $("step-range").addEventListener("input", (event) => { stopPlaying(); setStep(Number(event.target.value)); });
  document.addEventListener("keydown", (event) => {
    if ($("panel-lab").hidden || !lab.data) return;
    if (["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName)) return;
    const moves = { ArrowRight: 1, ArrowLeft: -1 };
    if (event.key in moves) {
      stopPlaying();
      setStep(lab.step + moves[event.key]);
    } else if (event.key === "Home") {
      stopPlaying();
      setStep(0);
    } else if (event.key === "End") {
      stopPlaying();
      setStep(lab.data.events.length);
    } else if (event.key === " ") {
      event.preventDefault();
      togglePlaying();
    }
  });
}

async function start() {
  bind();
  try {
    await Promise.all([loadGames(), loadLab()]);
    document.body.dataset.ready = "true";
  } catch (error) {
    showError(`The server did not answer: ${error.message}`);
  }
}

start();
