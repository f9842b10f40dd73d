// The summary page: the current policy, built with textContent only.
"use strict";
(function () {
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || "";
  const $ = (id) => document.getElementById(id);

  const back = new URLSearchParams();
  if (token) back.set("token", token);
  if (params.get("labeller")) back.set("labeller", params.get("labeller"));
  $("back-link").href = "/" + (back.toString() ? "?" + back.toString() : "");
  if (token) {
    $("export-link").href = "/api/export?token=" + encodeURIComponent(token);
    $("export-all-link").href = "/api/export?scope=all&token=" + encodeURIComponent(token);
  }

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function fmt(x) { return x === null ? "–" : x.toFixed(3); }

  const headers = token ? { Authorization: "Bearer " + token } : {};
  fetch("/api/summary", { headers: headers }).then(function (r) {
    return r.json().then(function (d) {
      if (!r.ok) throw new Error(d.error || r.statusText);
      return d;
    });
  }).then(function (s) {
    $("answered").textContent = s.answered + " answers in this session";
    const l = s.learner;
    let t = "The learner has used " + (l.used === null ? "the" : l.used) + " answers";
    if (l.used !== null) {
      t += ": " + l.prior + " given before the session (the answers file) and " + l.session + " from this session";
    } else {
      t += " of this session (" + l.session + ")";
    }
    t += "; ties, answers \u201cboth bad\u201d, skips and consistency checks are not used, and a ranking counts the duels it implies.";
    if (l.stale > 0) {
      t += " It still holds " + l.stale + " undone " + (l.stale === 1 ? "answer" : "answers") + (l.rebuilding ? ", until the rebuild in progress replaces it." : ".");
    }
    if (l.error) t += " The last rebuild failed: " + l.error;
    $("learner").textContent = t;
    const body = $("policy").querySelector("tbody");
    s.contexts.forEach(function (c) {
      const tr = el("tr");
      tr.appendChild(el("td", c.label));
      const best = c.policy_index >= 0 ? c.arms[c.policy_index].label : "none yet";
      tr.appendChild(el("td", best));
      tr.appendChild(el("td", String(c.queries)));
      const td = el("td");
      const ul = el("ul");
      c.arms.forEach(function (a) {
        ul.appendChild(el("li", a.label + ": " + fmt(a.score) + " ± " + fmt(a.sigma),
          a.index === c.policy_index ? "best" : ""));
      });
      td.appendChild(ul);
      tr.appendChild(td);
      body.appendChild(tr);
    });
    document.body.dataset.ready = "1";
  }).catch(function (e) {
    $("message").textContent = e.message;
    $("message").className = "error";
  });
})();
