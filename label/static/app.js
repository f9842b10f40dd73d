// The labelling page. Every string from the server is shown with
// textContent, never parsed as HTML.
"use strict";
(function () {
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || "";
  let labeller = params.get("labeller") || localStorage.getItem("labeller") || "";
  let config = { show_scores: false, instructions: "", arms: 2, rank: false, budget: 0 };
  let current = null;
  let ranking = []; // positions chosen so far in a ranking
  let busy = false;
  let toastTimer = null;
  const $ = (id) => document.getElementById(id);

  function api(method, path, body) {
    const headers = {};
    if (token) headers["Authorization"] = "Bearer " + token;
    const init = { method: method, headers: headers };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(path, init).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (!r.ok) {
          const e = new Error(data.error || r.statusText);
          e.status = r.status;
          throw e;
        }
        return data;
      });
    });
  }

  function withParams(url, extra) {
    const p = new URLSearchParams();
    if (token) p.set("token", token);
    if (extra) p.set("labeller", extra);
    const s = p.toString();
    return s ? url + "?" + s : url;
  }

  function setImage(img, url) {
    if (url) {
      img.src = withParams(url);
      img.hidden = false;
    } else {
      img.removeAttribute("src");
      img.hidden = true;
    }
  }

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  function say(text, isError) {
    $("message").textContent = text;
    $("message").className = isError ? "error" : "";
  }

  // toast shows a short confirmation (an answer saved, an undo).
  function toast(text) {
    const t = $("toast");
    t.textContent = text;
    t.hidden = false;
    document.body.dataset.toast = text;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { t.hidden = true; }, 1800);
  }

  function plural(n, one, many) { return n + " " + (n === 1 ? one : many); }

  function showProgress(p) {
    $("progress-mine").textContent = "You: " + plural(p.mine, "answer", "answers") +
      (p.mine_skipped ? " (" + p.mine_skipped + " skipped)" : "");
    let s = "Session: " + plural(p.answered, "answer", "answers");
    const bar = $("progress-bar");
    if (p.remaining !== null && p.remaining !== undefined && p.budget > 0) {
      const done = p.budget - p.remaining;
      s = "Session: " + done + " of " + p.budget + " (" + Math.floor(100 * done / p.budget) + "%)";
      bar.max = p.budget;
      bar.value = done;
      bar.hidden = false;
    } else {
      bar.hidden = true;
    }
    $("progress-session").textContent = s;
  }

  function fmt(x) { return x === null ? "–" : x.toFixed(3); }

  function ordinal(n) { return n === 1 ? "1st" : n === 2 ? "2nd" : n === 3 ? "3rd" : n + "th"; }

  // renderSet builds the buttons of a set of arms (best of k, ranking).
  function renderSet(q) {
    const box = $("set");
    box.replaceChildren();
    q.arms.forEach(function (a, i) {
      const b = el("button", undefined, "option");
      b.type = "button";
      b.dataset.pos = String(i);
      const img = el("img");
      img.alt = "";
      setImage(img, a.image);
      b.appendChild(img);
      b.appendChild(el("span", a.label, "text"));
      b.appendChild(el("span", "", "rank-badge"));
      b.appendChild(el("span", "key " + (i + 1), "key"));
      b.addEventListener("click", function () { pick(i); });
      box.appendChild(b);
    });
    ranking = [];
    markRanking();
  }

  function markRanking() {
    document.querySelectorAll("#set .option").forEach(function (b) {
      const r = ranking.indexOf(Number(b.dataset.pos));
      b.querySelector(".rank-badge").textContent = r >= 0 ? ordinal(r + 1) : "";
      b.classList.toggle("ranked", r >= 0);
    });
    $("reset-rank").hidden = !(current && current.rank && ranking.length > 0);
  }

  function show(q) {
    current = q;
    $("context-label").textContent = q.context_label;
    setImage($("context-img"), q.context_image);
    const isSet = q.set;
    $("pair").hidden = isSet;
    $("set").hidden = !isSet;
    $("tie").hidden = isSet;
    $("both-bad").textContent = "";
    $("both-bad").append(isSet ? "All bad " : "Both bad ", el("kbd", "B"));
    if (isSet) {
      renderSet(q);
      $("set-help").textContent = q.rank ?
        "Rank them: press the keys (or click) from best to worst." :
        "Which is best? Press its key, or click it.";
      $("set-help").hidden = false;
    } else {
      $("set-help").hidden = true;
      $("reset-rank").hidden = true;
      $("left-label").textContent = q.arm1_label;
      setImage($("left-img"), q.arm1_image);
      $("right-label").textContent = q.arm2_label;
      setImage($("right-img"), q.arm2_image);
    }
    if (config.show_scores) {
      $("reason").textContent = "query " + q.id + " · learner's score " + fmt(q.score) + ", σ " + fmt(q.sigma);
      $("reason").hidden = false;
    }
    showProgress(q.progress);
    $("duel").hidden = false;
    say("");
    document.body.dataset.qid = q.id;
  }

  function next() {
    return api("GET", "/api/next?labeller=" + encodeURIComponent(labeller)).then(function (q) {
      if (q.done) {
        current = null;
        $("duel").hidden = true;
        showProgress(q.progress);
        say("Done: " + q.message + ". Thank you!");
        document.body.dataset.qid = "done";
        return;
      }
      show(q);
    }, function (e) {
      if (e.status === 503) {
        say(e.message);
        return new Promise(function (resolve) { setTimeout(resolve, 2000); }).then(next);
      }
      throw e;
    });
  }

  // fail shows an error; when the query is no longer pending (409), or is
  // unknown (404: the server restarted with another log), it shows the next.
  function fail(e) {
    say(e.message, true);
    if (e.status === 409 || e.status === 404) return next();
  }

  function act(call, done) {
    if (busy) return;
    busy = true;
    document.body.dataset.busy = "1";
    call().then(function (r) {
      if (done) done(r);
      return next();
    }).catch(fail).finally(function () {
      busy = false;
      delete document.body.dataset.busy;
    });
  }

  function saved(what) {
    return function () { toast(what + " saved ✓"); };
  }

  function answer(y) {
    if (!current || current.set) return;
    const id = current.id;
    act(function () { return api("POST", "/api/answer", { id: id, labeller: labeller, y: y }); },
      saved(y === 0.5 ? "Equally good" : "Answer"));
  }

  function bothBad() {
    if (!current) return;
    const id = current.id;
    const body = current.set ? { id: id, labeller: labeller, both_bad: true } :
      { id: id, labeller: labeller, y: 0.5, both_bad: true };
    act(function () { return api("POST", "/api/answer", body); }, saved(current.set ? "All bad" : "Both bad"));
  }

  // pick chooses position i of a set: the best of k, or the next rank.
  function pick(i) {
    if (!current || !current.set || busy || i >= current.arms.length) return;
    const id = current.id;
    if (!current.rank) {
      act(function () { return api("POST", "/api/answer", { id: id, labeller: labeller, order: [i] }); }, saved("Best"));
      return;
    }
    if (ranking.indexOf(i) >= 0) return;
    ranking.push(i);
    markRanking();
    const k = current.arms.length;
    if (ranking.length === k - 1) {
      for (let p = 0; p < k; p++) {
        if (ranking.indexOf(p) < 0) ranking.push(p);
      }
      markRanking();
      const order = ranking.slice();
      act(function () { return api("POST", "/api/answer", { id: id, labeller: labeller, order: order }); }, saved("Ranking"));
    }
  }

  function resetRanking() {
    if (!current || !current.rank) return;
    ranking = [];
    markRanking();
  }

  function skip() {
    if (!current) return;
    const id = current.id;
    act(function () { return api("POST", "/api/skip", { id: id, labeller: labeller }); }, function () { toast("Skipped"); });
  }

  function undo() {
    act(function () { return api("POST", "/api/undo", { labeller: labeller }); }, function (r) {
      const u = r.undone;
      const arms = u.arms && u.arms.length > 2 ? u.arms.join(", ") : u.arm1 + " vs " + u.arm2;
      toast("Undone: " + u.context + ", " + arms + " (shown again)");
    });
  }

  function showGuide(open) {
    $("guide").hidden = !open;
  }

  function renderGuide(text) {
    const box = $("guide-text");
    box.replaceChildren();
    text.split(/\n\s*\n/).forEach(function (para) {
      if (para.trim()) box.appendChild(el("p", para.trim()));
    });
  }

  function start() {
    $("who").hidden = true;
    $("who-am-i").textContent = "labeller " + labeller;
    if (config.show_scores) {
      $("summary-link").href = withParams("/summary", labeller);
      $("summary-link").hidden = false;
    }
    if (config.instructions) {
      renderGuide(config.instructions);
      $("show-guide").hidden = false;
      const seen = "guide-seen:" + config.instructions.length + ":" + config.instructions.slice(0, 64);
      showGuide(!localStorage.getItem(seen));
      localStorage.setItem(seen, "1");
    }
    $("show-guide").addEventListener("click", function () { showGuide($("guide").hidden); });
    $("guide-close").addEventListener("click", function () { showGuide(false); });
    $("left").addEventListener("click", function () { answer(1); });
    $("right").addEventListener("click", function () { answer(0); });
    $("tie").addEventListener("click", function () { answer(0.5); });
    $("both-bad").addEventListener("click", bothBad);
    $("skip").addEventListener("click", skip);
    $("undo").addEventListener("click", undo);
    $("reset-rank").addEventListener("click", resetRanking);
    document.addEventListener("keydown", function (ev) {
      if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
      if (ev.target && (ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA")) return;
      // Letters in either case: Caps Lock and Shift do not matter.
      const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
      const keys = {
        arrowleft: function () { answer(1); },
        arrowright: function () { answer(0); },
        t: function () { answer(0.5); },
        b: bothBad,
        s: skip,
        u: undo,
        backspace: resetRanking,
      };
      let f = keys[key.toLowerCase()];
      if (!f && /^[1-9]$/.test(key)) {
        const i = Number(key) - 1;
        f = function () { pick(i); };
      }
      if (!f) return;
      ev.preventDefault();
      // A key held down repeats its keydown: one press is one action, or
      // the repeats would answer duels the labeller never saw.
      if (ev.repeat) return;
      f();
    });
    busy = true;
    next().catch(fail).finally(function () { busy = false; });
  }

  function begin() {
    if (/^[A-Za-z0-9._@-]{1,64}$/.test(labeller)) {
      start();
      return;
    }
    $("who").hidden = false;
    $("who").addEventListener("submit", function (ev) {
      ev.preventDefault();
      labeller = $("who-name").value;
      localStorage.setItem("labeller", labeller);
      params.set("labeller", labeller);
      history.replaceState(null, "", "?" + params.toString());
      start();
    });
  }

  api("GET", "/api/config").then(function (c) { config = c; }).catch(function (e) {
    say(e.message, true);
  }).finally(begin);
})();
