// The replay of a recorded game, drawn from the data the page carries (no rules here: the
// cards, winners, points and totals are the checker's). Buttons and the arrow keys step it:
// ← → one step, ↑ ↓ one deal, Home / End the first and the last step.
(function () {
  "use strict";

  // The words the page writes: English here, the reader's language from the page's "replay-words".
  var W = {
    none: "The record has no deal to replay.", step: "step {n} of {of}", title: "Deal {number} of {deals}: {cards}",
    card: "{n} card", cards: "{n} cards", info: "dealer {dealer} · trump {trump}", turned: " · turned ",
    bidding: "The bidding", scores: "The scores", trick: "Trick {number} of {tricks}: {leader} leads",
    stops: ", and the deal stops at {name}'s card (the penalty)", wins: ", {name} wins", player: "player",
    bid: "bid", taken: "taken", card_head: "card", hand: "hand", points: "points", total: "total",
    dealer: "dealer", leads: "leads", call: " (call {call})", best: "best", loss: "loss"
  };
  var given = document.getElementById("replay-words");
  if (given) {
    var words = JSON.parse(given.textContent);
    Object.keys(words).forEach(function (k) { W[k] = words[k]; });
  }

  function fmt(text, fields) {
    return text.replace(/\{(\w+)\}/g, function (m, k) { return fields[k] !== undefined ? String(fields[k]) : m; });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function cardEl(c, extra) {
    var e = el("span", "card" + (c.red ? " red" : "") + (c.trump ? " trump" : "") + (c.joker ? " joker" : "") +
               (extra ? " " + extra : ""), c.text);
    e.setAttribute("data-card", c.code);
    e.title = c.text;
    return e;
  }

  // The analysis of one decision (updown view --analyse): its mark and loss, the action the
  // search prefers and, for a bid, the chance of each number of tricks.
  function judged(a) {
    var e = el("span", "judged" + (a.mark === "??" ? " big" : a.mark === "?" ? " mistake" : ""));
    e.setAttribute("data-loss", a.loss);
    var text = a.mark || "";
    if (a.best !== a.taken) text += (text ? " " : "") + "−" + a.loss.toFixed(1) + " (" + W.best + " " + a.best + ")";
    e.textContent = text;
    e.title = W.loss + " " + a.loss.toFixed(1);
    if (a.tricks) {
      var dist = el("span", "tricks");
      a.tricks.forEach(function (p, k) {
        if (p >= 0.05) dist.appendChild(el("span", "chance", k + ":" + Math.round(100 * p) + "%"));
      });
      e.appendChild(dist);
    }
    return e;
  }

  function Replay(section) {
    this.section = section;
    this.data = JSON.parse(section.querySelector('script[type="application/json"]').textContent);
    this.board = section.querySelector(".board");
    this.position = section.querySelector(".position");
    this.steps = [];
    var self = this;
    this.data.deals.forEach(function (deal, i) {
      self.steps.push({ deal: i, at: "bids", trick: 0 });
      deal.tricks.forEach(function (t, k) { self.steps.push({ deal: i, at: "trick", trick: k + 1 }); });
      self.steps.push({ deal: i, at: "score", trick: 0 });
    });
    this.index = 0;
    section.querySelectorAll(".controls button").forEach(function (b) {
      b.addEventListener("click", function () { self.go(b.getAttribute("data-go")); });
    });
    section.querySelectorAll("table.sheet tbody tr").forEach(function (tr) {
      tr.addEventListener("click", function () {
        self.show(+tr.getAttribute("data-row"), "bids", 0);
        self.board.scrollIntoView({ block: "nearest" });  // the replay may be far above the row
      });
    });
    section.querySelectorAll("a.goto").forEach(function (a) {
      a.addEventListener("click", function (ev) {
        ev.preventDefault();
        self.show(+a.getAttribute("data-deal"), a.getAttribute("data-at"), +a.getAttribute("data-trick"));
        self.board.scrollIntoView({ block: "nearest" });
      });
    });
    this.render();
  }

  Replay.prototype.show = function (deal, at, trick) {
    for (var i = 0; i < this.steps.length; i++) {
      var s = this.steps[i];
      if (s.deal === deal && s.at === at && (at !== "trick" || s.trick === trick)) { this.index = i; break; }
    }
    this.render();
  };

  Replay.prototype.go = function (where) {
    var n = this.steps.length, cur = this.steps[this.index], i;
    if (!n) return;
    if (where === "next") this.index = Math.min(n - 1, this.index + 1);
    else if (where === "prev") this.index = Math.max(0, this.index - 1);
    else if (where === "first") this.index = 0;
    else if (where === "last") this.index = n - 1;
    else if (where === "next-deal") {
      for (i = this.index; i < n && this.steps[i].deal === cur.deal; i++);
      if (i < n) this.index = i;
    } else if (where === "prev-deal") {
      var target = cur.at === "bids" ? cur.deal - 1 : cur.deal;
      if (target < 0) target = 0;
      for (i = 0; i < n && this.steps[i].deal !== target; i++);
      this.index = i;
    }
    this.render();
  };

  Replay.prototype.render = function () {
    var data = this.data, board = this.board, names = data.players;
    board.textContent = "";
    this.section.querySelectorAll("table.sheet tbody tr.current").forEach(function (tr) {
      tr.classList.remove("current");
    });
    var buttons = this.section.querySelectorAll(".controls button");
    var last = this.steps.length - 1, index = this.index;
    buttons.forEach(function (b) {
      var go = b.getAttribute("data-go");
      b.disabled = last < 0 || ((go === "prev" || go === "first" || go === "prev-deal") && index === 0) ||
                   ((go === "next" || go === "last" || go === "next-deal") && index === last);
    });
    if (!this.steps.length) {
      board.appendChild(el("p", "stage", W.none));
      this.position.textContent = "";
      return;
    }
    var step = this.steps[this.index], deal = data.deals[step.deal];
    var row = this.section.querySelector('table.sheet tbody tr[data-row="' + step.deal + '"]');
    if (row) row.classList.add("current");
    this.position.textContent = fmt(W.step, { n: this.index + 1, of: this.steps.length });

    var title = fmt(W.title, { number: deal.number, deals: data.summary.deals,
                              cards: fmt(deal.cards === 1 ? W.card : W.cards, { n: deal.cards }) });
    if (deal.mark !== String(deal.cards)) title += " (" + (deal.mark_text || deal.mark) + ")";
    if (deal.kind !== "deal") title += ", " + deal.kind;
    var h = el("h3", "deal-title", title);
    board.appendChild(h);
    var info = el("p", "deal-info");
    info.appendChild(document.createTextNode(fmt(W.info, { dealer: names[deal.dealer],
                                                             trump: deal.trump_text || deal.trump || "–" })));
    if (deal.turned) {
      info.appendChild(document.createTextNode(W.turned));
      info.appendChild(cardEl(deal.turned));
    }
    if (deal.note) info.appendChild(document.createTextNode(" · " + deal.note));
    board.appendChild(info);

    var shown = step.at === "trick" ? step.trick : (step.at === "score" ? deal.tricks.length : 0);
    var trick = step.at === "trick" ? deal.tricks[step.trick - 1] : null;
    var stage;
    if (step.at === "bids") stage = W.bidding;
    else if (step.at === "score") stage = W.scores;
    else {
      stage = fmt(W.trick, { number: step.trick, tricks: deal.tricks.length, leader: names[trick.leader] });
      var lastPlay = trick.plays[trick.plays.length - 1];
      stage += trick.winner === null ? fmt(W.stops, { name: names[lastPlay.seat] })
                                     : fmt(W.wins, { name: names[trick.winner] });
    }
    board.appendChild(el("p", "stage", stage));

    var taken = names.map(function () { return 0; });
    var played = {};
    for (var k = 0; k < shown; k++) {
      var t = deal.tricks[k];
      if (t.winner !== null) taken[t.winner] += 1;
      t.plays.forEach(function (p) { played[p.seat + ":" + p.code] = (played[p.seat + ":" + p.code] || 0) + 1; });
    }
    if (step.at === "score" && deal.taken) taken = deal.taken.slice();

    var here = deal.problems.filter(function (p) {
      return p.at === step.at && (p.at !== "trick" || p.trick === step.trick);
    });
    var offenders = {};
    here.forEach(function (p) { if (p.seat !== null && p.seat !== undefined) offenders[p.seat] = true; });

    var table = el("table", "seats");
    var head = el("tr");
    [W.player, W.bid, W.taken, W.card_head, deal.hands ? W.hand : "", step.at === "score" ? W.points : "",
     W.total].forEach(function (c, i) {
      var th = el("th", i === 1 || i === 2 || i >= 5 ? "num" : "", c);
      head.appendChild(th);
    });
    var thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
    var body = el("tbody");
    names.forEach(function (name, s) {
      var tr = el("tr", "seat-row");
      tr.setAttribute("data-seat", s);
      if (trick && trick.winner === s) tr.classList.add("winner");
      if (offenders[s]) tr.classList.add("offender");
      var who = el("td", "name", name);
      if (deal.dealer === s) who.appendChild(el("span", "tag", W.dealer));
      if (trick && trick.leader === s) who.appendChild(el("span", "tag", W.leads));
      tr.appendChild(who);
      var bid = el("td", "num bid", deal.bids[s] === null ? "–" : String(deal.bids[s]));
      if (deal.calls && deal.calls[s] !== null) bid.appendChild(el("span", "call", fmt(W.call, { call: deal.calls[s] })));
      if (deal.analysis && step.at === "bids") {
        ["trump", "bid"].forEach(function (kind) {
          var a = deal.analysis.bids[kind + ":" + s];
          if (a) bid.appendChild(judged(a));
        });
      }
      tr.appendChild(bid);
      tr.appendChild(el("td", "num taken", step.at === "bids" ? "" : taken[s]));
      var cell = el("td", "played");
      if (trick) {
        trick.plays.forEach(function (p) {
          if (p.seat !== s) return;
          cell.appendChild(cardEl(p));
          if (p.declare) cell.appendChild(el("span", "declare", p.declare));
          var a = deal.analysis && deal.analysis.plays[step.trick + ":" + s];
          if (a) cell.appendChild(judged(a));
        });
      }
      tr.appendChild(cell);
      var hand = el("td", "hand");
      if (deal.hands) {
        var used = {};
        deal.hands[s].forEach(function (c) {
          var key = s + ":" + c.code;
          used[key] = (used[key] || 0) + 1;
          hand.appendChild(cardEl(c, used[key] <= (played[key] || 0) ? "gone" : ""));
        });
      }
      tr.appendChild(hand);
      tr.appendChild(el("td", "num points", step.at === "score" ? deal.points[s] : ""));
      tr.appendChild(el("td", "num total", step.at === "score" ? deal.totals[s] : deal.totals_before[s]));
      body.appendChild(tr);
    });
    table.appendChild(body);
    board.appendChild(table);

    if (shown) {
      var list = el("ol", "tricks");
      for (k = 0; k < shown; k++) {
        var tk = deal.tricks[k];
        var li = el("li", k === shown - 1 && step.at === "trick" ? "now" : "");
        tk.plays.forEach(function (p, j) {
          if (j) li.appendChild(document.createTextNode(" · "));
          li.appendChild(document.createTextNode(names[p.seat] + " "));
          li.appendChild(cardEl(p));
          if (p.declare) li.appendChild(el("span", "declare", p.declare));
        });
        li.appendChild(document.createTextNode(tk.winner === null ? "" : " → " + names[tk.winner]));
        list.appendChild(li);
      }
      board.appendChild(list);
    }

    if (here.length) {
      var box = el("div", "problem-box");
      here.forEach(function (p) {
        var line = el("p", "problem");
        line.setAttribute("data-code", p.code);
        line.appendChild(el("span", "sev sev-" + p.severity, p.severity + "[" + p.code + "]"));
        var where = p.at === "score" && p.trick ? " (trick " + p.trick + ")" : "";
        line.appendChild(document.createTextNode(" line " + p.line + where + ": " + p.message));
        if (p.hint) { line.appendChild(el("br")); line.appendChild(el("span", "hint", "hint: " + p.hint)); }
        box.appendChild(line);
      });
      board.appendChild(box);
    }
  };

  var replays = [];
  document.querySelectorAll("section.game").forEach(function (s) { replays.push(new Replay(s)); });

  function current() {
    if (replays.length === 1) return replays[0];
    var id = location.hash.slice(1);
    for (var i = 0; i < replays.length; i++) if (replays[i].section.id === id) return replays[i];
    return null;
  }

  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var r = current();
    if (!r) return;
    var go = { ArrowRight: "next", ArrowLeft: "prev", ArrowDown: "next-deal", ArrowUp: "prev-deal",
               Home: "first", End: "last" }[ev.key];
    if (go) { ev.preventDefault(); r.go(go); }
  });
  window.updownReplays = replays;
})();
