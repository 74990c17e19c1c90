// The osrs-rl viewer page: draws scenes (see osrs_rl/replay/scene.py for their JSON) on a canvas,
// plays replays with controls, a scrub bar and a timeline, and drives human play through the
// server's /api/play endpoints. Plain JS, no external files: the page is served from 127.0.0.1 only.
// window.viewer exposes the current state (frame, scenes, what was drawn where) to tests and curious users.
"use strict";

// The canvas fills the room its pane has in the window ("fit": the drawn tiles, see Pane.include, as large
// as fit beside the panels and above the timeline); zooming (wheel, +/-) enlarges it and the view scrolls.
const TILE_PX_FIT_MAX = 64;       // a tile's side at "fit", at most (a small arena need not fill a wide window)
const TILE_PX_MIN = 4;
const ZOOM_STEP = 1.25, ZOOM_MAX = 8;   // each wheel notch or +/- press; 8x the fit at most
const MARGIN_TILES = 1;           // around the drawn tiles: room for the north row's names, nothing at an edge
const VIEW_MIN_PX = 320;          // the view's height, at least, however short the window
const BELOW_VIEW_PX = 64;         // kept free under the view in the window: the timeline and its legend
const LABEL_REACH = 5;            // a label moves at most this many lines from its place; else it is hidden
const PLAY_TICK_MS = 600;         // one game tick
const HOTKEYS = {                 // "head:label" -> key, for the heads an encounter has
  "loadout:mage": "1", "loadout:ranged": "2", "loadout:melee": "3", "loadout:tank": "4", "loadout:spec": "5",
  "attack:weapon": "j", "attack:attack": "j", "attack:ice_barrage": "i", "attack:blood_barrage": "o",
  "overhead:magic": "q", "overhead:missiles": "w", "overhead:melee": "e", "overhead:off": "t",
  "overhead:smite": "y", "overhead:redemption": "u",
  "prayer:protect_melee": "e", "prayer:off": "t",
  "offensive:on": "a", "offensive:off": "s",
  "food:eat": "f", "eat:eat": "f", "karambwan:eat": "k",
  "potion:brew": "b", "potion:restore": "g", "potion:boost": "h", "vengeance:cast": "v",
};
const SPLAT_COLORS = { hit: "#c0392b", block: "#2e6fbf", heal: "#27ae60" };
const STYLE_COLORS = { melee: "#e74c3c", ranged: "#2ecc71", magic: "#5dade2", typeless: "#bbbbbb" };
const OVERLAY_STYLE = { line_of_sight: "rgba(120, 220, 120, 0.30)", danger: "rgba(230, 60, 60, 0.35)" };

// ---- small helpers ---------------------------------------------------------------------------------
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}
const $ = (id) => document.getElementById(id);
const fmt = (v, digits = 3) => (v === null || v === undefined ? "-" : Number(v).toFixed(digits));

async function api(path, body) {
  const init = body === undefined ? {} :
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(path, init);
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
  return data;
}
// keys go to the page unless a control that reads them has the focus (a checkbox does not)
const typing = (t) => t.tagName === "SELECT" || t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && t.type !== "checkbox");
function showError(err) { $("error").textContent = err ? String(err.message || err) : ""; }

// ---- one pane: a canvas, a side panel, annotations, a timeline ----------------------------------------
class Pane {
  constructor(index) {
    this.index = index;
    this.data = null;               // the replay payload (view) or null (play)
    this.scene = null;
    this.frame = 0;
    this.drawn = { entities: {}, overlays: {}, tile: 0 };
    this.zoom = 1;                  // 1: the drawn tiles fit the room; more: the view scrolls
    this.bounds = null;             // the tiles drawn ({x0, y0, width, height}), grown by include()
    this.arenaBoxes = new Map();    // arena -> the box of its open tiles (the arena is the same every frame)
    const i = index;
    this.title = el("h2", { id: `title-${i}` });
    this.canvas = el("canvas", { id: `canvas-${i}`, width: 300, height: 300 });
    this.view = el("div", { id: `view-${i}`, class: "view" }, this.canvas);
    this.hover = el("span", { id: `hover-${i}`, class: "hover" });
    this.zoomLabel = el("span", { id: `zoom-${i}` });
    this.hiddenNote = el("span", { id: `hidden-${i}`, class: "hidden-note" });
    const button = (text, title, onClick) => {
      const b = el("button", { type: "button", title }, text);
      b.addEventListener("click", onClick);
      return b;
    };
    this.zoomBar = el("div", { id: `zoombar-${i}`, class: "zoombar" },
      button("\u2212", "zoom out (-)", () => this.setZoom(this.zoom / ZOOM_STEP)),
      button("+", "zoom in (+, or the mouse wheel over the arena)", () => this.setZoom(this.zoom * ZOOM_STEP)),
      button("fit", "the whole arena in the window (0)", () => this.setZoom(1)),
      this.zoomLabel, this.hiddenNote, this.hover);
    this.side = el("div", { id: `side-${i}`, class: "side" });
    this.annot = el("div", { id: `annot-${i}`, class: "side annot" });
    this.timeline = el("div", { id: `timeline-${i}`, class: "timeline" });
    this.legend = el("div", { class: "legend" }, ...[["hit", "#e06c75"], ["kill", "#98c379"], ["death", "#ff0000"],
      ["prayer switch", "#61afef"]].map(([name, color]) => el("span", {}, el("i", { style: `background: ${color}` }), name)));
    // what the marks on the canvas mean (the same in view and play)
    this.key = el("div", { id: `key-${i}`, class: "legend key" },
      el("span", {}, "name above (#slot where names repeat), hp/max inside, below: [overhead] style t<ticks to attack> "
        + "frozen <ticks> (cannot move, cyan border) stunned <ticks> (cannot move nor attack, orange border); "
        + "dashed yellow frame: what the decision shown attacks"),
      ...Object.entries(STYLE_COLORS).map(([name, color]) => el("span", {}, el("i", { style: `background: ${color}` }),
        `${name} hit in flight (arrow)`)),
      ...Object.entries(SPLAT_COLORS).map(([name, color]) => el("span", {}, el("i", { style: `background: ${color}; border-radius: 4px` }),
        `${name} splat`)));
    this.stage = el("div", { class: "stage" }, this.zoomBar, this.view, this.timeline, this.legend, this.key);
    this.body = el("div", { class: "body" }, this.stage, this.side, this.annot);
    this.root = el("div", { id: `pane-${i}`, class: "pane" }, this.title, this.body);
    this.view.addEventListener("wheel", (ev) => {
      if (!this.scene) return;
      ev.preventDefault();                // the wheel zooms the arena, not the page
      const r = this.canvas.getBoundingClientRect();
      this.setZoom(this.zoom * (ev.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP), ev.clientX - r.left, ev.clientY - r.top);
    }, { passive: false });
    this.canvas.addEventListener("mousemove", (ev) => {
      const t = this.tileAt(ev.offsetX, ev.offsetY);
      const e = this.entityAtPixel(ev.offsetX, ev.offsetY);
      const text = (t ? `tile (${t.x}, ${t.y})` : "") + (e ? `: ${describe(e)}` : "");
      this.hover.textContent = text;
      this.canvas.title = text;         // the tooltip
    });
    this.timeline.addEventListener("click", (ev) => {
      const n = this.lastFrame();
      if (n > 0) viewer.seek(Math.round((ev.offsetX / this.timeline.clientWidth) * n));
    });
  }

  lastFrame() { return this.data ? this.data.scenes.length - 1 : 0; }

  // the arena tile under canvas pixel (px, py), north up; null in the margin
  tileAt(px, py) {
    const s = this.scene, b = this.bounds;
    if (!s || !b) return null;
    const a = s.arena, ts = this.drawn.tile;
    const x = b.x0 + Math.floor(px / ts), y = b.y0 + b.height - 1 - Math.floor(py / ts);
    if (x < a.x0 || y < a.y0 || x >= a.x0 + a.width || y >= a.y0 + a.height) return null;
    return { x, y };
  }

  // Grow the drawn tiles to hold ``scene``: the arena's open tiles (the Inferno's blocked north, Zuk's side
  // before his wave, is left out) and every entity and object wherever it stands, with a margin around. A
  // replay's scenes are all included when it opens, so its frame never moves; in play, where the next tick is
  // unknown, the whole arena is (Zulrah surfacing in the water would otherwise rescale the canvas mid-fight).
  include(scene) {
    const a = scene.arena, key = `${a.x0},${a.y0},${a.width},${a.height},${a.blocked.length},${a.blocked[0]}`;
    if (!this.data) this.arenaBoxes.set(key, [a.x0, a.y0, a.x0 + a.width - 1, a.y0 + a.height - 1]);
    if (!this.arenaBoxes.has(key)) {
      const blocked = new Set(a.blocked.map(([x, y]) => `${x},${y}`)), open = [Infinity, Infinity, -Infinity, -Infinity];
      for (let x = a.x0; x < a.x0 + a.width; x++) {
        for (let y = a.y0; y < a.y0 + a.height; y++) if (!blocked.has(`${x},${y}`)) grow(open, x, y, 1);
      }
      this.arenaBoxes.set(key, open[0] <= open[2] ? open : [a.x0, a.y0, a.x0 + a.width - 1, a.y0 + a.height - 1]);
    }
    const box = [...this.arenaBoxes.get(key)], b = this.bounds, m = MARGIN_TILES;
    for (const t of [...scene.entities, ...(scene.objects || [])]) grow(box, t.x, t.y, t.size);
    const [x0, y0, x1, y1] = [box[0] - m, box[1] - m, box[2] + m, box[3] + m];
    this.bounds = b === null ? { x0, y0, width: x1 - x0 + 1, height: y1 - y0 + 1 }
      : { x0: Math.min(x0, b.x0), y0: Math.min(y0, b.y0), width: Math.max(x1, b.x0 + b.width - 1) - Math.min(x0, b.x0) + 1,
        height: Math.max(y1, b.y0 + b.height - 1) - Math.min(y0, b.y0) + 1 };
  }

  // zoom to ``zoom`` times the fit, keeping canvas pixel (px, py) (default: the view's centre) where it is in the view
  setZoom(zoom, px, py) {
    const v = this.view, before = this.drawn.tile;
    if (px === undefined) { px = v.scrollLeft + v.clientWidth / 2; py = v.scrollTop + v.clientHeight / 2; }
    const sx = px - v.scrollLeft, sy = py - v.scrollTop;
    this.zoom = Math.min(ZOOM_MAX, Math.max(1, zoom));
    if (!this.scene) return;
    drawScene(this, this.scene);
    const k = this.drawn.tile / before;
    v.scrollLeft = px * k - sx; v.scrollTop = py * k - sy;
  }

  // the entities the shown decision attacks: the replay's action at this frame, or the queued one in play
  targetIds() {
    const heads = this.data ? this.data.heads : (viewer.play.state ? viewer.play.state.heads : []);
    const row = this.data ? (this.data.actions[this.frame] || [[]])[0] : heads.map((h) => viewer.play.queue[h.name] || 0);
    return heads.map((h, hi) => h.targets && h.targets[row[hi]]).filter(Boolean);
  }

  // the entity drawn under canvas pixel (px, py) (entities sharing a tile each have their own slice)
  entityAtPixel(px, py) {
    const d = this.drawn ? this.drawn.entities : {};
    const id = Object.keys(d).find((k) => px >= d[k].left && px < d[k].left + d[k].width && py >= d[k].top
      && py < d[k].top + d[k].height);
    return id === undefined ? null : { id, ...d[id] };
  }

  entityAt(tile) {
    const hits = (this.scene ? this.scene.entities : []).filter((e) =>
      tile.x >= e.x && tile.x < e.x + e.size && tile.y >= e.y && tile.y < e.y + e.size);
    return hits.length ? hits[hits.length - 1] : null;   // the one drawn last is on top
  }

  showFrame(frame) {
    if (!this.data) return;
    this.frame = Math.min(frame, this.lastFrame());
    this.render(this.data.scenes[this.frame]);
    this.renderAnnotations();
    this.renderCursor();
  }

  render(scene) {
    this.scene = scene;
    drawScene(this, scene);
    renderSide(this.side, scene);
    this.root.dataset.tick = scene.tick;
    this.root.dataset.phase = scene.phase || "";
  }

  renderAnnotations() {
    const d = this.data, t = this.frame, box = this.annot;
    box.replaceChildren();
    const ticks = d.actions.length;
    box.append(el("h3", {}, t < ticks ? `decision at frame ${t} (leads to ${t + 1})` : "episode end"));
    if (t >= ticks) { box.append(el("div", { id: `outcome-${this.index}` }, `${d.outcome}, return ${d.return.map((r) => fmt(r)).join(", ")}`)); return; }
    box.append(el("div", { id: `value-${this.index}` }, `value ${fmt(d.values ? d.values[t] : null)}`));
    box.append(el("div", { id: `reward-${this.index}` }, `reward ${d.rewards[t].map((r) => fmt(r)).join(", ")}`));
    const comps = Object.entries(d.reward_components);
    if (comps.length) {
      box.append(el("table", { id: `components-${this.index}` },
        comps.map(([k, v]) => el("tr", {}, el("td", {}, k), el("td", {}, fmt(v[t]))))));
    }
    const rows = d.heads.map((h, hi) => {
      const chosen = d.actions[t][0][hi];
      let cells;
      if (d.probs) {
        const ranked = d.probs[hi][t].map((v, k) => [v, k]).sort((a, b) => b[0] - a[0]);
        const p = ranked.slice(0, 3);
        if (!p.some(([, k]) => k === chosen)) p.push(ranked.find(([, k]) => k === chosen));   // sampled below the top 3
        cells = p.map(([v, k]) => el("td", { class: k === chosen ? "chosen" : "", title: h.labels[k] },
          `${optionText(h, k, this.scene)} ${(100 * v).toFixed(0)}%`));
      } else {
        cells = [el("td", { class: "chosen", title: h.labels[chosen] }, optionText(h, chosen, this.scene))];
      }
      return el("tr", { "data-head": h.name }, el("td", {}, h.name), cells);
    });
    box.append(el("h3", {}, d.probs ? "top actions (chosen in yellow)" : "actions"));
    box.append(el("table", { id: `top-${this.index}` }, rows));
    if (d.agents.length > 1) {
      const other = d.actions[t].slice(1).map((row, a) =>
        `${d.agents[a + 1]}: ` + row.map((o, hi) => (o ? `${d.heads[hi].name} ${optionText(d.heads[hi], o, this.scene)}` : null))
          .filter(Boolean).join(", "));
      box.append(el("div", { class: "other-agents" }, other.join("; ") || ""));
    }
  }

  renderTimeline() {
    const n = Math.max(1, this.lastFrame());
    this.timeline.replaceChildren(...this.data.events.map((ev) =>
      el("div", { class: `ev ev-${ev.kind}`, title: `tick ${ev.tick}: ${ev.text}`, "data-tick": ev.tick,
        "data-kind": ev.kind, style: `left: ${(100 * ev.tick) / n}%` })));
    this.cursor = el("div", { class: "cursor" });
    this.timeline.append(this.cursor);
  }

  renderCursor() {
    if (this.cursor) this.cursor.style.left = `${(100 * this.frame) / Math.max(1, this.lastFrame())}%`;
  }
}

// ---- drawing a scene ---------------------------------------------------------------------------------------
// widen ``box`` ([x0, y0, x1, y1], tiles, inclusive) to hold the size x size footprint at (x, y)
function grow(box, x, y, size) {
  box[0] = Math.min(box[0], x); box[1] = Math.min(box[1], y);
  box[2] = Math.max(box[2], x + size - 1); box[3] = Math.max(box[3], y + size - 1);
}

// the room the pane's view may take: the body's width less the panels beside it, and the window's height
// below the view's top less the timeline's. The panels go under the view (class "stacked") with two panes,
// or where beside it they would leave it less than half the width (a narrow window)
function viewRoom(pane) {
  const width = pane.body.clientWidth;
  const beside = [pane.side, pane.annot].filter((x) => !x.hidden).reduce((sum, x) => sum + x.offsetWidth + 8, 0);
  const stacked = viewer.panes.length > 1 || width - beside < width / 2;
  pane.body.classList.toggle("stacked", stacked);
  const top = pane.view.getBoundingClientRect().top + window.scrollY;
  return [Math.max(120, width - (stacked ? 0 : beside)), Math.max(VIEW_MIN_PX, window.innerHeight - top - BELOW_VIEW_PX)];
}

function drawScene(pane, scene) {
  const a = scene.arena, cv = pane.canvas, ctx = cv.getContext("2d");
  pane.include(scene);
  const b = pane.bounds, [roomW, roomH] = viewRoom(pane);
  const fit = Math.max(TILE_PX_MIN, Math.min(TILE_PX_FIT_MAX, Math.floor(Math.min(roomW / b.width, roomH / b.height))));
  const ts = Math.max(TILE_PX_MIN, Math.round(fit * pane.zoom));
  const W = b.width * ts, H = b.height * ts, scrolls = W > roomW || H > roomH;
  if (cv.width !== W || cv.height !== H) {
    cv.width = W; cv.height = H;
    cv.style.width = `${W}px`; cv.style.height = `${H}px`;
  }
  pane.view.style.width = `${scrolls ? roomW : W}px`;
  pane.view.style.height = `${scrolls ? roomH : H}px`;
  pane.stage.style.width = pane.view.style.width;
  pane.zoomLabel.textContent = `${ts} px a tile${pane.zoom > 1 ? ` (zoom ${pane.zoom.toFixed(2)}x)` : ""}`;
  const left = (x) => (x - b.x0) * ts, top = (y) => (b.y0 + b.height - 1 - y) * ts;
  const drawn = { entities: {}, overlays: {}, tile: ts, bounds: { ...b }, pending: [], splats: [], objects: [], targets: [] };
  ctx.fillStyle = "#25272a"; ctx.fillRect(0, 0, W, H);                        // the margin, outside the arena
  const ax = left(a.x0), ay = top(a.y0 + a.height - 1), aw = a.width * ts, ah = a.height * ts;
  ctx.fillStyle = "#3b4a34"; ctx.fillRect(ax, ay, aw, ah);
  ctx.strokeStyle = "rgba(0, 0, 0, 0.25)"; ctx.lineWidth = 1;
  for (let c = 0; c <= a.width; c++) { ctx.beginPath(); ctx.moveTo(ax + c * ts + 0.5, ay); ctx.lineTo(ax + c * ts + 0.5, ay + ah); ctx.stroke(); }
  for (let r = 0; r <= a.height; r++) { ctx.beginPath(); ctx.moveTo(ax, ay + r * ts + 0.5); ctx.lineTo(ax + aw, ay + r * ts + 0.5); ctx.stroke(); }
  ctx.fillStyle = "#111";
  for (const [x, y] of a.blocked || []) ctx.fillRect(left(x), top(y), ts, ts);
  for (const [name, on] of Object.entries(viewer.overlays)) {
    const tiles = (scene.overlays && scene.overlays[name]) || [];
    drawn.overlays[name] = on ? tiles.length : 0;
    if (!on) continue;
    ctx.fillStyle = OVERLAY_STYLE[name];
    for (const [x, y] of tiles) ctx.fillRect(left(x), top(y), ts, ts);
  }
  // text is not drawn where it is asked for but collected and laid out at the end (placeLabels), so
  // that no two labels overlap and none leaves the canvas
  const labels = [];
  for (const o of scene.objects || []) {
    const box = [left(o.x), top(o.y + o.size - 1), left(o.x) + o.size * ts, top(o.y + o.size - 1) + o.size * ts];
    ctx.strokeStyle = "#d4b483"; ctx.lineWidth = 2;
    ctx.strokeRect(box[0] + 2, box[1] + 2, o.size * ts - 4, o.size * ts - 4);
    drawn.objects.push({ kind: o.kind, label: o.label, box });
  }
  // one label for each group of touching objects of one kind and label (the glyph's shelter is one object a tile)
  for (const g of objectGroups(scene.objects || [])) {
    labels.push({ text: g.label, x: (left(g.box[0]) + left(g.box[2] + 1)) / 2, y: (top(g.box[3]) + top(g.box[1] - 1)) / 2,
      color: "#d4b483", kind: "object", of: g.kind });
  }
  // entities on the same tiles (PvP "under") share them: each gets a vertical slice, so none hides another
  const stacks = {};
  for (const e of scene.entities) (stacks[`${e.x},${e.y},${e.size}`] ||= []).push(e.id);
  const centre = {};
  for (const e of scene.entities) {
    const stack = stacks[`${e.x},${e.y},${e.size}`], n = stack.length, k = stack.indexOf(e.id);
    const full = e.size * ts, w = full / n, x0 = left(e.x) + k * w, y0 = top(e.y + e.size - 1);
    const cx = x0 + w / 2, cy = y0 + full / 2;
    centre[e.id] = [cx, cy];
    ctx.fillStyle = e.color || "#cccccc";
    ctx.globalAlpha = e.hp > 0 ? 0.9 : 0.35;
    ctx.fillRect(x0 + 1, y0 + 2, w - 2, full - 4);
    ctx.globalAlpha = 1;
    if (n > 1) { ctx.strokeStyle = "#000"; ctx.lineWidth = 1; ctx.strokeRect(x0 + 1.5, y0 + 2.5, w - 3, full - 5); }
    const stunned = e.stunned || 0;      // optional in the scene format: encounters without a stun omit it
    if (e.frozen > 0 || stunned > 0) {
      ctx.strokeStyle = stunned > 0 ? "#ffaa28" : "#7fdbff"; ctx.lineWidth = 3; ctx.strokeRect(x0 + 2, y0 + 2, w - 4, full - 4);
    }
    const frac = e.max_hp > 0 ? Math.min(1, Math.max(0, e.hp) / e.max_hp) : 0;   // the HP bar (brews overheal)
    ctx.fillStyle = "#c0392b"; ctx.fillRect(x0 + 2, y0 + 2, w - 4, 4);        // inside the tile: never clipped
    ctx.fillStyle = "#2ecc71"; ctx.fillRect(x0 + 2, y0 + 2, (w - 4) * frac, 4);
    const hpText = `${e.hp}/${e.max_hp}`, label = e.label || e.name;
    const bits = [e.overhead ? `[${e.overhead}]` : null, e.style, e.attack_timer !== null && e.attack_timer !== undefined ? `t${e.attack_timer}` : null,
      e.frozen > 0 ? `frozen ${e.frozen}` : null, stunned > 0 ? `stunned ${stunned}` : null].filter(Boolean);
    labels.push({ text: hpText, x: cx, y: cy, color: "#fff", kind: "hp", of: e.id });
    labels.push({ text: label, x: cx, y: y0 - 8, color: "#fff", kind: "name", of: e.id });
    if (bits.length) labels.push({ text: bits.join(" "), x: cx, y: y0 + full + 8, color: "#ffd866", kind: "bits", of: e.id });
    drawn.entities[e.id] = { x: cx, y: cy, left: x0, top: y0, width: w, height: full, stacked: n, tile: [e.x, e.y],
      hpText, overhead: e.overhead, style: e.style, attackTimer: e.attack_timer, frozen: e.frozen, stunned, name: e.name,
      label, hp: e.hp, maxHp: e.max_hp, bits: bits.join(" ") };
  }
  // what the shown decision attacks: a dashed ring, so an attack option (the Inferno's slot_K) points at its monster
  ctx.setLineDash([4, 3]); ctx.strokeStyle = "#ffd866"; ctx.lineWidth = 2;
  for (const id of pane.targetIds()) {
    const d = drawn.entities[id];
    if (!d) continue;
    ctx.strokeRect(d.left - 1, d.top, d.width + 2, d.height);
    drawn.targets.push(id);
  }
  // hits in flight: a dashed arrow in the style's colour, labelled with the style only (the game shows the
  // projectile, not its damage, until it lands as a hitsplat)
  ctx.setLineDash([4, 4]); ctx.lineWidth = 1.5;
  for (const h of scene.pending_hits || []) {
    const p = centre[h.from], q = centre[h.to];
    if (!p || !q) continue;
    const color = STYLE_COLORS[h.style] || "#ffd866";
    ctx.strokeStyle = color; ctx.beginPath(); ctx.moveTo(p[0], p[1]); ctx.lineTo(q[0], q[1]); ctx.stroke();
    const head = arrowhead(p, q, ts);
    ctx.setLineDash([]); ctx.fillStyle = color; ctx.beginPath(); ctx.moveTo(...head[0]); ctx.lineTo(...head[1]);
    ctx.lineTo(...head[2]); ctx.closePath(); ctx.fill(); ctx.setLineDash([4, 4]);
    labels.push({ text: h.style, x: (p[0] + q[0]) / 2, y: (p[1] + q[1]) / 2 - 6, color, kind: "pending", of: h.to });
    drawn.pending.push({ text: h.style, from: h.from, to: h.to, style: h.style, arrow: head });
  }
  ctx.setLineDash([]);
  (scene.hitsplats || []).forEach((s) => {
    const c = centre[s.on];
    if (!c) return;
    labels.push({ text: String(s.damage), x: c[0], y: c[1] - 12, color: "#fff", kind: "splat", of: s.on,
      disc: SPLAT_COLORS[s.kind] || "#c0392b" });
    drawn.splats.push({ on: s.on, damage: s.damage, kind: s.kind });
  });
  const laid = placeLabels(ctx, labels, W, H);
  drawn.labels = laid.placed;
  drawn.hidden = laid.hidden;
  pane.hiddenNote.textContent = laid.hidden.length ? `${laid.hidden.length} labels hidden here: zoom in, or hover` : "";
  pane.drawn = drawn;
  cv.dataset.tick = scene.tick;
  cv.dataset.overlays = Object.entries(drawn.overlays).filter(([, n]) => n > 0).map(([k]) => k).join(",");
}

// objects grouped where they touch and share a kind and label: [{kind, label, box: [x0, y0, x1, y1]}]
function objectGroups(objects) {
  const groups = [];
  for (const o of objects) {
    const box = [o.x, o.y, o.x + o.size - 1, o.y + o.size - 1];
    const near = groups.filter((g) => g.kind === o.kind && g.label === o.label && box[0] <= g.box[2] + 1
      && g.box[0] <= box[2] + 1 && box[1] <= g.box[3] + 1 && g.box[1] <= box[3] + 1);
    for (const g of near) { grow(box, g.box[0], g.box[1], 1); grow(box, g.box[2], g.box[3], 1); groups.splice(groups.indexOf(g), 1); }
    groups.push({ kind: o.kind, label: o.label, box });
  }
  return groups;
}

function describe(d) {
  const bits = [d.label || d.name, `hp ${d.hpText}`, d.overhead ? `praying ${d.overhead}` : null, d.style,
    d.attackTimer !== null && d.attackTimer !== undefined ? `${d.attackTimer} ticks to attack` : null,
    d.frozen > 0 ? `frozen: cannot move for ${d.frozen} ticks` : null,
    d.stunned > 0 ? `stunned: cannot move nor attack for ${d.stunned} ticks` : null];
  return bits.filter(Boolean).join(", ");
}

// the arrowhead of a line p -> q: its tip a quarter tile short of q (on the target's edge), a third of a tile long
function arrowhead(p, q, ts) {
  const dx = q[0] - p[0], dy = q[1] - p[1], n = Math.max(Math.hypot(dx, dy), 1e-9), ux = dx / n, uy = dy / n;
  const tip = [q[0] - ux * ts / 4, q[1] - uy * ts / 4], back = ts / 3, half = ts / 7;
  const base = [tip[0] - ux * back, tip[1] - uy * back];
  return [tip, [base[0] - uy * half, base[1] + ux * half], [base[0] + uy * half, base[1] - ux * half]];
}

// Lay out ``labels`` ({text, x, y, color, kind, of, disc?}: centred at (x, y) if it can be) so that no two
// boxes intersect and every box lies inside the W x H canvas: each in turn (splats, names, hitpoints, then the
// rest) takes the nearest free spot among shifts of whole lines up or down and half widths sideways, at most
// LABEL_REACH lines away: a label pushed further would sit by another entity (on an Inferno knot, a pile), so it
// is hidden instead (the hover still says it; zooming in makes room). Returns {placed: boxes, hidden: labels}.
const LABEL_H = 13, LABEL_PAD = 2;
function placeLabels(ctx, labels, W, H) {
  ctx.font = "11px sans-serif";
  const order = { splat: 0, name: 1, hp: 2, bits: 3, pending: 4, object: 5 };
  const placed = [], hidden = [];
  const clash = (b) => placed.some((o) => b[0] < o.box[2] && o.box[0] < b[2] && b[1] < o.box[3] && o.box[1] < b[3]);
  const shifts = [];
  for (let r = 0; r <= LABEL_REACH; r++) for (const dy of r ? [-r, r] : [0]) for (let dx = -3; dx <= 3; dx++) shifts.push([dx, dy]);
  shifts.sort((a, b) => Math.hypot(a[0] * 0.8, a[1]) - Math.hypot(b[0] * 0.8, b[1]));
  for (const l of [...labels].sort((a, b) => order[a.kind] - order[b.kind])) {
    const w = Math.max(ctx.measureText(l.text).width + 2 * LABEL_PAD, l.disc ? LABEL_H + 4 : 0), h = l.disc ? LABEL_H + 4 : LABEL_H;
    let best = null;
    for (const [dx, dy] of shifts) {
      const cx = Math.min(W - w / 2, Math.max(w / 2, l.x + dx * (w / 2 + 1)));
      const cy = Math.min(H - h / 2, Math.max(h / 2, l.y + dy * (h + 1)));
      const box = [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2];
      if (!clash(box)) { best = box; break; }
    }
    if (best === null) { hidden.push({ text: l.text, kind: l.kind, of: l.of }); continue; }
    placed.push({ text: l.text, kind: l.kind, of: l.of, box: best, anchor: [l.x, l.y], color: l.color, disc: l.disc });
  }
  // a label pushed away from its place gets a thin leader line back to it; lines first, text on top
  ctx.lineWidth = 1; ctx.globalAlpha = 0.6;
  for (const q of placed) {
    const cx = (q.box[0] + q.box[2]) / 2, cy = (q.box[1] + q.box[3]) / 2;
    if (Math.hypot(cx - q.anchor[0], cy - q.anchor[1]) <= LABEL_H) continue;
    const ex = Math.min(q.box[2], Math.max(q.box[0], q.anchor[0])), ey = Math.min(q.box[3], Math.max(q.box[1], q.anchor[1]));
    ctx.strokeStyle = q.color; ctx.beginPath(); ctx.moveTo(q.anchor[0], q.anchor[1]); ctx.lineTo(ex, ey); ctx.stroke();
  }
  ctx.globalAlpha = 1;
  for (const q of placed) {
    const cx = (q.box[0] + q.box[2]) / 2, cy = (q.box[1] + q.box[3]) / 2;
    if (q.disc) {
      ctx.fillStyle = q.disc; ctx.beginPath(); ctx.arc(cx, cy, (q.box[3] - q.box[1]) / 2, 0, 2 * Math.PI); ctx.fill();
    }
    label(ctx, q.text, cx, cy + 0.5, q.color);
  }
  return { placed: placed.map(({ text, kind, of, box }) => ({ text, kind, of, box })), hidden };
}

// option k of head h as the page shows it: a target by the label of the entity it names in ``scene`` (the
// Inferno's slot_4 as "Jal-Ak #4"; the raw label stays in the tooltip), any other option by its label
function optionText(h, k, scene) {
  const id = h.targets && h.targets[k];
  if (!id) return h.labels[k];
  const e = scene && scene.entities.find((x) => x.id === id);
  return e ? e.label || e.name : `${h.labels[k]} (nothing there)`;
}

function label(ctx, text, x, y, color) {
  ctx.font = "11px sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
  ctx.lineWidth = 3; ctx.strokeStyle = "rgba(0,0,0,0.8)"; ctx.strokeText(text, x, y);
  ctx.fillStyle = color; ctx.fillText(text, x, y);
}

function renderSide(box, scene) {
  const rows = (pairs) => el("table", {}, pairs.map(([k, v]) => el("tr", {}, el("td", {}, k), el("td", {}, String(v)))));
  box.replaceChildren(el("div", { class: "tick" }, `tick ${scene.tick}`),
    el("div", { class: "phase" }, `phase ${scene.phase || "-"}`));
  // a player sees only its own panel; a replay shows every one
  const panels = viewer.mode === "play" ? (scene.panels || []).slice(0, 1) : scene.panels || [];
  for (const p of panels) {
    box.append(el("h3", {}, p.agent),
      rows([["HP", `${p.hp[0]}/${p.hp[1]}`], ["prayer", `${p.prayer[0]}/${p.prayer[1]}`],
        ["run energy", fmt(p.run_energy, 1)], ["spec", p.spec === null ? "-" : fmt(p.spec, 0)],
        ["prayers", (p.prayers || []).join(", ") || "none"]]));
    if (p.inventory && p.inventory.length) box.append(el("h3", {}, "inventory"), rows(p.inventory));
    if (p.equipment && Object.keys(p.equipment).length) box.append(el("h3", {}, "equipment"), rows(Object.entries(p.equipment)));
    if (p.stats && Object.keys(p.stats).length) {
      box.append(el("h3", {}, "stats"), rows(Object.entries(p.stats).map(([k, v]) => [k, `${v[0]}/${v[1]}`])));
    }
    if (p.timers && Object.keys(p.timers).length) box.append(el("h3", {}, "timers"), rows(Object.entries(p.timers)));
  }
}

// ---- the viewer: panes, controls, playback -----------------------------------------------------------------
const viewer = {
  mode: null, panes: [], frame: 0, maxFrame: 0, playing: false, speed: 1, timer: null,
  overlays: { line_of_sight: false, danger: false }, replays: [], config: null,
  // play: ``busy`` while a tick is asked for, ``loading`` while a fight starts; input that comes then is
  // kept, not dropped: keys in ``early`` (pressed before the fight's buttons exist), a tick in ``tickQueued``
  play: { session: null, state: null, queue: {}, auto: false, busy: false, loading: false, note: "", saved: null,
    early: [], tickQueued: false },
  keyHandler: null,               // the mode's key handler; keys pressed before it is set wait in ``early``

  async start() {
    document.addEventListener("keydown", (ev) => {
      if (typing(ev.target) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      if (this.keyHandler) { this.keyHandler(ev); return; }
      if (ev.key === "Enter" || ev.key === " ") ev.preventDefault();
      this.play.early.push(ev.key);               // the page is still loading: kept for the mode's handler
    });
    this.config = await api("/api/config");
    this.mode = this.config.mode;
    document.body.dataset.mode = this.mode;
    $("mode-label").textContent = this.mode === "play" ? `play ${this.config.play.encounter}` : "replay viewer";
    bindCommonControls();
    if (this.mode === "play") await startPlay(); else await startView();
    document.body.dataset.ready = "true";
  },

  seek(frame) {
    this.frame = Math.max(0, Math.min(frame, this.maxFrame));
    for (const p of this.panes) p.showFrame(this.frame);
    $("scrub").value = String(this.frame);
    $("tick-label").textContent = `tick ${this.frame} / ${this.maxFrame}`;
  },

  setPlaying(on) {
    this.playing = on;
    clearInterval(this.timer);
    $("btn-play").textContent = on ? "pause" : "play";
    $("btn-play").dataset.playing = String(on);
    if (!on) return;
    if (this.frame >= this.maxFrame) this.seek(0);
    this.timer = setInterval(() => {
      if (this.frame >= this.maxFrame) this.setPlaying(false); else this.seek(this.frame + 1);
    }, PLAY_TICK_MS / this.speed);
  },

  redraw() {
    for (const p of this.panes) if (p.scene) drawScene(p, p.scene);
  },

  // zoom keys in the viewer: + and - step, 0 fits (two panes zoom together)
  zoomKey(key) {
    const step = { "+": ZOOM_STEP, "=": ZOOM_STEP, "-": 1 / ZOOM_STEP }[key];
    if (step === undefined && key !== "0") return false;
    for (const p of this.panes) p.setZoom(step === undefined ? 1 : p.zoom * step);
    return true;
  },
};
window.viewer = viewer;

function bindCommonControls() {
  const toggle = (id, name) => $(id).addEventListener("change", (ev) => {
    viewer.overlays[name] = ev.target.checked; viewer.redraw();
  });
  toggle("ov-los", "line_of_sight");
  toggle("ov-danger", "danger");
  window.addEventListener("resize", () => viewer.redraw());     // the canvas fits the window it is in
}

// ---- view mode ------------------------------------------------------------------------------------------------
async function startView() {
  $("view-controls").hidden = false;
  $("picker").hidden = false;
  viewer.replays = viewer.config.replays;
  const fill = (sel, none) => sel.replaceChildren(...(none ? [el("option", { value: "" }, "(none)")] : []),
    ...viewer.replays.map((r) => el("option", { value: r.id }, `${r.name} (${r.encounter}, ${r.ticks} ticks)`)));
  fill($("pick-a"), false);
  fill($("pick-b"), true);
  const params = new URLSearchParams(location.search);
  const ids = params.has("a") ? [params.get("a"), params.get("b")].filter(Boolean) : viewer.config.open;
  $("open-replays").addEventListener("click", () =>
    openReplays([$("pick-a").value, $("pick-b").value].filter(Boolean)).catch(showError));
  $("btn-play").addEventListener("click", () => viewer.setPlaying(!viewer.playing));
  $("btn-back").addEventListener("click", () => { viewer.setPlaying(false); viewer.seek(viewer.frame - 1); });
  $("btn-fwd").addEventListener("click", () => { viewer.setPlaying(false); viewer.seek(viewer.frame + 1); });
  $("scrub").addEventListener("input", (ev) => viewer.seek(Number(ev.target.value)));
  $("speed").addEventListener("change", (ev) => {
    viewer.speed = Number(ev.target.value);
    if (viewer.playing) viewer.setPlaying(true);
  });
  viewer.keyHandler = (ev) => {
    if (ev.key === " ") { ev.preventDefault(); viewer.setPlaying(!viewer.playing); }
    else if (ev.key === "ArrowRight") viewer.seek(viewer.frame + 1);
    else if (ev.key === "ArrowLeft") viewer.seek(viewer.frame - 1);
    else viewer.zoomKey(ev.key);
  };
  viewer.play.early = [];            // keys pressed while the page loaded: nothing to replay them on yet
  if (ids.length) await openReplays(ids);
}

async function openReplays(ids) {
  viewer.setPlaying(false);
  const datas = await Promise.all(ids.slice(0, 2).map((id) => api(`/api/replays/${encodeURIComponent(id)}`)));
  $("pick-a").value = ids[0] || "";
  $("pick-b").value = ids[1] || "";
  viewer.panes = datas.map((d, i) => {
    const pane = new Pane(i);
    pane.data = d;
    pane.title.textContent = `${d.name}: ${d.encounter}, ${d.ticks} ticks, ${d.outcome}`;
    pane.renderTimeline();
    for (const scene of d.scenes) pane.include(scene);      // one frame for the whole replay: no jumps
    return pane;
  });
  $("panes").replaceChildren(...viewer.panes.map((p) => p.root));
  $("panes").classList.toggle("two", viewer.panes.length > 1);
  viewer.maxFrame = Math.max(0, ...viewer.panes.map((p) => p.lastFrame()));
  $("scrub").max = String(viewer.maxFrame);
  document.body.dataset.open = ids.join(",");
  viewer.seek(0);
}

// ---- play mode ------------------------------------------------------------------------------------------------
async function startPlay() {
  $("play-controls").hidden = false;
  const cfg = viewer.config.play;
  const sel = $("play-opponent");
  const options = cfg.checkpoint ? [["", `checkpoint ${cfg.checkpoint}`]] : [];
  if (!cfg.tiers.length && !cfg.checkpoint) options.push(["", "(the encounter's own)"]);
  for (const t of cfg.tiers) options.push([t, t]);
  sel.replaceChildren(...options.map(([v, text]) => el("option", { value: v }, text)));
  if (cfg.opponent !== null && cfg.opponent !== undefined) {
    sel.value = typeof cfg.opponent === "number" ? cfg.tiers[cfg.opponent] : cfg.opponent;
  }
  const pane = new Pane(0);
  viewer.panes = [pane];
  $("panes").replaceChildren(pane.root);
  pane.timeline.hidden = true;
  pane.legend.hidden = true;
  pane.annot.hidden = true;           // no policy to annotate: the tick and return are in the controls
  pane.canvas.addEventListener("click", (ev) => clickCanvas(pane, ev.offsetX, ev.offsetY).catch(showError));
  $("play-step").addEventListener("click", () => askTick());
  $("play-auto").addEventListener("change", (ev) => setAuto(ev.target.checked));
  $("play-new").addEventListener("click", () => newSession().catch(showError));
  $("play-save").addEventListener("click", () => saveSession().catch(showError));
  viewer.keyHandler = (ev) => {
    if (ev.key === "Enter") ev.preventDefault();
    playKey(ev.key);
  };
  await newSession();
}

// a key in play: Enter ticks, a hotkey presses its button; while a fight is starting it waits in ``early``
function playKey(key) {
  const play = viewer.play;
  if (play.loading || !play.state) {
    play.early.push(key);
    setStatus(`starting the fight: ${play.early.length} key(s) kept for it`);
    return;
  }
  if (key === "Enter") { askTick(); return; }
  const button = document.querySelector(`#actions button[data-key="${CSS.escape(key.toLowerCase())}"]`);
  if (button && !button.disabled) button.click();
}

// the busy mark: body[data-busy] at once (tests read it), the visible "working" note only when an answer
// takes longer than BUSY_SHOW_MS (a quick tick does not flicker)
const BUSY_SHOW_MS = 250;
let busyTimer = null;
function setBusy(on, text) {
  document.body.dataset.busy = String(on);
  clearTimeout(busyTimer);
  if (!on) { $("busy").hidden = true; return; }
  $("busy").textContent = text;
  busyTimer = setTimeout(() => { $("busy").hidden = false; }, BUSY_SHOW_MS);
}

async function newSession() {
  const play = viewer.play;
  const body = {};
  const opponent = $("play-opponent").value;
  if (opponent) body.opponent = opponent;
  play.loading = true;
  setBusy(true, "starting the fight...");
  let state;
  try {
    state = await api("/api/play", body);
  } finally {
    play.loading = false;
    setBusy(false);
  }
  play.session = state.session;
  play.saved = null;
  play.queue = {};
  play.tickQueued = false;
  setPlayState(state);
  setStatus(`new fight: ${state.encounter} against ${state.meta.opponent || "the encounter's own opponent"}`);
  const early = play.early.splice(0);      // keys pressed while it started, in order, on its buttons
  for (const key of early) playKey(key);
}

function setPlayState(state) {
  viewer.play.state = state;
  viewer.panes[0].render(state.scene);
  $("play-tick").textContent = `tick ${state.tick}${state.done ? " (over)" : ""}, return ${fmt(state.return)}`;
  document.body.dataset.session = state.session;
  document.body.dataset.tick = state.tick;
  renderActionButtons(state.heads, state.scene);
  renderQueue();
  if (state.done) { setAuto(false); setStatus(`the fight is over: ${state.outcome || (state.terminated ? "decided" : "time")}; save it or start a new one`); }
}

function renderActionButtons(heads, scene) {
  const box = $("actions");
  box.replaceChildren(...heads.map((h) => el("div", { class: "head-group", "data-head": h.name },
    el("span", {}, h.name),
    h.labels.map((lab, k) => {
      if (k === 0) return null;                        // option 0 is the no-op: an empty queue sends it
      const key = HOTKEYS[`${h.name}:${lab}`];
      const b = el("button", { type: "button", id: `act-${h.name}-${k}`, disabled: !h.legal[k],
        "data-head": h.name, "data-option": String(k), "data-key": key || "", title: lab },
        key ? `${optionText(h, k, scene)} [${key}]` : optionText(h, k, scene));
      b.addEventListener("click", () => {
        if (viewer.play.queue[h.name] === k) delete viewer.play.queue[h.name]; else viewer.play.queue[h.name] = k;
        renderQueue();
      });
      return b;
    }))));
}

function renderQueue() {
  const q = viewer.play.queue, heads = viewer.play.state ? viewer.play.state.heads : [];
  const names = Object.entries(q).map(([h, k]) => {
    const head = heads.find((x) => x.name === h);
    return `${h} ${head ? optionText(head, k, viewer.play.state.scene) : k}`;
  });
  $("queue").textContent = `queued: ${names.join(", ") || "nothing"}`;
  viewer.redraw();                     // the queued attack's target is ringed
  for (const b of document.querySelectorAll("#actions button")) {
    b.classList.toggle("queued", q[b.dataset.head] === Number(b.dataset.option));
  }
}

function setStatus(text) { viewer.play.note = text; $("status").textContent = text; }

async function clickCanvas(pane, px, py) {
  const tile = pane.tileAt(px, py);
  if (!tile || !viewer.play.session) return;
  const target = pane.entityAt(tile);
  const body = target ? { entity: target.id } : { tile: [tile.x, tile.y] };
  const res = await api(`/api/play/${viewer.play.session}/click`, body);
  Object.assign(viewer.play.queue, res.intents);
  renderQueue();
  setStatus(`clicked ${target ? target.name : `(${tile.x}, ${tile.y})`}: ${res.note}`);
}

// a tick the player asked for (the button, Enter): sent now, or once the tick in flight is answered
function askTick() {
  const play = viewer.play;
  if (play.loading || !play.state) { playKey("Enter"); return; }
  if (play.busy) { play.tickQueued = true; return; }
  playStep().catch(showError);
}

async function playStep() {
  const play = viewer.play;
  if (!play.session || play.busy || play.loading || (play.state && play.state.done)) return;
  play.busy = true;
  setBusy(true, "waiting for the tick...");
  try {
    const intents = play.queue;        // what is clicked from now on is queued for the next tick
    play.queue = {};
    const state = await api(`/api/play/${play.session}/step`, { intents });
    setPlayState(state);
  } catch (err) {
    play.tickQueued = false;           // a refused tick takes the one asked after it along
    throw err;
  } finally {
    play.busy = false;
    setBusy(false);
  }
  if (play.tickQueued) {               // asked for while this one was in flight
    play.tickQueued = false;
    await playStep();
  }
}

function setAuto(on) {
  viewer.play.auto = on;
  $("play-auto").checked = on;
  clearInterval(viewer.play.timer);
  if (on) viewer.play.timer = setInterval(() => playStep().catch((e) => { setAuto(false); showError(e); }), PLAY_TICK_MS);
}

async function saveSession() {
  const res = await api(`/api/play/${viewer.play.session}/save`, {});
  viewer.play.saved = res;
  setStatus(`saved ${res.path} (${res.ticks} ticks): ${res.verify}`);
}

viewer.start().catch(showError);
