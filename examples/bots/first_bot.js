#!/usr/bin/env node
// A bot for updown's engine protocol in Node.js, with nothing but Node itself.
// It bids what its hand's high cards and trumps promise, and plays the first legal card
// that wins the trick while it still needs tricks, else one that loses.
//   updown simulate --variant oh-hell --games 20 --bots "exec:node examples/bots/first_bot.js,heuristic,random,random"
const readline = require("readline");

function choose(view) {
  const legal = view.legal;
  if (view.phase === "bid") {
    const strong = view.hand.filter((c) => /^(A|K|JK)/.test(c) || (view.trump && c.endsWith(view.trump))).length;
    const wanted = legal.find((a) => a === `bid ${strong}`);
    return wanted || legal[0];
  }
  if (view.phase === "play") {
    const bid = view.bids[view.seat];
    const need = bid === null ? 1 : bid - view.taken[view.seat];
    const pool = need > 0 ? view.winning_plays : legal.filter((a) => !view.winning_plays.includes(a));
    if (pool.length > 0) return pool[0];
  }
  return legal[0];
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type !== "act") return; // a message this bot does not know: no answer
  process.stdout.write(JSON.stringify({ action: choose(message.view) }) + "\n");
});
