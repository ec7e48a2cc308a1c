// The report's players and, on a database page, its filters and pages. Plain JavaScript on
// the page's own data (the <script id="report-data"> element): nothing is fetched.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const colours = data.colours;
  const N = data.page.size;
  const EXIT_ROW = data.page.exit_row;
  const CELL = 40, MARGIN = 10, EXIT_SPACE = 34, GAP = 4;
  const SVG = "http://www.w3.org/2000/svg";  // the SVG namespace name, not an address fetched

  function element(name, attributes, parent) {
    const e = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) e.setAttribute(key, value);
    if (parent) parent.appendChild(e);
    return e;
  }

  // The pieces of a board string: letter -> {cells, horizontal, length, kind}; walls are 'x'.
  function parseBoard(board) {
    const cells = new Map();
    for (let i = 0; i < board.length; ++i) {
      const ch = board[i];
      if (ch === "o" || ch === ".") continue;
      const key = ch === "x" ? "x" + i : ch;
      if (!cells.has(key)) cells.set(key, []);
      cells.get(key).push([Math.floor(i / N), i % N]);
    }
    const pieces = new Map();
    let car = 0, truck = 0;
    for (const key of [...cells.keys()].sort()) {
      const where = cells.get(key);
      const wall = key[0] === "x";
      const horizontal = where.length > 1 && where[0][0] === where[1][0];
      const kind = wall ? "wall" : key === "A" ? "target" : where.length === 2 ? "car" : "truck";
      const colour = kind === "wall" ? colours.wall : kind === "target" ? colours.target
        : kind === "car" ? colours.cars[car++ % colours.cars.length] : colours.trucks[truck++ % colours.trucks.length];
      pieces.set(key, { key, letter: wall ? "x" : key, row: where[0][0], col: where[0][1], length: where.length,
                        horizontal, kind, colour });
    }
    return pieces;
  }

  function cellsOf(piece) {
    const out = [];
    for (let k = 0; k < piece.length; ++k)
      out.push(piece.horizontal ? [piece.row, piece.col + k] : [piece.row + k, piece.col]);
    return out;
  }

  function boardString(pieces) {
    const cells = new Array(N * N).fill("o");
    for (const piece of pieces.values())
      for (const [r, c] of cellsOf(piece)) cells[r * N + c] = piece.letter;
    return cells.join("");
  }

  function isWon(pieces) {
    const target = pieces.get("A");
    return target.row === EXIT_ROW && target.col === N - 2;
  }

  // One player: the board drawn as SVG, the pieces moved along the solution's moves, each
  // move checked against the board (inside it, every cell it crosses free).
  class Player {
    constructor(root, puzzle) {
      this.root = root;
      this.puzzle = puzzle;
      this.pieces = parseBoard(puzzle.board);
      this.position = 0;
      this.timer = null;
      this.draw();
      this.update();
    }

    draw() {
      const side = N * CELL;
      const svg = element("svg", { viewBox: `0 0 ${side + 2 * MARGIN + EXIT_SPACE} ${side + 2 * MARGIN}`,
                                   role: "img", "aria-label": "board " + this.puzzle.board });
      element("rect", { x: MARGIN, y: MARGIN, width: side, height: side, rx: 6, fill: colours.board }, svg);
      for (let k = 1; k < N; ++k) {
        element("line", { x1: MARGIN + k * CELL, y1: MARGIN, x2: MARGIN + k * CELL, y2: MARGIN + side,
                          stroke: colours.grid, "stroke-width": 1 }, svg);
        element("line", { x1: MARGIN, y1: MARGIN + k * CELL, x2: MARGIN + side, y2: MARGIN + k * CELL,
                          stroke: colours.grid, "stroke-width": 1 }, svg);
      }
      // The frame, with a gap for the exit in the right edge of the exit row.
      const exitTop = MARGIN + EXIT_ROW * CELL, exitBottom = exitTop + CELL, right = MARGIN + side;
      element("path", { d: `M ${right} ${exitTop} V ${MARGIN} H ${MARGIN} V ${MARGIN + side} H ${right} V ${exitBottom}`,
                        fill: "none", stroke: colours.frame, "stroke-width": 3 }, svg);
      const arrowY = exitTop + CELL / 2;
      element("path", { d: `M ${right + 6} ${arrowY} h ${EXIT_SPACE - 14} m -7 -7 l 7 7 l -7 7`, fill: "none",
                        stroke: colours.exit, "stroke-width": 3, class: "exit" }, svg);
      this.shapes = new Map();
      for (const piece of this.pieces.values()) {
        const g = element("g", { class: "piece " + piece.kind, "data-piece": piece.letter }, svg);
        const w = (piece.horizontal ? piece.length : 1) * CELL - 2 * GAP;
        const h = (piece.horizontal ? 1 : piece.length) * CELL - 2 * GAP;
        element("rect", { x: MARGIN + GAP, y: MARGIN + GAP, width: w, height: h, rx: piece.kind === "wall" ? 2 : 7,
                          fill: piece.colour, stroke: "#333", "stroke-width": piece.kind === "truck" ? 2 : 1 }, g);
        if (piece.kind !== "wall") {
          const label = element("text", { x: MARGIN + GAP + w / 2, y: MARGIN + GAP + h / 2 + 5, "text-anchor": "middle",
                                          "font-size": 15, "font-family": "sans-serif",
                                          fill: piece.kind === "truck" || piece.kind === "target" ? "#fff" : "#222" }, g);
          label.textContent = piece.letter;
        }
        this.shapes.set(piece.key, g);
      }
      svg.addEventListener("click", () => this.forward());
      this.root.querySelector(".board").appendChild(svg);
      const on = (name, action) => this.root.querySelector(`button[data-action="${name}"]`)
        .addEventListener("click", action);
      on("start", () => this.go(0));
      on("back", () => this.back());
      on("forward", () => this.forward());
      on("end", () => this.go(this.puzzle.moves.length));
      on("play", () => this.play());
      this.root.addEventListener("keydown", (event) => {
        const keys = { ArrowRight: () => this.forward(), ArrowLeft: () => this.back(), Home: () => this.go(0),
                       End: () => this.go(this.puzzle.moves.length), " ": () => this.play() };
        if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
      });
    }

    occupied(except) {
      const taken = new Set();
      for (const piece of this.pieces.values())
        if (piece !== except) for (const [r, c] of cellsOf(piece)) taken.add(r * N + c);
      return taken;
    }

    // Moves the piece named by the first board's letter by (dr, dc), one cell at a time.
    slide(letter, dr, dc) {
      const piece = this.pieces.get(letter);
      if (!piece || piece.kind === "wall" || (piece.horizontal ? dr !== 0 : dc !== 0))
        throw new Error(`move ${letter} ${dr} ${dc} does not fit the board ${boardString(this.pieces)}`);
      const taken = this.occupied(piece);
      const unitR = Math.sign(dr), unitC = Math.sign(dc);
      for (let k = 0; k < Math.abs(dr + dc); ++k) {
        piece.row += unitR;
        piece.col += unitC;
        for (const [r, c] of cellsOf(piece))
          if (r < 0 || c < 0 || r >= N || c >= N || taken.has(r * N + c))
            throw new Error(`move ${letter} ${dr} ${dc} is blocked on the board ${boardString(this.pieces)}`);
      }
    }

    forward() {
      if (this.position >= this.puzzle.moves.length) return;
      const [letter, dr, dc] = this.puzzle.moves[this.position];
      this.slide(letter, dr, dc);
      ++this.position;
      this.update();
    }

    back() {
      if (this.position === 0) return;
      --this.position;
      const [letter, dr, dc] = this.puzzle.moves[this.position];
      this.slide(letter, -dr, -dc);
      this.update();
    }

    go(position) {
      this.stop();
      while (this.position > position) this.back();
      while (this.position < position) this.forward();
    }

    play() {
      if (this.timer) return this.stop();
      if (this.position >= this.puzzle.moves.length) this.go(0);
      this.timer = setInterval(() => {
        if (this.position >= this.puzzle.moves.length) this.stop(); else this.forward();
      }, 420);
      this.update();
    }

    stop() {
      if (this.timer) clearInterval(this.timer);
      this.timer = null;
      this.update();
    }

    update() {
      for (const piece of this.pieces.values()) {
        const g = this.shapes.get(piece.key);
        g.style.transform = `translate(${piece.col * CELL}px, ${piece.row * CELL}px)`;
      }
      const total = this.puzzle.moves.length;
      const won = isWon(this.pieces);
      this.root.dataset.position = String(this.position);
      this.root.dataset.board = boardString(this.pieces);
      this.root.dataset.won = String(won);
      this.root.querySelector(".counter").textContent = `${this.position} / ${total}`;
      this.root.querySelector(".next").textContent = this.position < total
        ? "next: " + this.puzzle.labels[this.position] : "the target car is at the exit";
      this.root.querySelector('button[data-action="play"]').textContent = this.timer ? "pause" : "play";
    }
  }

  const players = new Map();
  for (const puzzle of data.puzzles) {
    const root = document.getElementById("player-" + puzzle.id);
    if (root) players.set(puzzle.id, new Player(root, puzzle));
  }
  window.rushhourPlayers = players;

  for (const button of document.querySelectorAll(".copy button")) {
    button.addEventListener("click", () => {
      const input = button.parentElement.querySelector("input");
      input.select();
      if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => document.execCommand("copy"));
      else document.execCommand("copy");
      button.textContent = "copied";
    });
  }

  // A database page: filters and pages over its cards.
  const cards = [...document.querySelectorAll(".cards[data-paged] .card")];
  if (cards.length) {
    const PER_PAGE = 24;
    const value = (id) => { const e = document.getElementById(id); return e ? e.value : "any"; };
    let page = 0;
    const show = () => {
      const metric = value("filter-metric"), vehicles = value("filter-vehicles"), walls = value("filter-walls");
      const lowest = Number(value("filter-index")) || 0;
      const minimal = document.getElementById("filter-minimal");
      const kept = cards.filter((card) =>
        card.dataset.metric === metric &&
        (vehicles === "any" || card.dataset.vehicles === vehicles) &&
        (walls === "any" || card.dataset.walls === walls) &&
        Number(card.dataset.index) >= lowest &&
        (!minimal || !minimal.checked || card.dataset.minimal === "true"));
      const pages = Math.max(1, Math.ceil(kept.length / PER_PAGE));
      page = Math.min(page, pages - 1);
      const visible = new Set(kept.slice(page * PER_PAGE, (page + 1) * PER_PAGE));
      for (const card of cards) card.hidden = !visible.has(card);
      document.getElementById("page-of").textContent = `page ${page + 1} of ${pages}, ${kept.length} puzzles`;
      document.getElementById("page-back").disabled = page === 0;
      document.getElementById("page-forward").disabled = page >= pages - 1;
    };
    for (const control of document.querySelectorAll(".filters select, .filters input"))
      for (const event of ["input", "change"]) control.addEventListener(event, () => { page = 0; show(); });
    document.getElementById("page-back").addEventListener("click", () => { --page; show(); });
    document.getElementById("page-forward").addEventListener("click", () => { ++page; show(); });
    show();
  }
})();
