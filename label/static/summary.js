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
  if (token) $("export-link").href = "/api/export?token=" + encodeURIComponent(token);

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
    $("answered").textContent = s.answered + " answers";
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
