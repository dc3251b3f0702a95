"use strict";
// The inspect report's page: the chunks (headers from the index, bodies drawn when they come
// into view), the outline, the search. Document text only ever goes into textContent.
(() => {
  const index = JSON.parse(document.getElementById("report-index").textContent);
  const parts = new Map(); // part number -> Map(chunk order -> pieces)
  const waiting = new Map(); // part number -> functions to call once it is here
  const texts = new Map(); // chunk order -> its text, for the search
  const partOf = new Map(index.chunks.map((c) => [c[0], c[7]]));
  let query = "";

  function el(tag, cls, content) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (content !== undefined) node.textContent = content;
    node.dir = "auto"; // each paragraph, cell and heading takes its own direction
    return node;
  }

  function marked(parent, text) {
    const low = text.toLowerCase();
    if (!query || low.length !== text.length) {
      parent.append(text);
      return;
    }
    let at = 0;
    for (let hit = low.indexOf(query); hit >= 0; hit = low.indexOf(query, at)) {
      parent.append(text.slice(at, hit), el("mark", "", text.slice(hit, hit + query.length)));
      at = hit + query.length;
    }
    parent.append(text.slice(at));
  }

  function runs(parent, list) {
    for (const run of list) {
      if (typeof run === "string") marked(parent, run);
      else if (run[0] === "d") {
        const what = ["picture", run[1].toUpperCase(), run[2], run[3]].filter(Boolean);
        parent.append(el("span", "drawing", "\u{1F5BC} " + what.join(" \u00b7 ")));
      } else parent.append(el("code", "eq", run[1]));
    }
  }

  function piece(p) {
    if (p[0] === "h" || p[0] === "p") {
      const node = el("p", p[0] === "h" ? "h h" + p[1] : "");
      runs(node, p[0] === "h" ? p[2] : p[1]);
      return node;
    }
    if (p[0] === "t") {
      const table = el("table");
      for (const cells of p[1]) {
        const row = table.insertRow();
        for (const cell of cells) {
          const td = el("td");
          if (typeof cell === "string") marked(td, cell);
          else runs(td, cell);
          row.append(td);
        }
      }
      return table;
    }
    return el("pre", "", p[1]);
  }

  function textOf(pieces) {
    const words = (list) =>
      typeof list === "string"
        ? list
        : list.map((r) => (typeof r === "string" ? r : r.slice(1).join(" "))).join("");
    return pieces
      .map((p) => {
        if (p[0] === "t") return p[1].map((cells) => cells.map(words).join(" ")).join("\n");
        if (p[0] === "x") return p[1];
        return words(p[0] === "h" ? p[2] : p[1]);
      })
      .join("\n");
  }

  window.lightragPchunkPart = (number, chunks) => {
    const byOrder = new Map();
    for (const [order, pieces] of chunks) {
      byOrder.set(order, pieces);
      texts.set(order, textOf(pieces));
    }
    parts.set(number, byOrder);
    for (const then of waiting.get(number) || []) then();
    waiting.delete(number);
  };

  function withPart(number, then) {
    if (parts.has(number)) return then();
    if (!waiting.has(number)) {
      waiting.set(number, []);
      if (index.partFile) {
        const script = document.createElement("script");
        script.src = index.partFile.replace("{n}", String(number).padStart(3, "0"));
        script.onerror = () => missing(number, script.src);
        document.head.append(script);
      }
    }
    waiting.get(number).push(then);
  }

  function missing(number, file) {
    for (const section of document.querySelectorAll(".chunk")) {
      if (partOf.get(Number(section.dataset.order)) !== number) continue;
      const note = "the text of this chunk is in " + decodeURI(file.split("/").slice(-2).join("/"));
      section.querySelector(".body").replaceChildren(el("p", "", note + ", which is missing"));
    }
  }

  function fill(section) {
    const order = Number(section.dataset.order);
    const number = partOf.get(order);
    withPart(number, () => {
      const pieces = parts.get(number).get(order) || [];
      section.querySelector(".body").replaceChildren(...pieces.map(piece));
      section.dataset.marked = query;
    });
  }

  const shown = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        shown.unobserve(entry.target);
        fill(entry.target);
      }
    },
    { rootMargin: "800px 0px" },
  );

  const colour = (role) => index.colours[role] || index.colours.none;
  const list = document.getElementById("chunks");
  for (const [order, tokens, level, role, pages, path, broken] of index.chunks) {
    const section = el("section", "chunk");
    section.id = "chunk-" + order;
    section.dataset.order = order;
    const over = tokens > index.targetMax;
    if (over) section.classList.add("over");
    section.style.borderLeftColor = colour(role);
    const head = el("header");
    head.append(el("span", "", "#" + order), el("span", "path", path));
    head.append(el("span", "", tokens + " tokens"), el("span", "", "level " + level));
    if (role !== "none") head.append(el("span", "", "table slice: " + role));
    if (pages) head.append(el("span", "", pages));
    for (const promise of broken) head.append(el("span", "broken", "breadcrumb " + promise));
    const bar = el("div", "bar");
    bar.style.width = Math.min(tokens / index.targetMax, 1) * 100 + "%";
    bar.style.background = over ? index.over : colour(role);
    section.append(head, bar, el("div", "body"));
    list.append(section);
    shown.observe(section);
  }

  // The chunks in reach now are drawn at once, the others when they come into view.
  for (const section of list.children) {
    if (section.getBoundingClientRect().top > innerHeight + 800) break;
    shown.unobserve(section);
    fill(section);
  }

  const outline = document.getElementById("outline");
  for (const [level, heading, first, last] of index.outline) {
    const entry = el(first < 0 ? "span" : "a", first < 0 ? "out" : "");
    entry.dir = "ltr";
    entry.append(el("span", "", heading)); // its own direction, apart from the chunk numbers
    if (first < 0) entry.title = "left out of the chunks on purpose (a drop setting)";
    else {
      entry.href = "#chunk-" + first;
      const chunks = last > first ? "#" + first + "\u2013" + last : "#" + first;
      entry.append(el("small", "", chunks));
    }
    entry.style.paddingLeft = 4 + 12 * (Math.min(level, 9) - 1) + "px";
    outline.append(entry);
  }

  const search = document.getElementById("search");
  const found = document.getElementById("found");
  const results = document.getElementById("results");
  let timer = 0;
  search.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(find, 200);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "/" && document.activeElement !== search) {
      event.preventDefault();
      search.focus();
    }
  });

  function find() {
    query = search.value.trim().toLowerCase();
    outline.hidden = Boolean(query);
    results.hidden = !query;
    if (!query) {
      found.textContent = "";
      return remark();
    }
    found.textContent = "searching\u2026";
    const asked = query;
    let pending = index.parts;
    for (let number = 1; number <= index.parts; number++) {
      withPart(number, () => {
        pending -= 1;
        if (pending === 0 && asked === query) list_found();
      });
    }
  }

  function list_found() {
    results.replaceChildren();
    let count = 0;
    for (const [order, , , , , path] of index.chunks) {
      const text = texts.get(order) || "";
      const at = text.toLowerCase().indexOf(query);
      if (at < 0 && !path.toLowerCase().includes(query)) continue;
      count += 1;
      if (count > 200) continue;
      const link = el("a");
      link.dir = "ltr";
      link.href = "#chunk-" + order;
      link.append(el("small", "", "#" + order + " "), el("span", "", path));
      if (at >= 0) {
        const around = text.slice(Math.max(at - 40, 0), at + query.length + 60).replace(/\s+/g, " ");
        const snippet = el("span", "snippet");
        marked(snippet, around);
        link.append(snippet);
      }
      results.append(link);
    }
    const chunks = count === 1 ? "1 chunk" : count + " chunks";
    found.textContent = count ? chunks + (count > 200 ? ", the first 200 listed" : "") : "no chunk holds it";
    remark();
  }

  // A link to a search: report.html#search=WORDS.
  if (location.hash.startsWith("#search=")) {
    search.value = decodeURIComponent(location.hash.slice("#search=".length));
    find();
  }

  function remark() {
    for (const section of document.querySelectorAll(".chunk[data-marked]")) {
      if (section.dataset.marked !== query) fill(section);
    }
  }
})();
